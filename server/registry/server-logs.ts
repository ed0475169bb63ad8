// A server's recent stderr as this gateway process holds it, redacted: a server may print the token it was
// given, a connection string or a user's address, and the console is no place for them.
import type { TServerLogs, TStderrProcess } from "../../lib/server-logs-schemas";
import { redactor } from "../audit/redaction";
import { isProcessLaunch, type UpstreamLaunch } from "../upstream/upstream-client";
import type { SessionStderrProcess } from "../upstream/session-stderr";
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
  sessions: Array<{ process: SessionStderrProcess; launch: UpstreamLaunch }> = [],
): TServerLogs {
  const clean = <P extends StderrProcess>(p: P, redact: (text: string) => string): P => ({
    ...p,
    endReason: p.endReason === null ? null : redact(p.endReason),
    lines: p.lines.map(redact),
  });
  const redact = stderrRedactor(launch);
  const own = (p: StderrProcess | null): TStderrProcess | null => p && clean(p, redact);
  return {
    slug,
    held: !!held || sessions.length > 0,
    current: own(held?.current ?? null),
    previous: own(held?.previous ?? null),
    // Each session's process may run another version (canary, a launch changed since): redacted by its own launch.
    sessions: sessions.map((s) => clean(s.process, stderrRedactor(s.launch))),
  };
}
