// A server's recent stderr as this gateway process holds it, redacted: a server may print the token it was
// given, a connection string or a user's address, and the console is no place for them.
import type { TServerLogs, TStderrProcess } from "../../lib/server-logs-schemas";
import { redactor } from "../audit/redaction";
import type { StderrProcess } from "../upstream/stderr-log";

export function serverLogs(slug: string, held: { current: StderrProcess | null; previous: StderrProcess | null } | undefined): TServerLogs {
  const r = redactor();
  const clean = (p: StderrProcess | null): TStderrProcess | null =>
    p && { ...p, endReason: p.endReason === null ? null : r.text(p.endReason), lines: p.lines.map((l) => r.text(l)) };
  return { slug, held: !!held, current: clean(held?.current ?? null), previous: clean(held?.previous ?? null) };
}
