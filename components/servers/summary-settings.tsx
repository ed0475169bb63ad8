"use client";
// The server page's "For agents" section: the one line browse_catalog shows for this server, changed in place.
import { useState } from "react";
import { isApiError } from "@/components/api-client";
import { formText } from "@/components/form-data";
import { notifySuccess } from "@/components/notify";
import { buttonPrimary, card } from "@/components/ui";
import type { TServer } from "@/lib/schemas";
import { useUpdateServer } from "./server-mutations";
import { SummaryField } from "./summary-field";

export function SummarySettings({ server }: { server: TServer }) {
  const mutation = useUpdateServer(server);
  const [problem, setProblem] = useState<string | null>(null);
  const details = isApiError(mutation.error) ? mutation.error.fieldErrors : [];
  return (
    <section aria-labelledby="server-summary-heading" className={`${card} p-5`}>
      <h3 id="server-summary-heading" className="text-base font-semibold text-slate-900">
        For agents
      </h3>
      <form
        method="post"
        className="mt-4 space-y-3"
        aria-labelledby="server-summary-heading"
        onSubmit={(e) => {
          e.preventDefault();
          if (problem || mutation.isPending) return;
          const summary = formText(new FormData(e.currentTarget), "summary");
          mutation.mutate({
            patch: { summary: summary || null },
            done: (res) =>
              notifySuccess(res.server.summary ? `Agents see ${server.name} as: ${res.server.summary}` : `${server.name}'s summary is derived again`),
          });
        }}
      >
        <SummaryField
          key={server.summary ?? ""}
          id="server-summary-edit"
          defaultValue={server.summary ?? ""}
          serverErrors={details.filter((d) => d.path === "summary").map((d) => d.message)}
          onProblem={setProblem}
        />
        <button type="submit" className={buttonPrimary} disabled={mutation.isPending || problem !== null}>
          Save summary
        </button>
      </form>
    </section>
  );
}
