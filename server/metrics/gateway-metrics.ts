// What a Prometheus scrape of one gateway process reads: the per-process call counters and latency histogram
// (metrics.ts), Node.js process metrics, and gauges computed at scrape time — upstream status (the server rows,
// every process's shared view) and circuit state (this process's pool), the task queue, pending approvals and
// the audit writer's lag. The database gauges come from one small query per scrape with a statement timeout;
// a failed or slow query leaves them out and sets portcullis_metrics_state_up to 0, it never fails the scrape.
import { CircuitState } from "cockatiel";
import { Counter, Gauge, Registry } from "prom-client";
import type { AuditWriter } from "../audit/audit-writer";
import type { ExecutorPoolStats } from "../codemode/executor-pool";
import type { Db } from "../db/client";
import type { Logger } from "../logger";
import type { SessionUpstreams } from "../mcp/transparent/session-upstreams";
import type { UpstreamPool } from "../upstream/upstream-pool";
import { ensureDefaultMetrics, metricsRegistry } from "./metrics";
import { CLAIM_ORIGIN } from "../tasks/claim-origin";

export const SERVER_STATUSES = ["CONNECTING", "HEALTHY", "DEGRADED", "DOWN", "DISABLED"] as const;
export const QUEUE_STATUSES = ["PENDING", "AWAITING_APPROVAL", "RUNNING"] as const;
const CIRCUIT: [CircuitState, string][] = [
  [CircuitState.Closed, "closed"],
  [CircuitState.Open, "open"],
  [CircuitState.HalfOpen, "half_open"],
  [CircuitState.Isolated, "isolated"],
];

/** What the scrape reads from the database. */
export type StateSnapshot = {
  servers: { id: string; slug: string; status: string; latencyMs: number | null }[];
  tasks: Partial<Record<string, number>>;
  oldestPendingTaskSeconds: number | null;
  pendingApprovals: number;
  oldestPendingApprovalSeconds: number | null;
};

type StateRow = {
  servers: StateSnapshot["servers"];
  tasks: Record<string, number>;
  oldest_task: Date | null;
  approvals: number;
  oldest_approval: Date | null;
};

/** One round trip under a statement timeout: server rows, queue depth by state, pending approvals, oldest waits. */
export async function readState(db: Db, timeoutMs: number): Promise<StateSnapshot> {
  const [, rows] = await db.$transaction([
    db.$executeRawUnsafe(`SET LOCAL statement_timeout = ${String(Math.max(1, Math.round(timeoutMs)))}`),
    db.$queryRaw<StateRow[]>`
      SELECT
        (SELECT coalesce(json_agg(json_build_object('id', id, 'slug', slug, 'status', status, 'latencyMs', "latencyMs") ORDER BY slug), '[]'::json)
           FROM upstream_servers) AS servers,
        (SELECT coalesce(json_object_agg(status, n), '{}'::json)
           FROM (SELECT status, count(*)::int AS n FROM tasks WHERE status IN ('PENDING', 'AWAITING_APPROVAL', 'RUNNING') AND origin <> ${CLAIM_ORIGIN} GROUP BY status) t) AS tasks,
        -- A PENDING row is written only when it enters the queue (submitted, released by an approver, recovered).
        (SELECT min("updatedAt") FROM tasks WHERE status = 'PENDING') AS oldest_task,
        (SELECT count(*)::int FROM approvals WHERE status = 'PENDING') AS approvals,
        (SELECT min("createdAt") FROM approvals WHERE status = 'PENDING') AS oldest_approval`,
  ]);
  const r = rows[0];
  if (!r) throw new Error("the state query returned no row");
  // Ages are taken here: the columns are UTC timestamps without a zone, which the session's now() may not be.
  const age = (d: Date | null) => (d === null ? null : Math.max(0, (Date.now() - new Date(d).getTime()) / 1000));
  return {
    servers: r.servers,
    tasks: r.tasks,
    oldestPendingTaskSeconds: age(r.oldest_task),
    pendingApprovals: r.approvals,
    oldestPendingApprovalSeconds: age(r.oldest_approval),
  };
}

