"use client";
// "Connect an agent": the form, then (same dialog, new title) the one-time token and client configuration.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { isApiError } from "@/components/api-client";
import { Dialog } from "@/components/dialog";
import { notifyError, notifySuccess } from "@/components/notify";
import { buttonPrimary, buttonSecondary } from "@/components/ui";
import type { TCreatedSession } from "@/lib/policy-schemas";
import { AgentConnected } from "./agent-connected";
import { ConnectAgentForm } from "./connect-agent-form";
import { createSession, getMyGrant, getSessionSettings, grantKey, sessionSettingsKey, sessionsKey } from "./queries";

const FORM_ID = "connect-agent-form";

export function ConnectAgentDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const queryClient = useQueryClient();
  const [created, setCreated] = useState<TCreatedSession | null>(null);
  const [problems, setProblems] = useState<string[]>([]);

  const grant = useQuery({ queryKey: grantKey, queryFn: ({ signal }) => getMyGrant(signal), enabled: open });
  const settings = useQuery({
    queryKey: sessionSettingsKey,
    queryFn: ({ signal }) => getSessionSettings(signal),
    enabled: open,
  });

  const create = useMutation({
    mutationFn: createSession,
    onMutate: () => setProblems([]),
    onSuccess: async (res) => {
      setCreated(res);
      notifySuccess(`Agent “${res.agentId}” connected`);
      await queryClient.invalidateQueries({ queryKey: sessionsKey });
    },
    onError: (err) => {
      if (isApiError(err))
        setProblems(
          err.fieldErrors.length > 0 ? err.fieldErrors.map((f) => `${fieldName(f.path)}${f.message}`) : [err.message],
        );
      notifyError(err, "Could not connect the agent");
    },
  });

  function close() {
    setCreated(null);
    setProblems([]);
    create.reset();
    onClose();
  }

  if (created) {
    return (
      <Dialog
        open={open}
        onClose={close}
        title="Your agent is connected"
        description={
          created.callbackSecret
            ? "Copy the token and the signing secret now: this is the only time they are shown. Anyone holding the token can act as this agent until it expires or you revoke it."
            : "Copy the token now: this is the only time it is shown. Anyone holding it can act as this agent until it expires or you revoke it."
        }
        footer={
          <button type="button" className={buttonPrimary} onClick={close}>
            Done
          </button>
        }
      >
        <AgentConnected created={created} />
      </Dialog>
    );
  }

  return (
    <Dialog
      open={open}
      onClose={close}
      title="Connect an agent"
      description="The agent gets a session token that can use only the tools and paths you pick, and only those you hold yourself."
      footer={
        <>
          <button type="button" className={buttonSecondary} onClick={close} disabled={create.isPending}>
            Cancel
          </button>
          <button type="submit" form={FORM_ID} className={buttonPrimary} disabled={create.isPending}>
            {create.isPending ? "Connecting…" : "Create session"}
          </button>
        </>
      }
    >
      {grant.isError && (
        <p role="alert" className="mb-4 rounded-md bg-red-50 p-3 text-sm text-red-700">
          Could not load the tools you may call: {grant.error.message}
        </p>
      )}
      <ConnectAgentForm
        formId={FORM_ID}
        grant={grant.data}
        settings={settings.data}
        pending={create.isPending}
        serverProblems={problems}
        onSubmit={(body) => create.mutate(body)}
      />
    </Dialog>
  );
}

/** A 422 detail's path as the form names it: `paths.2` → "Allowed paths, line 3: ". */
function fieldName(path: string): string {
  const [field, index] = path.split(".");
  const name = {
    agentId: "Agent name",
    tools: "Tools",
    paths: "Allowed paths",
    ttlSeconds: "Lifetime",
    callbackUrl: "Callback URL",
    virtualServer: "Virtual server",
  }[field ?? ""];
  if (!name) return path ? `${path}: ` : "";
  return index === undefined ? `${name}: ` : `${name}, ${field === "paths" ? "line" : "entry"} ${Number(index) + 1}: `;
}
