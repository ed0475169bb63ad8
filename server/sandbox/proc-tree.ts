// What a process and its descendants use, read from /proc: CPU seconds (user + system, including reaped
// children), resident memory and the number of tasks (threads count, as RLIMIT_NPROC and pids.max count them).
// Read synchronously: /proc's files are made in memory when read and never wait on a disk, and a sample reads
// one file per process and per thread (a Node server has a dozen): as promises each would be four thread-pool jobs
// (open, stat, read, close), hundreds of wake-ups a second per server for nothing. A large tree yields to the
// event loop every YIELD_EVERY processes, so calls are not held while it is read.
import { readdirSync, readFileSync } from "node:fs";
import { setImmediate as nextTurn } from "node:timers/promises";

export type TreeUsage = { cpuSeconds: number; rssBytes: number; tasks: number; pids: number[] };

const TICKS = 100; // USER_HZ on Linux
const PAGE = 4096;
const YIELD_EVERY = 64;

type Stat = { ppid: number; cpuTicks: number; threads: number; rssPages: number };

/** Fields of /proc/<pid>/stat after the command name (which may hold spaces and parentheses). */
function parseStat(text: string): Stat | undefined {
  const close = text.lastIndexOf(")");
  if (close < 0) return undefined;
  const f = text.slice(close + 2).split(" ");
  // f[0] = state (field 3), so field n is f[n - 3].
  const num = (n: number) => Number(f[n - 3]);
  return { ppid: num(4), cpuTicks: num(14) + num(15) + num(16) + num(17), threads: num(20), rssPages: num(24) };
}

function readStat(pid: number): Stat | undefined {
  try {
    return parseStat(readFileSync(`/proc/${String(pid)}/stat`, "utf8"));
  } catch {
    return undefined; // gone
  }
}

function childrenOf(pid: number): number[] {
  try {
    const tids = readdirSync(`/proc/${String(pid)}/task`);
    const lists = tids.map((t) => {
      try {
        return readFileSync(`/proc/${String(pid)}/task/${t}/children`, "utf8");
      } catch {
        return ""; // the thread ended meanwhile
      }
    });
    return lists.flatMap((l) => l.split(" ").filter(Boolean).map(Number));
  } catch {
    return [];
  }
}

/** Usage of `root` and everything below it; undefined when `root` is gone. */
export async function treeUsage(root: number): Promise<TreeUsage | undefined> {
  const first = readStat(root);
  if (!first) return undefined;
  const usage: TreeUsage = { cpuSeconds: 0, rssBytes: 0, tasks: 0, pids: [] };
  const seen = new Set<number>();
  let level = [root];
  while (level.length > 0 && seen.size < 10_000) {
    const next: number[] = [];
    for (const pid of level) {
      if (seen.has(pid)) continue;
      const s = pid === root ? first : readStat(pid);
      if (!s) continue; // gone meanwhile
      seen.add(pid);
      if (seen.size % YIELD_EVERY === 0) await nextTurn();
      usage.pids.push(pid);
      usage.cpuSeconds += s.cpuTicks / TICKS;
      usage.rssBytes += s.rssPages * PAGE;
      usage.tasks += s.threads;
      next.push(...childrenOf(pid));
    }
    level = next;
  }
  return usage;
}
