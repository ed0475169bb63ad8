// Renders a run of the task benchmark as Markdown and puts it into docs/benchmarks.md between its markers.
import { writeDocsBlock } from "../docs-block";
import type { TaskProfileSummary } from "./cpu-profile";
import { machineFacts, machineTable } from "../gateway/report";
import type { Summary } from "../gateway/stats";
import type { DbCostRow } from "./gateway-process";
import type { SqlCount } from "./pg-tap";

export const BEGIN = "<!-- bench:tasks:start -->";
export const END = "<!-- bench:tasks:end -->";

export type PhaseRow = {
  kind: "burst" | "steady" | "paced";
  /** Gateway processes and workers (graphile-worker concurrency) per process. */
  processes: number;
  workers: number;
  /** Whether the workers hear graphile-worker's jobs:insert NOTIFY (else they find jobs by polling only). */
  notify: boolean;
  clients: number;
  submitted: number;
  submitErrors: number;
  firstError?: string | undefined;
  succeeded: number;
  notSucceeded: number;
  /** tools/call round trip at the client. */
  rtt: Summary;
  /** tasks.startedAt − tasks.createdAt. */
  toRunning: Summary;
  /** tasks.finishedAt − tasks.startedAt. */
  running: Summary;
  /** Most tasks submitted and not yet RUNNING at one time (from the rows' timestamps). */
  maxBacklog: number;
  /** Submitted answers / (last answer − first submit). */
  submitRate: number;
  /** Finished tasks / (last finishedAt − first submit); only for bursts. */
  throughput?: number | undefined;
  spanMs: number;
  /** CPU ms per task over the phase: gateway processes, PostgreSQL, upstream, driver. */
  cpu: { gateway: number; postgres?: number | undefined; upstream: number; driver: number };
  otherLoad: number;
  /** Statements the gateway processes sent to PostgreSQL, per task (submit + run + bookkeeping + polling). */
  sqlPerTask: number;
  sqlTop: SqlCount[];
  /** Statements sent on a connection still busy with another one (pg queues them). */
  sqlQueued: SqlCount[];
  /** Event-loop delay of the gateway process(es) over the phase (the worse process), ms. */
  loopDelay: { p50: number; p99: number };
  paceMs?: number | undefined;
  /** steady: submissions per second asked for, and as a share of the burst's tasks/s. */
  rate?: { perS: number; share: number } | undefined;
};

export type TaskCpuProfile = { tasks: number; clients: number; summary: TaskProfileSummary };

export type RunReport = {
  cpuProfile?: TaskCpuProfile | undefined;
  dbCost?: DbCostRow[] | undefined;
  idleNotes: string[];
  rows: PhaseRow[];
  settings: string[];
  durationS: number;
  quiet: string;
  targetMs: number;
};

const f = (v: number | undefined) =>
  v === undefined || Number.isNaN(v) ? "–" : v < 10 ? v.toFixed(2) : v < 100 ? v.toFixed(1) : v.toFixed(0);

export function phaseLabel(r: Pick<PhaseRow, "kind" | "processes" | "workers" | "notify">): string {
  return `${r.kind}, ${r.processes} × ${r.workers} workers, ${r.notify ? "LISTEN/NOTIFY" : "polling only"}`;
}

function find(rows: PhaseRow[], kind: PhaseRow["kind"], processes: number, notify: boolean) {
  return rows.find((r) => r.kind === kind && r.processes === processes && r.notify === notify);
}

