import type { TServer } from "@/lib/schemas";

export const formatLatency = (ms: number | null) => (ms === null ? "—" : `${Math.round(ms)} ms`);

export const formatMs = (ms: number) => (ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`);

/** Where the gateway reaches the server: the command line, or the URL. */
export function launchSummary(s: Pick<TServer, "transport" | "command" | "args" | "url">): string {
  if (s.transport !== "stdio") return s.url ?? "";
  return [s.command ?? "", ...s.args].map((a) => (/\s/.test(a) ? JSON.stringify(a) : a)).join(" ");
}
