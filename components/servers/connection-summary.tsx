import { formatDateTime } from "@/components/format";
import { card } from "@/components/ui";
import type { TServer } from "@/lib/schemas";
import { formatLatency, formatMs, launchSummary, startsProcess } from "./format";
import { serverState } from "@/lib/server-state";

export function RecentError({ server }: { server: TServer }) {
  return (
    <div role="alert" className="mb-4 rounded-lg border border-red-200 bg-red-50 p-4">
      <h2 className="text-sm font-semibold text-red-800">
        {serverState(server).tone === "down" ? "The server is down" : "Recent error"}
      </h2>
      <pre
        className="mt-1 font-mono text-xs leading-relaxed break-words whitespace-pre-wrap text-red-800"
        data-testid="server-last-error"
      >
        {server.lastError}
      </pre>
    </div>
  );
}

export function ConnectionSummary({ server: s }: { server: TServer }) {
  const launched = startsProcess(s.transport);
  const secrets = launched ? s.envKeys : s.headerKeys;
  return (
    <section aria-label="Connection" className={`${card} p-5`}>
      <dl className="grid grid-cols-2 gap-x-6 gap-y-4 text-sm sm:grid-cols-[repeat(auto-fill,minmax(11rem,1fr))]">
        {/* A package server's launch is its package, shown in its own card. */}
        {!s.package && (
          <div className="col-span-full">
            <dt className="text-slate-500">{launched ? "Command" : "URL"}</dt>
            <dd className="mt-1 font-mono text-xs break-all text-slate-900">{launchSummary(s) || "—"}</dd>
          </div>
        )}
        <div>
          <dt className="text-slate-500">{launched ? "Environment" : "Headers"}</dt>
          <dd className="mt-1 font-mono text-xs break-all text-slate-900">
            {secrets.length ? secrets.join(", ") : "—"}
          </dd>
        </div>
        {s.transport === "stdio" && (
          <div>
            <dt className="text-slate-500">Working directory</dt>
            <dd className="mt-1 font-mono text-xs break-all text-slate-900">{s.cwd ?? "—"}</dd>
          </div>
        )}
        <div>
          <dt className="text-slate-500">Connect timeout</dt>
          <dd className="mt-1 text-slate-900" data-testid="server-connect-timeout">
            {formatMs(s.connectTimeoutMs)}
          </dd>
        </div>
        <div>
          <dt className="text-slate-500">Call timeout · concurrency</dt>
          <dd className="mt-1 text-slate-900">
            {formatMs(s.timeoutMs)} · {s.maxConcurrency} at once
          </dd>
        </div>
        <div>
          <dt className="text-slate-500">Rate limit per tool</dt>
          <dd className="mt-1 text-slate-900">
            {s.rateLimitPerMinute === null ? "Gateway default" : `${s.rateLimitPerMinute} calls / min`}
          </dd>
        </div>
        <div>
          <dt className="text-slate-500">Ping</dt>
          <dd className="mt-1 text-slate-900 tabular-nums">{formatLatency(s.latencyMs)}</dd>
        </div>
        <div>
          <dt className="text-slate-500">Calls in the last hour</dt>
          <dd className="mt-1 text-slate-900 tabular-nums" data-testid="server-calls">
            {s.calls.count
              ? `${s.calls.count} · p50 ${formatLatency(s.calls.p50Ms)} · ${s.calls.errors} failed`
              : "None"}
          </dd>
        </div>
        <div>
          <dt className="text-slate-500">Registered</dt>
          <dd className="mt-1 text-slate-900">{formatDateTime(s.createdAt)}</dd>
        </div>
      </dl>
    </section>
  );
}
