// Each tool call a program made, in the order they ended, with the gateway's decision and how long it took.
import Link from "next/link";
import { DataTable, tableRow as t, type Column } from "@/components/data-table";
import { Tag } from "@/components/tools/tier-badge";
import type { TCodeRunResult } from "@/lib/codemode-schemas";
import { approvalHref } from "./playground-api";

type Call = TCodeRunResult["calls"][number];

const STATUS: Record<Call["status"], { label: string; tone: Parameters<typeof Tag>[0]["tone"] }> = {
  ok: { label: "OK", tone: "emerald" },
  error: { label: "Tool error", tone: "red" },
  refused: { label: "Refused", tone: "red" },
  held: { label: "Held for approval", tone: "amber" },
};

const ALLOWED = "Allowed";
const DECISION: Record<string, string> = { allow: ALLOWED, deny: "Denied", require_approval: "Needs approval" };

/** The gateway notes a decision only when it stops a call; one that reached the tool was allowed (as the audit records it). */
function decisionOf(c: Call): string {
  if (c.decision) return DECISION[c.decision] ?? c.decision;
  return c.status === "ok" || c.status === "error" ? ALLOWED : "—";
}

const COLUMNS: readonly Column[] = [
  { label: "Tool" },
  { label: "Status" },
  { label: "Decision" },
  { label: "Error code" },
  { label: "Latency", className: "sm:text-right" },
];

const formatLatency = (ms: number) => `${ms < 10 ? ms.toFixed(1) : Math.round(ms).toLocaleString()} ms`;

export function CallsTable({ calls }: { calls: readonly Call[] }) {
  if (calls.length === 0) return <p className="px-4 py-3 text-sm text-slate-500">The program called no tools.</p>;
  return (
    <DataTable columns={COLUMNS} label="Tool calls of the run">
      {calls.map((c, i) => {
        const s = STATUS[c.status];
        return (
          <tr key={`${i}-${c.tool}`} className={t.tr} data-testid="call-row" data-status={c.status} data-tool={c.tool}>
            <td className={`${t.cell} w-full min-w-0 font-mono text-xs break-all text-slate-900 sm:w-auto`}>{c.tool}</td>
            <td className={t.cell}>
              <span className="inline-flex" data-testid="call-status">
                <Tag tone={s.tone}>{s.label}</Tag>
              </span>
              {c.approvalId && (
                <Link href={approvalHref(c.approvalId)} className="ml-2 text-xs font-medium text-indigo-600 hover:text-indigo-500">
                  Approval
                </Link>
              )}
            </td>
            <td className={`${t.cell} text-slate-700`}>
              <span className="sr-only sm:hidden">Decision: </span>
              {decisionOf(c)}
            </td>
            <td className={`${t.cell} font-mono text-xs text-slate-700`}>
              {c.code ? (
                <>
                  <span className="font-sans text-slate-500 sm:hidden">code </span>
                  <span data-testid="call-code">{c.code}</span>
                </>
              ) : (
                <span className="hidden sm:inline">—</span>
              )}
            </td>
            <td className={`${t.cell} text-slate-700 tabular-nums sm:text-right`}>{formatLatency(c.durationMs)}</td>
          </tr>
        );
      })}
    </DataTable>
  );
}
