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
