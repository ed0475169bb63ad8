"use client";
// What a run answered: its error or returned value, what it logged, each tool call it made, and the way to
// its audit story (admins: the run's own event, whose page lists every event of the request).
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { CopyButton } from "@/components/copy-button";
import { card } from "@/components/ui";
import type { TCodeRunResult } from "@/lib/codemode-schemas";
import { CallsTable } from "./calls-table";
import { approvalHref, auditEventHref, findRunAuditEvent, runsAuditHref } from "./playground-api";

export type FinishedRun = { result: TCodeRunResult; startedAt: number };

const link = "font-medium text-indigo-600 hover:text-indigo-500 focus-visible:outline-2 focus-visible:outline-indigo-600";

function pretty(value: unknown): string {
  const text = JSON.stringify(value, null, 2);
  return text === undefined ? String(value) : text;
}

function Section({ id, title, aside, children }: { id: string; title: string; aside?: React.ReactNode; children: React.ReactNode }) {
  return (
    <section aria-labelledby={id} className="min-w-0 border-t border-slate-200 first:border-t-0">
      <div className="flex items-center justify-between gap-3 px-4 pt-3 pb-2">
        <h3 id={id} className="text-sm font-semibold text-slate-900">
          {title}
        </h3>
        {aside}
      </div>
      {children}
    </section>
  );
}

/** The run's audit story: its own event when it is found among the newest console runs, else that list. */
function AuditLink({ requestId, startedAt }: { requestId: string; startedAt: number }) {
  // A minute of slack for a browser clock ahead of the server's.
  const since = new Date(startedAt - 60_000).toISOString();
  const event = useQuery({
    queryKey: ["codemode", "audit-event", requestId],
    queryFn: ({ signal }) => findRunAuditEvent(requestId, since, signal),
    staleTime: Infinity,
    retry: 1,
  });
  if (event.isPending) return <span className="text-slate-500">Finding the audit story…</span>;
  return event.data ? (
    <Link href={auditEventHref(event.data)} className={link} data-testid="run-audit-link">
      Audit story of this run
    </Link>
  ) : (
    <Link href={runsAuditHref(since)} className={link} data-testid="run-audit-link">
      Console runs in the audit log
    </Link>
  );
}

export function RunResult({ run, isAdmin, stale }: { run: FinishedRun; isAdmin: boolean; stale: boolean }) {
  const r = run.result;
  const calls =
    `${r.toolCalls} tool call${r.toolCalls === 1 ? "" : "s"}` + (r.workspaceOps > 0 ? ` · ${r.workspaceOps} workspace operation${r.workspaceOps === 1 ? "" : "s"}` : "");
  return (
    <section aria-labelledby="run-heading" className={`${card} min-w-0 overflow-hidden ${stale ? "opacity-60" : ""}`} data-testid="run-output" aria-busy={stale}>
      <div className="flex flex-col gap-2 border-b border-slate-200 px-4 py-3 sm:flex-row sm:items-center sm:justify-between">
        <div className="min-w-0">
          <h2 id="run-heading" className="text-base font-semibold text-slate-900">
            {r.error ? "The run failed" : "The run finished"}
          </h2>
          <p className="text-xs text-slate-500" data-testid="run-summary">
            {`${r.durationMs.toLocaleString()} ms · ${calls}`}
            {stale && " · an earlier run"}
          </p>
        </div>
        <div className="flex min-w-0 flex-wrap items-center gap-x-3 gap-y-1 text-sm">
          {isAdmin ? (
            <AuditLink requestId={r.requestId} startedAt={run.startedAt} />
          ) : (
            <span className="min-w-0 text-xs text-slate-500">
              Request <code className="font-mono break-all">{r.requestId}</code> (an admin finds it in the audit log)
            </span>
          )}
          <CopyButton text={r.requestId} what="Request id" label="Copy id" />
        </div>
      </div>

      {r.error ? (
        <div className="m-4 rounded-md bg-red-50 px-4 py-3 text-sm text-red-800 ring-1 ring-red-600/20 ring-inset" role="alert" data-testid="run-error">
          <p className="font-mono break-words">
            <span className="font-semibold" data-testid="run-error-name">
              {r.error.name}
            </span>
            {r.error.message && `: ${r.error.message}`}
          </p>
          {r.error.approvalId && (
            <p className="mt-2">
              A person must approve the call first.{" "}
              <Link href={approvalHref(r.error.approvalId)} className={link} data-testid="run-approval-link">
                Open the approval request
              </Link>
            </p>
          )}
        </div>
      ) : (
        <Section id="run-value-heading" title="Returned value">
          {r.result === undefined ? (
            <p className="px-4 pb-3 text-sm text-slate-500">The program returned nothing.</p>
          ) : (
            <pre className="mx-4 mb-4 max-h-96 overflow-auto rounded-md bg-slate-50 p-3 font-mono text-xs leading-5 text-slate-800 ring-1 ring-slate-200 ring-inset" data-testid="run-result" tabIndex={0} aria-label="Returned value">
              {pretty(r.result)}
            </pre>
          )}
        </Section>
      )}

      {r.truncated && (
        <p className="mx-4 mb-4 rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-800 ring-1 ring-amber-600/20 ring-inset" data-testid="run-truncated">
          The output passed the gateway&apos;s size limit, so the logs or the value were cut short.
        </p>
      )}

      <Section id="run-logs-heading" title={`Logs (${r.logs.length})`}>
        {r.logs.length === 0 ? (
          <p className="px-4 pb-3 text-sm text-slate-500">Nothing was logged. Use console.log to see values as the program runs.</p>
        ) : (
          <ol className="mx-4 mb-4 max-h-72 divide-y divide-slate-800 overflow-auto rounded-md bg-slate-950 font-mono text-xs leading-5 text-slate-100" data-testid="run-logs" tabIndex={0} aria-label="Logs">
            {r.logs.map((line, i) => (
              <li key={i} className="px-3 py-1 whitespace-pre-wrap break-words" data-testid="run-log">
                {line}
              </li>
            ))}
          </ol>
        )}
      </Section>

      <Section id="run-calls-heading" title={`Tool calls (${r.calls.length})`}>
        <CallsTable calls={r.calls} />
      </Section>
    </section>
  );
}
