// The stderr of transparent sessions' processes (/mcp/s/<slug>: one upstream process per agent session, see
// server/mcp/transparent/session-upstreams.ts), kept per server next to the pooled process's, each marked with
// its session. Bounded: every running session's log (their number is bounded by the transparent capacity
// limits) plus the newest `maxEnded` ended ones per server; each log is a StderrLog with its own line and byte
// bounds.
import type { UpstreamLaunch } from "./upstream-client";
import { DEFAULT_STDERR_LIMITS, StderrLog, type StderrLimits, type StderrProcess } from "./stderr-log";

export type SessionStderrProcess = StderrProcess & { session: string };

type Entry = { session: string; log: StderrLog; launch: UpstreamLaunch; running: boolean; seq: number };

/** One session's process: its stderr lines, and its end. */
export type SessionStderrSink = { push(line: string): void; end(reason: string): void };

export function createSessionStderr(opts: { maxEnded?: number; limits?: StderrLimits } = {}) {
  const maxEnded = opts.maxEnded ?? 10;
  const byServer = new Map<string, Map<string, Entry>>();
  let seq = 0;

  function trim(entries: Map<string, Entry>) {
    const ended = [...entries.values()].filter((e) => !e.running).sort((a, b) => a.seq - b.seq);
    for (const e of ended.slice(0, Math.max(0, ended.length - maxEnded))) entries.delete(e.session);
  }

  return {
    /** A session's process starts; a session that reconnects (new version) keeps its earlier process as previous. */
    open(serverId: string, session: string, launch: UpstreamLaunch): SessionStderrSink {
      let entries = byServer.get(serverId);
      if (!entries) byServer.set(serverId, (entries = new Map<string, Entry>()));
      const entry = entries.get(session) ?? { session, log: new StderrLog(opts.limits ?? DEFAULT_STDERR_LIMITS), launch, running: true, seq: 0 };
      entry.log.begin();
      Object.assign(entry, { launch, running: true, seq: ++seq });
      entries.set(session, entry);
      const owned = entries;
      return {
        push: (line) => entry.log.push(line),
        end: (reason) => {
          entry.log.end(reason);
          entry.running = false;
          trim(owned);
        },
      };
    },
    /** The server's session processes, newest first, each with the launch its secrets are redacted by. */
    snapshot(serverId: string): Array<{ process: SessionStderrProcess; launch: UpstreamLaunch }> {
      const entries = [...(byServer.get(serverId)?.values() ?? [])].sort((a, b) => b.seq - a.seq);
      return entries.flatMap((e) => {
        const { current, previous } = e.log.snapshot();
        return [current, previous].filter((p): p is StderrProcess => p !== null).map((p) => ({ process: { ...p, session: e.session }, launch: e.launch }));
      });
    },
  };
}

export type SessionStderr = ReturnType<typeof createSessionStderr>;
