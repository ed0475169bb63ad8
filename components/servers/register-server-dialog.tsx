"use client";
// Registering a server connects to it at once: the answer already says whether it came up (and how many
// tools it offers) or why it did not, so there is no separate "test connection" step.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { toast } from "sonner";
import { Dialog } from "@/components/dialog";
import { formText } from "@/components/form-data";
import { notifyError, notifySuccess } from "@/components/notify";
import { buttonPrimary, buttonSecondary, hint, input, label } from "@/components/ui";
import type { TCreateServer } from "@/lib/schemas";
import { slugify } from "./key-value-lines";
import { IsolationFields, isolationDraft, isolationErrors, readIsolation } from "./isolation-fields";
import { FormProblems, LaunchFields, readLaunch } from "./launch-fields";
import { createServer, serversKey, toolsKey } from "./queries";
import { useSandboxSupport } from "./sandbox-queries";
import { TransportPicker, type Transport } from "./transport-picker";

const FORM_ID = "register-server-form";

export function RegisterServerDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const queryClient = useQueryClient();
  const mutation = useMutation({
    mutationFn: createServer,
    onSuccess: async (res) => {
      const { server, tools } = res;
      const live = tools.filter((t) => !t.removed).length;
      if (server.status === "DOWN") {
        toast.error(`Registered ${server.name}, but it could not connect`, {
          description: server.lastError ?? "No error was reported.",
        });
      } else {
        notifySuccess(`Registered ${server.name}`, `${live} tool${live === 1 ? "" : "s"} discovered.`);
      }
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: serversKey }),
        queryClient.invalidateQueries({ queryKey: toolsKey }),
      ]);
      onClose();
    },
    onError: (err) => notifyError(err, "Could not register the server"),
  });

  return (
    <Dialog
      open={open}
      onClose={onClose}
      title="Register a server"
      description="Portcullis connects to the server right away and lists its tools. Agents see them once the server is healthy."
      footer={
        <>
          <button type="button" className={buttonSecondary} onClick={onClose} disabled={mutation.isPending}>
            Cancel
          </button>
          {/* The footer sits outside the <form>; `form=` ties the button to it. */}
          <button type="submit" form={FORM_ID} className={buttonPrimary} disabled={mutation.isPending}>
            {mutation.isPending ? "Connecting…" : "Register server"}
          </button>
        </>
      }
    >
      <RegisterServerForm
        pending={mutation.isPending}
        error={mutation.error}
        onSubmit={(body) => mutation.mutate(body)}
      />
    </Dialog>
  );
}

function RegisterServerForm({
  pending,
  error,
  onSubmit: submit,
}: {
  pending: boolean;
  /** The last failed attempt: its validation details about isolation are shown in that fieldset. */
  error: unknown;
  onSubmit: (body: TCreateServer) => void;
}) {
  const [transport, setTransport] = useState<Transport>("stdio");
  const [name, setName] = useState("");
  const [slug, setSlug] = useState("");
  const [slugEdited, setSlugEdited] = useState(false);
  const [problems, setProblems] = useState<string[]>([]);
  const [isolation, setIsolation] = useState(() => isolationDraft(null));
  const support = useSandboxSupport();

  function onSubmit(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    if (pending) return;
    const form = new FormData(e.currentTarget);
    const { launch, errors } = readLaunch(form, transport);
    const body: TCreateServer = {
      slug: slug.trim(),
      name: name.trim(),
      transport,
      ...launch,
      cwd: launch.cwd ?? undefined,
    };
    if (transport === "stdio") body.isolation = readIsolation(isolation, support.data?.defaultProfile);
    const timeout = formText(form, "timeoutMs");
    if (timeout) body.timeoutMs = Number(timeout);
    setProblems(errors);
    if (errors.length === 0) submit(body);
  }

  return (
    <form method="post" id={FORM_ID} onSubmit={onSubmit} aria-busy={pending} className="space-y-4" aria-label="Register a server">
      <div className="grid gap-4 sm:grid-cols-2">
        <div>
          <label htmlFor="server-name" className={label}>
            Name
          </label>
          <input
            id="server-name"
            value={name}
            onChange={(e) => {
              setName(e.target.value);
              if (!slugEdited) setSlug(slugify(e.target.value));
            }}
            required
            maxLength={200}
            autoComplete="off"
            placeholder="e.g. Orders database"
            className={`${input} mt-1`}
          />
        </div>
        <div>
          <label htmlFor="server-slug" className={label}>
            Slug
          </label>
          <input
            id="server-slug"
            value={slug}
            onChange={(e) => {
              setSlug(e.target.value);
              setSlugEdited(true);
            }}
            required
            pattern="[a-z0-9][a-z0-9\-]{0,62}"
            autoComplete="off"
            spellCheck={false}
            className={`${input} mt-1 font-mono`}
            aria-describedby="server-slug-hint"
          />
          <p id="server-slug-hint" className={hint}>
            Prefixes its tools for agents: <code className="font-mono">{slug || "slug"}__tool</code>.
          </p>
        </div>
      </div>

      <TransportPicker value={transport} onChange={setTransport} />

      <LaunchFields transport={transport} idPrefix="server" />

      {transport === "stdio" && (
        <IsolationFields idPrefix="server" draft={isolation} onChange={setIsolation} errors={isolationErrors(error)} />
      )}

      <div className="sm:w-1/2 sm:pr-2">
        <label htmlFor="server-timeout" className={label}>
          Call timeout (ms) <span className="font-normal text-slate-500">(optional)</span>
        </label>
        <input
          id="server-timeout"
          name="timeoutMs"
          type="number"
          min={100}
          max={600000}
          step={1}
          placeholder="30000"
          className={`${input} mt-1`}
        />
      </div>

      <FormProblems problems={problems} />
      {pending && (
        <p role="status" className="text-sm text-slate-600">
          Connecting to the server and listing its tools…
        </p>
      )}
    </form>
  );
}
