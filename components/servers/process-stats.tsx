"use client";
// The server page's Process card: what the stdio server's process uses now, against its sandbox limits, as the
// gateway process that answered samples it. It refreshes every 5 s while shown (react-query keeps the shortest
// interval of the page's observers of the same server, so the rest of the page refreshes with it).
import { useQuery } from "@tanstack/react-query";
import { formatDateTime } from "@/components/format";
import { card } from "@/components/ui";
import type { TProcessStats } from "@/lib/sandbox-schemas";
import type { TServer } from "@/lib/schemas";
import { IsolationBadge } from "./isolation-badge";
import { getServer, serverKey } from "./queries";
import { useSandboxSupport } from "./sandbox-queries";
import { startsProcess } from "./format";

export const PROCESS_REFRESH_MS = 5_000;

export function ProcessCard({ server: initial }: { server: TServer }) {
  const query = useQuery({
    queryKey: serverKey(initial.slug),
    queryFn: ({ signal }) => getServer(initial.slug, signal),
    refetchInterval: PROCESS_REFRESH_MS,
  });
  const support = useSandboxSupport();
  const server = query.data?.server ?? initial;
  if (!startsProcess(server.transport)) return null;
  const { process: stats, isolation } = server;

  return (
    <section aria-labelledby="process-heading" className={`${card} mt-4 p-5`} data-testid="process-card">
      <div className="flex flex-wrap items-center gap-2">
        <h2 id="process-heading" className="text-base font-semibold text-slate-900">
          Process
        </h2>
        <IsolationBadge isolation={isolation} />
        {support.data && isolation && isolation.profile !== "none" && (
          <span className="text-xs text-slate-500">
            Memory {support.data.memoryEnforcement === "cgroup" ? "enforced by cgroup" : "checked by sampling"}
          </span>
        )}
      </div>
      {stats ? (
        <Stats stats={stats} server={server} />
      ) : (
        <p className="mt-2 text-sm text-slate-600" data-testid="process-none">
          Not running in this gateway process. It may be stopped or disabled, start with its first call, or run in
          another gateway process.
        </p>
      )}
    </section>
  );
}

function Stats({ stats: s, server }: { stats: TProcessStats; server: TServer }) {
  const limits = server.isolation;
  const breakerAt = limits ? (limits.memoryMb * limits.breakerMemoryPercent) / 100 : null;
  if (s.pid === null)
    return (
      <>
        <p className="mt-2 text-sm text-slate-600" data-testid="process-stopped">
          No process is running now: it has not started yet, or it ended
          {s.lastLimit ? " at a limit" : ""}. The gateway starts it again on its next connection attempt.
        </p>
        <dl className="mt-4 grid grid-cols-2 gap-x-6 gap-y-4 text-sm lg:grid-cols-3">
          <Restarts stats={s} />
        </dl>
      </>
    );
  return (
    <dl className="mt-4 grid grid-cols-2 gap-x-6 gap-y-4 text-sm lg:grid-cols-3">
      <Stat term="Memory" testId="process-memory">
        <span className="tabular-nums">
          {formatMb(s.memoryMb)}
          {limits && <span className="text-slate-500"> of {limits.memoryMb} MB</span>}
        </span>
        {limits && (
          <Meter
            label="Memory used"
            value={s.memoryMb}
            max={limits.memoryMb}
            warnAt={breakerAt ?? limits.memoryMb}
            text={`${formatMb(s.memoryMb)} of ${limits.memoryMb} MB`}
          />
        )}
      </Stat>
      <Stat term="Processes" testId="process-processes">
        <span className="tabular-nums">
          {s.processes}
          {limits && <span className="text-slate-500"> of {limits.pids}</span>}
        </span>
        {limits && (
          <Meter
            label="Processes running"
            value={s.processes}
            max={limits.pids}
            warnAt={limits.pids * 0.9}
            text={`${s.processes} of ${limits.pids}`}
          />
        )}
      </Stat>
      <Stat term="CPU" testId="process-cpu">
        <span className="tabular-nums">{s.cpuPercent.toFixed(1)} %</span>
        <span className="block text-xs text-slate-500 tabular-nums">
          {s.cpuSeconds.toFixed(1)} s used{limits ? ` · ends a process at ${limits.cpuSeconds} s` : ""}
        </span>
      </Stat>
      <Restarts stats={s} />
      <Stat term="Sampled" testId="process-sampled">
        {formatSampled(s.sampledAt)}
        {s.pid !== null && <span className="block text-xs text-slate-500 tabular-nums">PID {s.pid}</span>}
      </Stat>
    </dl>
  );
}

function Restarts({ stats: s }: { stats: TProcessStats }) {
  return (
    <>
      <Stat term="Restarts" testId="process-restarts">
        <span className="tabular-nums">{s.restarts}</span>
      </Stat>
      <Stat term="Limit hits" testId="process-limit-hits">
        <span className={`tabular-nums ${s.limitHits ? "text-red-700" : ""}`}>{s.limitHits}</span>
        {s.lastLimit && <span className="block text-xs break-words text-red-700">Last: {s.lastLimit}</span>}
      </Stat>
    </>
  );
}

function Stat({ term, testId, children }: { term: string; testId: string; children: React.ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-slate-500">{term}</dt>
      <dd className="mt-1 text-slate-900" data-testid={testId}>
        {children}
      </dd>
    </div>
  );
}

/** A bar of use against a limit: amber from `warnAt`, red at the limit. */
function Meter({
  label,
  value,
  max,
  warnAt,
  text,
}: {
  label: string;
  value: number;
  max: number;
  warnAt: number;
  text: string;
}) {
  const pct = max > 0 ? Math.min(100, (value / max) * 100) : 0;
  const tone = value >= max ? "bg-red-500" : value >= warnAt ? "bg-amber-500" : "bg-indigo-500";
  return (
    <div
      role="meter"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={max}
      aria-valuenow={Math.round(value * 10) / 10}
      aria-valuetext={text}
      className="mt-1.5 h-2 w-full max-w-xs overflow-hidden rounded-full bg-slate-100"
    >
      <div className={`h-full rounded-full ${tone}`} style={{ width: `${pct}%` }} />
    </div>
  );
}

const formatMb = (mb: number) => `${mb < 10 ? mb.toFixed(1) : Math.round(mb)} MB`;

function formatSampled(iso: string | null): string {
  if (!iso) return "Not yet";
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  // Within a day the time to the second says how fresh it is; older than that, the date too.
  return Date.now() - d.getTime() < 86_400_000 ? d.toLocaleTimeString() : formatDateTime(iso);
}