export function renderMarkdown(run: RunReport): string {
  const m = machineFacts();
  const lines: string[] = [];
  lines.push(`Run of ${m.date} at commit ${m.commit}, ${run.durationS.toFixed(0)} s in all. ${run.quiet}`);
  lines.push("");
  lines.push(...machineTable(m));
  lines.push("");
  for (const s of run.settings) lines.push(`- ${s}`);
  for (const s of run.idleNotes) lines.push(`- idle, ${s}`);
  lines.push("");
  lines.push(
    "| phase | tasks ok | errors | submit RTT p50 / p99 ms | submit→RUNNING p50 / p90 / p99 / max ms | max backlog | RUNNING→finished p50 / p99 ms | tasks/s |",
  );
  lines.push("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
  for (const r of run.rows) {
    lines.push(
      `| ${phaseLabel(r)}${detail(r)} | ${r.succeeded} | ${r.submitErrors + r.notSucceeded} | ` +
        `${f(r.rtt.p50)} / ${f(r.rtt.p99)} | ${f(r.toRunning.p50)} / ${f(r.toRunning.p90)} / ${f(r.toRunning.p99)} / ${f(r.toRunning.max)} | ${r.maxBacklog} | ` +
        `${f(r.running.p50)} / ${f(r.running.p99)} | ${r.throughput === undefined ? "–" : r.throughput.toFixed(1)} |`,
    );
  }
  lines.push("");
  lines.push(
    "| phase | CPU ms/task: gateway / PostgreSQL / upstream / driver | SQL statements/task | gateway event-loop delay p50 / p99 ms | other load |",
  );
  lines.push("| --- | ---: | ---: | ---: | ---: |");
  for (const r of run.rows) {
    lines.push(
      `| ${phaseLabel(r)} | ${f(r.cpu.gateway)} / ${f(r.cpu.postgres)} / ${f(r.cpu.upstream)} / ${f(r.cpu.driver)} | ${r.sqlPerTask.toFixed(1)} | ` +
        `${f(r.loopDelay.p50)} / ${f(r.loopDelay.p99)} | ${(r.otherLoad * 100).toFixed(0)} % |`,
    );
  }
  lines.push("");
  lines.push(...reading(run));
  const top = find(run.rows, "burst", 1, true);
  if (top && top.sqlTop.length) {
    lines.push("");
    lines.push(
      `Statements per task sent by the gateway process in the "${phaseLabel(top)}" phase (${top.sqlPerTask.toFixed(1)} in all; first 70 characters of each):`,
    );
    lines.push("");
    lines.push("| per task | statement |", "| ---: | --- |");
    for (const s of top.sqlTop.slice(0, 16))
      lines.push(
        `| ${(s.count / top.submitted).toFixed(2)} | \`${s.statement.replace(/\|/g, "\\|").replace(/`/g, "'")}\` |`,
      );
  }
  if (run.dbCost?.length) {
    lines.push("");
    lines.push(
      "The same statements one at a time in the gateway process, with no other calls (notify phase, after its bursts): the engine's way (Prisma) next to node-postgres.",
    );
    lines.push("");
    lines.push("| statement | via | CPU ms | wall ms |", "| --- | --- | ---: | ---: |");
    for (const r of run.dbCost) lines.push(`| ${r.op} | ${r.via} | ${r.cpuMs.toFixed(3)} | ${r.wallMs.toFixed(3)} |`);
  }
  if (run.cpuProfile) lines.push("", ...profileLines(run.cpuProfile));
  return lines.join("\n");
}

function profileLines(p: TaskCpuProfile): string[] {
  const { summary: s } = p;
  const per = (ms: number) => (ms / p.tasks).toFixed(2);
  const out = [
    `CPU profile of the gateway process (V8 sampling, 250 µs) over a separate burst of ${p.tasks} tasks from ${p.clients} clients: ` +
      `${per(s.busyMs)} ms busy per task (${(s.busyMs / 1000).toFixed(1)} s; idle ${(s.idleMs / 1000).toFixed(1)} s).`,
    "",
    "| with a frame of … on the stack (inclusive; rows overlap) | ms/task | share |",
    "| --- | ---: | ---: |",
    ...s.inclusive.map((r) => `| ${r.under} | ${per(r.ms)} | ${(r.share * 100).toFixed(1)} % |`),
    "",
    "| self time in | ms/task | share |",
    "| --- | ---: | ---: |",
    ...s.byPlace.slice(0, 10).map((r) => `| ${r.place} | ${per(r.ms)} | ${(r.share * 100).toFixed(1)} % |`),
    "",
    "| function (self time) | where | ms/task | share |",
    "| --- | --- | ---: | ---: |",
    ...s.topFunctions
      .slice(0, 10)
      .map(
        (r) => `| \`${r.fn.replace(/\|/g, "\\|")}\` | ${r.place} | ${per(r.ms)} | ${(r.share * 100).toFixed(1)} % |`,
      ),
  ];
  return out;
}

function detail(r: PhaseRow): string {
  if (r.kind === "burst") return ` (${String(r.clients)} clients, one call in flight each)`;
  if (r.kind === "paced") return ` (one call, then ${String(r.paceMs)} ms pause)`;
  if (r.kind === "steady" && r.rate)
    return ` (${r.rate.perS.toFixed(1)} calls/s open loop, ${(r.rate.share * 100).toFixed(0)} % of the burst's tasks/s)`;
  return "";
}

function verdict(ok: boolean) {
  return ok ? "**met**" : "**missed**";
}

