// A server's recent stderr as this gateway process holds it, redacted: a server may print the token it was
// given, a connection string or a user's address, and the console is no place for them.
import type { TServerLogs, TStderrProcess } from "../../lib/server-logs-schemas";
import { redactor } from "../audit/redaction";
import { isProcessLaunch, type UpstreamLaunch } from "../upstream/upstream-client";
import type { StderrProcess } from "../upstream/stderr-log";

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * The process's redactor plus the launch's own env and header values: the process-wide one learns a new
 * server's values only after the registry change reaches it, and a server may crash (printing them) before.
 */
export function stderrRedactor(launch: UpstreamLaunch | undefined): (text: string) => string {
  const values = launch ? Object.values(isProcessLaunch(launch) ? launch.env : launch.headers) : [];
  // Eight characters, as the redactor's own floor: shorter values ("1", "true") are not secrets.
  const own = [...new Set(values.filter((v) => v.length >= 8))].sort((a, b) => b.length - a.length);
  const re = own.length ? new RegExp(own.map(escapeRe).join("|"), "g") : undefined;
  const r = redactor();
  return (text) => r.text(re ? text.replace(re, "[secret]") : text);
}

export function serverLogs(
  slug: string,
  held: { current: StderrProcess | null; previous: StderrProcess | null } | undefined,
  launch: UpstreamLaunch | undefined,
): TServerLogs {
  const redact = stderrRedactor(launch);
  const clean = (p: StderrProcess | null): TStderrProcess | null =>
    p && { ...p, endReason: p.endReason === null ? null : redact(p.endReason), lines: p.lines.map(redact) };
  return { slug, held: !!held, current: clean(held?.current ?? null), previous: clean(held?.previous ?? null) };
}
