import type { TServer } from "@/lib/schemas";

export const formatLatency = (ms: number | null) => (ms === null ? "—" : `${Math.round(ms)} ms`);

export const formatMs = (ms: number) => (ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`);

/** Whether the gateway starts the server's process (a command or an installed package), so it has a sandbox and logs. */
export const startsProcess = (t: TServer["transport"]) => t !== "http" && t !== "sse";

/** Where the gateway reaches the server: the command line, or the URL. */
export function launchSummary(s: Pick<TServer, "transport" | "command" | "args" | "url">): string {
  if (!startsProcess(s.transport)) return s.url ?? "";
  return [s.command ?? "", ...s.args].map((a) => (/\s/.test(a) ? JSON.stringify(a) : a)).join(" ");
}

/** `sha512-AbCdEfGh…UvWxYz`: enough to compare by eye; a copy button gives the whole hash. */
export function shortIntegrity(integrity: string): string {
  const dash = integrity.indexOf("-");
  const [algo, hash] = dash > 0 ? [integrity.slice(0, dash + 1), integrity.slice(dash + 1)] : ["", integrity];
  return hash.length <= 16 ? integrity : `${algo}${hash.slice(0, 8)}…${hash.slice(-6)}`;
}