/** The headline numbers against the target, one line each. */
function reading(run: RunReport): string[] {
  const out: string[] = [];
  const t = run.targetMs;
  const paced = find(run.rows, "paced", 1, true);
  const steady = find(run.rows, "steady", 1, true);
  const burst = find(run.rows, "burst", 1, true);
  const pacedPoll = find(run.rows, "paced", 1, false);
  const burstPoll = find(run.rows, "burst", 1, false);
  const steadyPoll = find(run.rows, "steady", 1, false);
  const two = find(run.rows, "burst", 2, true);
  if (paced)
    out.push(
      `- Idle workers (paced): submit→RUNNING p50 **${f(paced.toRunning.p50)} ms**, p99 ${f(paced.toRunning.p99)} ms (target p50 < ${t} ms: ${verdict(paced.toRunning.p50 < t)}).`,
    );
  if (steady && steady.rate)
    out.push(
      `- Steady load at ${(steady.rate.share * 100).toFixed(0)} % of the burst's throughput (${steady.rate.perS.toFixed(1)} calls/s): submit→RUNNING p50 **${f(steady.toRunning.p50)} ms**, p99 ${f(steady.toRunning.p99)} ms (target p50 < ${t} ms: ${verdict(steady.toRunning.p50 < t)}).`,
    );
  if (burst)
    out.push(
      `- Burst of ${burst.submitted} from ${burst.clients} clients: submit→RUNNING p50 **${f(burst.toRunning.p50)} ms**, p99 ${f(burst.toRunning.p99)} ms (target p50 < ${t} ms: ${verdict(burst.toRunning.p50 < t)}); **${f(burst.throughput)} tasks/s** submitted-to-finished, submissions answered at ${burst.submitRate.toFixed(0)}/s (RTT p50 ${f(burst.rtt.p50)} ms).`,
    );
  if (paced && pacedPoll)
    out.push(
      `- Polling baseline (same engine, its workers' LISTEN "jobs:insert" dropped, pollInterval 1000 ms): paced p50 ${f(pacedPoll.toRunning.p50)} ms, p99 ${f(pacedPoll.toRunning.p99)} ms, **${(pacedPoll.toRunning.p50 / paced.toRunning.p50).toFixed(1)}×** the LISTEN/NOTIFY p50.`,
    );
  if (steady && steadyPoll)
    out.push(
      `- Steady load, polling only (${f(steadyPoll.rate?.perS)} calls/s): submit→RUNNING p50 ${f(steadyPoll.toRunning.p50)} ms, p99 ${f(steadyPoll.toRunning.p99)} ms, ${(steadyPoll.toRunning.p50 / steady.toRunning.p50).toFixed(1)}× the LISTEN/NOTIFY p50.`,
    );
  // Phases run one after the other: when other work on the machine differed, their throughputs differ for that
  // reason too, and CPU per task is the fairer comparison.
  const load = (a: PhaseRow, b: PhaseRow) => {
    const pct = (r: PhaseRow) => `${(r.otherLoad * 100).toFixed(0)} %`;
    const differs = Math.abs(a.otherLoad - b.otherLoad) > 0.15;
    return (
      `other load ${pct(a)} vs ${pct(b)}` +
      (differs
        ? `: not comparable as throughput; gateway CPU per task ${f(a.cpu.gateway)} vs ${f(b.cpu.gateway)} ms`
        : "")
    );
  };
  if (burst && burstPoll)
    out.push(
      `- Burst, polling only: submit→RUNNING p50 ${f(burstPoll.toRunning.p50)} ms (${(burstPoll.toRunning.p50 / burst.toRunning.p50).toFixed(1)}× LISTEN/NOTIFY), ${f(burstPoll.throughput)} tasks/s (${((burstPoll.throughput ?? 0) / (burst.throughput ?? 1)).toFixed(2)}×; ${load(burstPoll, burst)}).`,
    );
  if (burst && two)
    out.push(
      `- Two gateway processes sharing the queue (${two.processes} × ${two.workers} workers): ${f(two.throughput)} tasks/s, **${((two.throughput ?? 0) / (burst.throughput ?? 1)).toFixed(2)}×** one process (${load(two, burst)}); submit→RUNNING p50 ${f(two.toRunning.p50)} ms with at most ${two.maxBacklog} tasks waiting.`,
    );
  return out;
}

export function writeDocs(file: string, markdown: string): void {
  writeDocsBlock(file, { begin: BEGIN, end: END, heading: "Tasks (bench/tasks)" }, markdown);
}
