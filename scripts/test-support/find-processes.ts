// Which live processes mention a string in their command line (for "no PostgreSQL of DATA_DIR is left").
import { readFileSync, readdirSync } from "node:fs";

export type FoundProcess = { pid: number; cmdline: string };

export function findProcesses(needle: string): FoundProcess[] {
  const found: FoundProcess[] = [];
  for (const entry of readdirSync("/proc")) {
    const pid = Number(entry);
    if (!Number.isInteger(pid) || pid === process.pid) continue;
    let cmdline: string;
    try {
      cmdline = readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ").trim();
    } catch {
      continue; // exited while we looked
    }
    if (cmdline.includes(needle)) found.push({ pid, cmdline });
  }
  return found;
}

/** True while `pid` exists (a zombie counts as gone). */
export function pidAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return !/^\d+ \(.*\) Z /.test(stat);
  } catch {
    return false;
  }
}

/** pid, parent pid and process group of a live process, from /proc/<pid>/stat (undefined once it is gone). */
function statOf(pid: number): { ppid: number; pgid: number } | undefined {
  try {
    // The command name in parentheses may hold spaces: the fields after it are counted from the last ")".
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const [, ppid, pgid] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return { ppid: Number(ppid), pgid: Number(pgid) };
  } catch {
    return undefined;
  }
}

/** Live processes in process group `pgid`. */
export function processGroup(pgid: number): number[] {
  return readdirSync("/proc")
    .map(Number)
    .filter((pid) => Number.isInteger(pid) && pid !== process.pid && statOf(pid)?.pgid === pgid && pidAlive(pid));
}

/** `root` and every live process below it (children that moved to a session of their own included). */
export function processTree(root: number): number[] {
  const parents = new Map<number, number>();
  for (const entry of readdirSync("/proc")) {
    const pid = Number(entry);
    const stat = Number.isInteger(pid) ? statOf(pid) : undefined;
    if (stat) parents.set(pid, stat.ppid);
  }
  const tree = new Set([root]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const [pid, ppid] of parents)
      if (tree.has(ppid) && !tree.has(pid)) {
        tree.add(pid);
        grew = true;
      }
  }
  return [...tree].filter((pid) => pidAlive(pid));
}
