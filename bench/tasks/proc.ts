// CPU time of a process tree that keeps starting and ending processes (PostgreSQL's backends come and go with
// the connection pools): the sum over the live processes of their own CPU plus that of their reaped children
// (cutime + cstime), so the CPU of a backend that exited during a phase is still counted, by its parent.
import { readdirSync, readFileSync } from "node:fs";

const TICK_MS = 10; // USER_HZ is 100 on Linux x86-64 and arm64

type Stat = { pid: number; ppid: number; ms: number };

function stat(pid: number): Stat | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name may hold spaces and parentheses: the fields start after the last ')'.
    const f = text.slice(text.lastIndexOf(")") + 2).split(" ");
    // utime, stime, cutime, cstime are fields 14–17 of the line, 11–14 after the name and state.
    const ticks = Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]);
    return { pid, ppid: Number(f[1]), ms: ticks * TICK_MS };
  } catch {
    return undefined;
  }
}

/** CPU ms used so far by `root`, its live descendants and every descendant already reaped. */
export function treeCpuMs(root: number): number {
  const stats: Stat[] = [];
  for (const name of readdirSync("/proc"))
    if (/^\d+$/.test(name)) {
      const s = stat(Number(name));
      if (s) stats.push(s);
    }
  const children = new Map<number, Stat[]>();
  for (const s of stats) children.set(s.ppid, [...(children.get(s.ppid) ?? []), s]);
  const rootStat = stats.find((s) => s.pid === root);
  if (!rootStat) return 0;
  let sum = 0;
  const queue = [rootStat];
  while (queue.length) {
    const s = queue.shift()!;
    sum += s.ms;
    queue.push(...(children.get(s.pid) ?? []));
  }
  return sum;
}