export type GatewayMetricsDeps = {
  db: Db;
  logger: Logger;
  /** The gateway core once built (a process that never served a call has no pool or audit writer yet). */
  live: () => { pool: UpstreamPool; audit: AuditWriter; sessions?: SessionUpstreams } | undefined;
  /** Code mode's sandbox workers, once code mode was first needed (D185): undefined before. */
  codeMode?: () => ExecutorPoolStats | undefined;
  /** Longest the state query may take (default 2 s). */
  timeoutMs?: number;
};

export type GatewayMetrics = { contentType: string; scrape(): Promise<string> };

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`the metrics state query took longer than ${String(ms)} ms`)), ms);
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}

export function createGatewayMetrics({ db, logger, live, codeMode, timeoutMs = 2_000 }: GatewayMetricsDeps): GatewayMetrics {
  ensureDefaultMetrics();
  const registry = new Registry();
  const registers = [registry];

  // The collectors of one scrape run together and share one query; a scrape a moment later reads again.
  let cached: { at: number; state: Promise<StateSnapshot | null> } | undefined;
  const state = (): Promise<StateSnapshot | null> => {
    if (cached && Date.now() - cached.at < 500) return cached.state;
    const read = withTimeout(readState(db, timeoutMs), timeoutMs + 500).catch((err: unknown) => {
      logger.warn({ err }, "metrics: could not read the gateway state");
      return null;
    });
    cached = { at: Date.now(), state: read };
    return read;
  };

  const stateUp = new Gauge({
    name: "portcullis_metrics_state_up",
    help: "1 when this scrape read the database state (servers, tasks, approvals); 0 when that query failed or timed out",
    registers,
    async collect() {
      stateUp.set((await state()) ? 1 : 0);
    },
  });

  const upstreamStatus = new Gauge({
    name: "portcullis_upstream_status",
    help: "Upstream server status from its row (the view every process shares): 1 for the current status, 0 for the others",
    labelNames: ["server", "status"] as const,
    registers,
    async collect() {
      const s = await state();
      upstreamStatus.reset();
      for (const srv of s?.servers ?? [])
        for (const st of SERVER_STATUSES)
          upstreamStatus.set({ server: srv.slug, status: st }, srv.status === st ? 1 : 0);
    },
  });

  const upstreamUp = new Gauge({
    name: "portcullis_upstream_up",
    help: "1 when the upstream server is HEALTHY or DEGRADED (serving calls), else 0",
    labelNames: ["server"] as const,
    registers,
    async collect() {
      const s = await state();
      upstreamUp.reset();
      for (const srv of s?.servers ?? [])
        upstreamUp.set({ server: srv.slug }, srv.status === "HEALTHY" || srv.status === "DEGRADED" ? 1 : 0);
    },
  });

  const upstreamLatency = new Gauge({
    name: "portcullis_upstream_ping_latency_seconds",
    help: "Latency of the last health ping of the upstream server",
    labelNames: ["server"] as const,
    registers,
    async collect() {
      const s = await state();
      upstreamLatency.reset();
      for (const srv of s?.servers ?? [])
        if (srv.latencyMs !== null) upstreamLatency.set({ server: srv.slug }, srv.latencyMs / 1000);
    },
  });

  const circuit = new Gauge({
    name: "portcullis_upstream_circuit_state",
    help: "Circuit breaker of this process's connection to the upstream (role active or canary): 1 for the current state (closed, open, half_open, isolated), 0 for the others",
    labelNames: ["server", "role", "state"] as const,
    registers,
    async collect() {
      circuit.reset();
      const core = live();
      if (!core) return;
      const slugs = new Map((await state())?.servers.map((srv) => [srv.id, srv.slug]));
      for (const { serverId, role } of core.pool.held()) {
        const st = core.pool.status(serverId, role);
        if (!st) continue;
        for (const [value, name] of CIRCUIT)
          circuit.set({ server: slugs.get(serverId) ?? serverId, role, state: name }, value === st.circuit ? 1 : 0);
      }
    },
  });

  // Sandboxed processes' use, as sampled by this process's supervisor (server/sandbox/supervisor.ts).
  const processGauge = (name: string, help: string, pick: (st: NonNullable<ReturnType<UpstreamPool["status"]>>) => number | undefined) => {
    const g: Gauge<"server" | "role"> = new Gauge({
      name,
      help,
      labelNames: ["server", "role"] as const,
      registers,
      async collect() {
        g.reset();
        const core = live();
        if (!core) return;
        const slugs = new Map((await state())?.servers.map((srv) => [srv.id, srv.slug]));
        for (const { serverId, role } of core.pool.held()) {
          const st = core.pool.status(serverId, role);
          const v = st ? pick(st) : undefined;
          if (v !== undefined) g.set({ server: slugs.get(serverId) ?? serverId, role }, v);
        }
      },
    });
    return g;
  };
  processGauge("portcullis_upstream_process_cpu_seconds", "CPU time used by the server's running process tree", (st) => st.usage?.cpuSeconds);
  processGauge("portcullis_upstream_process_memory_bytes", "Memory of the server's running process tree (its cgroup's, else resident)", (st) => (st.usage ? Math.round(st.usage.memoryMb * 1024 * 1024) : undefined));
  processGauge("portcullis_upstream_process_tasks", "Processes and threads of the server's running process tree", (st) => st.usage?.processes);
  processGauge("portcullis_upstream_process_restarts", "Times this process restarted the server since it first connected it", (st) => st.restarts);
  processGauge("portcullis_upstream_process_limit_hits", "Times a sandbox limit (memory, CPU time, processes) ended the server's process", (st) => st.limitHits);

  const queueDepth = new Gauge({
    name: "portcullis_task_queue_depth",
    help: "Durable tasks not finished yet, by status (PENDING: queued for a worker; AWAITING_APPROVAL: held for an approver; RUNNING)",
    labelNames: ["status"] as const,
    registers,
    async collect() {
      const s = await state();
      queueDepth.reset();
      if (s) for (const st of QUEUE_STATUSES) queueDepth.set({ status: st }, s.tasks[st] ?? 0);
    },
  });

  const queueAge = new Gauge({
    name: "portcullis_task_oldest_pending_age_seconds",
    help: "How long the oldest PENDING task has waited in the queue for a worker (0 when none waits)",
    registers,
    async collect() {
      const s = await state();
      queueAge.reset();
      if (s) queueAge.set(s.oldestPendingTaskSeconds ?? 0);
    },
  });

  const approvals = new Gauge({
    name: "portcullis_approvals_pending",
    help: "Approval requests waiting for a decision",
    registers,
    async collect() {
      const s = await state();
      approvals.reset();
      if (s) approvals.set(s.pendingApprovals);
    },
  });

  const approvalAge = new Gauge({
    name: "portcullis_approval_oldest_pending_age_seconds",
    help: "How long the oldest pending approval request has waited (0 when none waits)",
    registers,
    async collect() {
      const s = await state();
      approvalAge.reset();
      if (s) approvalAge.set(s.oldestPendingApprovalSeconds ?? 0);
    },
  });

  const auditPending = new Gauge({
    name: "portcullis_audit_write_pending_rows",
    help: "Audit events of this process handed to the group-commit writer and not yet committed",
    registers,
    collect() {
      auditPending.set(live()?.audit.stats?.().pending ?? 0);
    },
  });

  const auditLag = new Gauge({
    name: "portcullis_audit_write_lag_seconds",
    help: "How long the oldest uncommitted audit event of this process has waited (0 when all are committed); calls wait for their event",
    registers,
    collect() {
      const since = live()?.audit.stats?.().oldestPendingSince ?? null;
      auditLag.set(since === null ? 0 : Math.max(0, (Date.now() - since) / 1000));
    },
  });

  const codeModeGauge = (name: string, help: string, pick: (st: ExecutorPoolStats) => number) => {
    const g = new Gauge({
      name,
      help,
      registers,
      collect() {
        const st = codeMode?.();
        g.set(st ? pick(st) : 0);
      },
    });
  };
  codeModeGauge("portcullis_code_mode_workers", "Code mode's sandbox worker threads in this process (0 until code mode is first needed)", (st) => st.size);
  codeModeGauge("portcullis_code_mode_busy_workers", "Code mode's sandbox workers running a program now", (st) => st.busy);
  codeModeGauge("portcullis_code_mode_queued_programs", "Code-mode programs waiting for a sandbox worker", (st) => st.queued);

  const auditBatch = new Gauge({
    name: "portcullis_audit_last_batch_seconds",
    help: "Time the last audit batch insert of this process took (commit included)",
    registers,
    collect() {
      const last = live()?.audit.stats?.().lastBatch;
      auditBatch.reset();
      if (last) auditBatch.set(last.ms / 1000);
    },
  });

  // The transparent endpoint's upstream processes (server/mcp/transparent/upstream-capacity.ts), this process's.
  const fromTransparent = (kind: "gauge" | "counter", name: string, help: string, label: string, pick: (st: ReturnType<SessionUpstreams["stats"]>) => Record<string, number>) => {
    const collect = () => {
      metric.reset();
      const st = live()?.sessions?.stats();
      for (const [value, n] of Object.entries(st ? pick(st) : {})) {
        if (metric instanceof Counter) metric.inc({ [label]: value }, n);
        else metric.set({ [label]: value }, n);
      }
    };
    const metric: Gauge | Counter = kind === "gauge" ? new Gauge({ name, help, labelNames: [label], registers, collect }) : new Counter({ name, help, labelNames: [label], registers, collect });
  };
  fromTransparent("gauge", "portcullis_transparent_upstream_processes", "Upstream processes of /mcp/s sessions this process holds (running or starting), by server", "server", (st) => st.perServer);
  fromTransparent("gauge", "portcullis_transparent_upstream_limit", "The configured limit of /mcp/s upstream processes, by kind (session, user, server, process)", "limit", (st) => st.limits);
  fromTransparent("counter", "portcullis_transparent_capacity_refusals_total", "New /mcp/s upstream processes refused with upstream_capacity, by the limit that was reached (session, user, server, process)", "limit", (st) => st.refusals);
  fromTransparent(
    "counter",
    "portcullis_transparent_upstream_reaped_total",
    "/mcp/s upstream processes closed by this process: idle (past the idle timeout), pressure (sooner, as a limit fills up), evicted (for a new session of the same user)",
    "reason",
    (st) => st.reaped,
  );

  // The local audit spool (audit/audit-spool.ts): rows the database could not take, waiting to be replayed.
  const spoolPending = new Gauge({
    name: "portcullis_audit_spool_pending_rows",
    help: "Audit events of this process fsync'd to the local spool because the database could not take them, not yet replayed",
    registers,
    collect() {
      spoolPending.set(live()?.audit.stats?.().spool?.pending ?? 0);
    },
  });
  const spoolAge = new Gauge({
    name: "portcullis_audit_spool_oldest_seconds",
    help: "Age of the oldest audit event waiting in the local spool (0 when it is empty)",
    registers,
    collect() {
      const since = live()?.audit.stats?.().spool?.oldestSince ?? null;
      spoolAge.set(since === null ? 0 : Math.max(0, (Date.now() - since) / 1000));
    },
  });
  let replayedSeen = 0;
  const spoolReplayed = new Counter({
    name: "portcullis_audit_spool_replayed_rows_total",
    help: "Audit events replayed from the local spool into the database",
    registers,
    collect() {
      const n = live()?.audit.stats?.().spool?.replayed ?? 0;
      if (n > replayedSeen) spoolReplayed.inc(n - replayedSeen);
      replayedSeen = Math.max(replayedSeen, n);
    },
  });

  const merged = Registry.merge([metricsRegistry, registry]);
  return { contentType: merged.contentType, scrape: () => merged.metrics() };
}
