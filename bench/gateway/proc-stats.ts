// CPU time of process trees from /proc (Linux): which process pays for a call, in CPU milliseconds.
import { closeSync, fdatasyncSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, writeSync } from "node:fs";
import os from "node:os";
import path from "node:path";

const TICK_MS = 10; // USER_HZ is 100 on Linux x86-64 and arm64

type Stat = { pid: number; ppid: number; cpuMs: number };

function readStat(pid: number): Stat | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name may hold spaces and parentheses: the fields start after the last ')'.
    const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
    return { pid, ppid: Number(fields[1]), cpuMs: (Number(fields[11]) + Number(fields[12])) * TICK_MS };
  } catch {
    return undefined;
  }
}

function allStats(): Stat[] {
  const out: Stat[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    const s = readStat(Number(name));
    if (s) out.push(s);
  }
  return out;
}

/** `root` and all its descendants that are alive now. */
export function processTree(root: number): number[] {
  const stats = allStats();
  const children = new Map<number, number[]>();
  for (const s of stats) children.set(s.ppid, [...(children.get(s.ppid) ?? []), s.pid]);
  const out: number[] = [];
  const queue = [root];
  while (queue.length) {
    const pid = queue.shift()!;
    if (!stats.some((s) => s.pid === pid)) continue;
    out.push(pid);
    queue.push(...(children.get(pid) ?? []));
  }
  return out;
}

/** User + system CPU milliseconds used so far by these processes (those still alive). */
export function cpuMs(pids: number[]): number {
  let sum = 0;
  for (const pid of pids) sum += readStat(pid)?.cpuMs ?? 0;
  return sum;
}

export type Switches = { voluntary: number; involuntary: number };

/**
 * Context switches of these processes so far, by process and thread ("root/main" for the first pid's main thread,
 * "postgres/main", "root/libuv-worker", … from /proc/<pid>/task/<tid>/comm): voluntary ones are waits (a read with
 * nothing to read: about one per wake-up by another process), involuntary ones are preemptions (the thread could
 * run, but the scheduler gave its core to another).
 */
export function contextSwitchesByThread(pids: number[]): Map<string, Switches> {
  const out = new Map<string, Switches>();
  const comm = (pid: number, tid: string) => readFileSync(`/proc/${pid}/task/${tid}/comm`, "utf8").trim().replace(/\d+$/, "");
  for (const pid of pids) {
    let tids: string[];
    let processName: string;
    try {
      tids = readdirSync(`/proc/${pid}/task`);
      processName = pid === pids[0] ? "root" : comm(pid, String(pid));
      if (processName === "postgres") processName = postgresRole(pid);
    } catch {
      continue; // gone
    }
    for (const tid of tids) {
      try {
        const text = readFileSync(`/proc/${pid}/task/${tid}/status`, "utf8");
        addSwitches(out, `${processName}/${tid === String(pid) ? "main" : comm(pid, tid)}`, {
          voluntary: Number(/^voluntary_ctxt_switches:\s+(\d+)/m.exec(text)?.[1] ?? 0),
          involuntary: Number(/^nonvoluntary_ctxt_switches:\s+(\d+)/m.exec(text)?.[1] ?? 0),
        });
      } catch {
        // the thread ended meanwhile
      }
    }
  }
  return out;
}

/**
 * What a PostgreSQL process is, from the title it gives itself ("postgres: walwriter", "postgres: <user> <db>
 * <client> idle"): `postgres:<role>` for the auxiliary processes, `postgres:backend` for a connection's, and
 * `postgres:postmaster` for the server itself, so that a statement's wake-ups tell apart from the WAL's.
 */
function postgresRole(pid: number): string {
  const title = readFileSync(`/proc/${pid}/cmdline`, "utf8").replace(/\0+$/, "").replace(/\0/g, " ");
  if (!title.startsWith("postgres: ")) return "postgres:postmaster";
  const aux = /^postgres: (walwriter|checkpointer|background writer|autovacuum launcher|autovacuum worker|logical replication launcher|stats collector|archiver|walsender|walsummarizer|io worker)/.exec(title);
  return `postgres:${aux ? aux[1]!.replace(/ /g, "-") : "backend"}`;
}

/** Adds `s` (times `sign`) to `into`'s entry for `name`. */
export function addSwitches(into: Map<string, Switches>, name: string, s: Switches, sign = 1): void {
  const sum = into.get(name) ?? { voluntary: 0, involuntary: 0 };
  into.set(name, { voluntary: sum.voluntary + sign * s.voluntary, involuntary: sum.involuntary + sign * s.involuntary });
}

/** The switches from `before` to `after`, by the same names. */
export function switchesSince(before: Map<string, Switches>, after: Map<string, Switches>): Map<string, Switches> {
  const out = new Map<string, Switches>();
  for (const [name, s] of after) addSwitches(out, name, s);
  for (const [name, s] of before) if (after.has(name)) addSwitches(out, name, s, -1);
  return out;
}

export function ownCpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

/** Busy and total CPU milliseconds of the whole machine so far (all cores, from /proc/stat). */
export function machineCpuMs(): { busy: number; total: number } {
  const line = readFileSync("/proc/stat", "utf8").split("\n")[0] ?? "";
  const v = line.trim().split(/\s+/).slice(1, 9).map(Number);
  const total = v.reduce((a, b) => a + b, 0);
  const idle = (v[3] ?? 0) + (v[4] ?? 0);
  return { busy: (total - idle) * TICK_MS, total: total * TICK_MS };
}

/** Share of the machine's CPU (0–1) busy over `ms`. */
export async function machineBusy(ms: number): Promise<number> {
  const a = machineCpuMs();
  await new Promise((r) => setTimeout(r, ms));
  const b = machineCpuMs();
  return b.total > a.total ? (b.busy - a.busy) / (b.total - a.total) : 0;
}

/** Waits (at most `maxMs`) until the machine is under `threshold` busy over a 2-second window. */
export async function waitForQuiet(
  maxMs: number,
  threshold: number,
): Promise<{ quiet: boolean; busy: number; waitedMs: number }> {
  const start = Date.now();
  let busy = await machineBusy(2000);
  while (busy >= threshold && Date.now() - start + 2000 <= maxMs) busy = await machineBusy(2000);
  return { quiet: busy < threshold, busy, waitedMs: Date.now() - start };
}

/** p50 of an 8 KiB write + fdatasync in the temp dir (where the benchmark's PostgreSQL keeps its WAL), in ms. */
export function fsyncP50Ms(n = 200): number {
  const dir = mkdtempSync(path.join(os.tmpdir(), "bench-fsync-"));
  const fd = openSync(path.join(dir, "f"), "w");
  const buf = Buffer.alloc(8192, 1);
  const ms: number[] = [];
  try {
    for (let i = 0; i < n; i++) {
      const t = performance.now();
      writeSync(fd, buf, 0, buf.length, (i % 16) * 8192);
      fdatasyncSync(fd);
      ms.push(performance.now() - t);
    }
  } finally {
    closeSync(fd);
    rmSync(dir, { recursive: true, force: true });
  }
  return ms.sort((a, b) => a - b)[Math.floor(n / 2)]!;
}
