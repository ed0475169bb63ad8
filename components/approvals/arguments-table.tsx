"use client";
// What the call would do: its arguments against the tool's input schema, one row per declared property (with
// the value given, its default, or "not given") and a flagged row for each argument the schema does not
// declare. Values are masked (personal data, secrets); approvers may reveal the originals, which is audited.
import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { DataTable, tableRow as t, type Column } from "@/components/data-table";
import { notifyError } from "@/components/notify";
import { Tag } from "@/components/tools/tier-badge";
import { buttonSecondary, card } from "@/components/ui";
import type { TApprovalDetail } from "@/lib/approval-schemas";
import { argumentRows, showValue, type ArgumentRow } from "./approval-format";
import { revealApproval } from "./approvals-api";

const COLUMNS: Column[] = [
  { label: "Argument" },
  { label: "Type", className: "hidden md:table-cell" },
  { label: "Value" },
];

export function ArgumentsTable({ approval: a, canReveal }: { approval: TApprovalDetail; canReveal: boolean }) {
  const [revealed, setRevealed] = useState<Record<string, unknown> | null>(null);
  const reveal = useMutation({
    mutationFn: () => revealApproval(a.id),
    onSuccess: (r) => setRevealed(r.arguments),
    onError: (err) => notifyError(err, "Could not reveal the arguments"),
  });
  const rows = argumentRows(a.inputSchema, revealed ?? a.arguments);

  return (
    <section aria-labelledby="arguments-heading" className={`${card} min-w-0 overflow-hidden`}>
      <div className="flex flex-wrap items-center justify-between gap-3 border-b border-slate-200 px-4 py-3">
        <div className="min-w-0">
          <h2 id="arguments-heading" className="text-base font-semibold text-slate-900">
            Arguments
          </h2>
          <p className="text-xs text-slate-500" data-testid="arguments-note">
            {revealed
              ? "The full arguments as the agent sent them. Your reveal was recorded in the audit log."
              : a.inputSchema
                ? "Checked against the tool's input schema. Personal data and secrets are masked."
                : "The tool is gone, so there is no schema to check against. Personal data and secrets are masked."}
          </p>
        </div>
        {canReveal &&
          (revealed ? (
            <button type="button" className={`${buttonSecondary} py-1.5`} onClick={() => setRevealed(null)}>
              Mask again
            </button>
          ) : (
            <button
              type="button"
              className={`${buttonSecondary} py-1.5`}
              onClick={() => reveal.mutate()}
              disabled={reveal.isPending}
              title="Shows the unmasked values; every reveal is audited"
              data-testid="reveal-button"
            >
              {reveal.isPending ? "Revealing…" : "Reveal full arguments"}
            </button>
          ))}
      </div>
      {rows.length === 0 ? (
        <p className="px-4 py-4 text-sm text-slate-600">The tool takes no arguments, and none were sent.</p>
      ) : (
        <DataTable columns={COLUMNS} label="Arguments against the input schema">
          {rows.map((r) => (
            <ArgumentLine key={r.name} row={r} />
          ))}
        </DataTable>
      )}
    </section>
  );
}

function ArgumentLine({ row: r }: { row: ArgumentRow }) {
  return (
    <tr className={t.tr} data-testid="argument-row" data-name={r.name} data-state={r.state}>
      <td className={`${t.cell} min-w-0 basis-full sm:basis-auto sm:align-top`}>
        <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
          <span className="font-mono text-sm font-medium break-all text-slate-900">{r.name}</span>
          {r.required && (
            <span className="text-xs font-medium text-red-700" title="Required by the schema">
              required
            </span>
          )}
          {r.state === "extra" && <Tag tone="amber">not in schema</Tag>}
          {r.type && <span className="font-mono text-xs text-indigo-700 md:hidden">{r.type}</span>}
        </div>
        {r.description && <p className="mt-0.5 text-xs break-words text-slate-500">{r.description}</p>}
      </td>
      <td className={`hidden font-mono text-xs text-indigo-700 md:table-cell md:px-4 md:py-3 md:align-top`}>
        {r.type ?? "—"}
      </td>
      <td className={`${t.cell} min-w-0 basis-full sm:basis-auto sm:align-top`} data-testid="argument-value">
        {r.state === "given" || r.state === "extra" ? (
          <pre className="max-h-48 overflow-auto rounded bg-slate-50 px-2 py-1 font-mono text-xs whitespace-pre-wrap wrap-anywhere text-slate-900">
            {showValue(r.value)}
          </pre>
        ) : r.state === "default" ? (
          <span className="text-sm text-slate-500 italic">not given (default: {showValue(r.value)})</span>
        ) : (
          <span className="text-sm text-slate-500 italic">not given</span>
        )}
      </td>
    </tr>
  );
}
