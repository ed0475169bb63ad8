"use client";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { CopyButton } from "@/components/copy-button";
import { formatDateTime } from "@/components/format";
import { Loading, LoadFailed } from "@/components/load-state";
import { card, input } from "@/components/ui";
import type { TServer } from "@/lib/schemas";
import type { TStderrProcess } from "@/lib/server-logs-schemas";
import { getLogs, LOGS_POLL_MS, logsKey } from "./queries";
import { startsProcess } from "./format";

/**
 * The server's stderr: the process running now and the last one that exited, then the processes of transparent
 * sessions (one per agent session on /mcp/s/<slug>), polled while the tab is open.
 */
export function ServerLogs({ server }: { server: TServer }) {
  const [filter, setFilter] = useState("");
  const query = useQuery({
    queryKey: logsKey(server.slug),
    queryFn: ({ signal }) => getLogs(server.slug, signal),
    refetchInterval: LOGS_POLL_MS,
  });
  if (!startsProcess(server.transport))
    return <p className="text-sm text-slate-600">An HTTP server runs elsewhere: its logs are where it runs.</p>;
  if (query.isPending) return <Loading what="the logs" />;
  if (query.isError) return <LoadFailed what="the logs" error={query.error} retry={query.refetch} />;
  const { current, previous, sessions } = query.data;
  const needle = filter.trim().toLowerCase();
  return (
    <div className="space-y-4" data-testid="server-logs">
      <label className="block max-w-md">
        <span className="sr-only">Search the logs</span>
        <input
          type="search"
          className={input}
          placeholder="Search the logs"
          value={filter}
          onChange={(e) => setFilter(e.target.value)}
        />
      </label>
      {!query.data.held && (
        <p className="text-sm text-slate-600">This gateway process does not run the server; another one may.</p>
      )}
      {current && <ProcessLog title={current.endedAt ? "Latest process" : "Running process"} log={current} needle={needle} />}
      {previous && <ProcessLog title="Process before it" log={previous} needle={needle} />}
      {sessions.map((p) => (
        <ProcessLog key={`${p.session}-${p.startedAt}`} title={`Session ${p.session} · ${p.endedAt ? "ended" : "running"}`} log={p} needle={needle} />
      ))}
      {!current && !previous && !sessions.length && query.data.held && <p className="text-sm text-slate-600">Nothing written to stderr yet.</p>}
    </div>
  );
}

function ProcessLog({ title, log, needle }: { title: string; log: TStderrProcess; needle: string }) {
  const lines = needle ? log.lines.filter((l) => l.toLowerCase().includes(needle)) : log.lines;
  return (
    <section className={`${card} min-w-0 p-4`} aria-label={title}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 className="text-sm font-semibold text-slate-900">{title}</h3>
        <CopyButton text={log.lines.join("\n")} label="Copy" what="Log" />
      </div>
      <p className="mt-1 text-xs text-slate-500">
        Started {formatDateTime(log.startedAt)}
        {log.endedAt && ` · ended ${formatDateTime(log.endedAt)}: ${log.endReason ?? ""}`}
        {log.droppedLines > 0 && ` · ${log.droppedLines} older lines dropped`}
        {needle && ` · ${lines.length} of ${log.lines.length} lines match`}
      </p>
      {lines.length ? (
        <pre
          className="mt-3 max-h-96 overflow-auto rounded bg-slate-900 p-3 font-mono text-xs leading-relaxed whitespace-pre-wrap text-slate-100"
          data-testid="server-log-lines"
        >
          {lines.join("\n")}
        </pre>
      ) : (
        <p className="mt-3 text-sm text-slate-600">{needle ? "No line matches." : "Nothing written to stderr."}</p>
      )}
    </section>
  );
}
