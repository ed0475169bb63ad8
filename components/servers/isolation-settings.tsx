"use client";
// The server page's Isolation card (stdio servers): the Isolation fieldset over the saved settings, saved with
// PATCH { isolation }. The gateway restarts the process under the new sandbox.
import { useState } from "react";
import { notifySuccess } from "@/components/notify";
import { buttonPrimary, card } from "@/components/ui";
import type { TServer } from "@/lib/schemas";
import { PROFILE_LABEL } from "./isolation-badge";
import {
  IsolationFields,
  PACKAGE_REFUSED_PROFILES,
  isolationDraft,
  isolationErrors,
  readIsolation,
} from "./isolation-fields";
import { useSandboxSupport } from "./sandbox-queries";
import { useUpdateServer } from "./server-mutations";
import { startsProcess } from "./format";

export function IsolationSettings({ server }: { server: TServer }) {
  if (!startsProcess(server.transport)) return null;
  // Starts over from the saved settings whenever they change (after a save, or another admin's).
  return <IsolationForm key={JSON.stringify(server.isolation)} server={server} />;
}

function IsolationForm({ server }: { server: TServer }) {
  const mutation = useUpdateServer(server);
  const support = useSandboxSupport();
  const [draft, setDraft] = useState(() => isolationDraft(server.isolation));
  const next = readIsolation(draft, support.data?.defaultProfile);
  const unchanged = next !== undefined && server.isolation !== null && canonical(next) === canonical(server.isolation);

  function onSubmit(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    if (!next) return;
    mutation.mutate({
      patch: { isolation: next },
      done: (res) => {
        const profile = res.server.isolation?.profile ?? next.profile;
        notifySuccess(
          profile === "none"
            ? `${server.name} now runs unsandboxed`
            : `${server.name} runs in ${PROFILE_LABEL[profile]}`,
          "Its process restarts with the new settings.",
        );
      },
    });
  }

  return (
    <section aria-labelledby="isolation-heading" className={`${card} p-5`}>
      <h3 id="isolation-heading" className="text-base font-semibold text-slate-900">
        Sandbox
      </h3>
      <p className="mt-1 text-sm text-slate-600">
        How the gateway confines this server&apos;s process: what it may see, reach and use.
      </p>
      <form method="post" onSubmit={onSubmit} className="mt-4 space-y-4" aria-label="Sandbox settings">
        <IsolationFields
          idPrefix="settings"
          draft={draft}
          onChange={setDraft}
          errors={isolationErrors(mutation.error)}
          disabled={mutation.isPending}
          refused={server.package ? PACKAGE_REFUSED_PROFILES : {}}
        />
        <button type="submit" className={buttonPrimary} disabled={mutation.isPending || !next || unchanged}>
          {mutation.isPending ? "Saving…" : "Save isolation"}
        </button>
      </form>
    </section>
  );
}

/** Key order does not matter when comparing what would be saved with what is. */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(",")}]`;
  if (v && typeof v === "object")
    return `{${Object.entries(v)
      .filter(([, x]) => x !== undefined)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([k, x]) => `${k}:${canonical(x)}`)
      .join(",")}}`;
  return JSON.stringify(v);
}
