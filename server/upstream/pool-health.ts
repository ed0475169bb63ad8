// Health pings: every connected entry is pinged each interval. A slow answer (or a circuit that is not
// closed) is DEGRADED, a failed ping DOWN, and its connection is dropped for the reconnect loop.
import { CircuitState } from "cockatiel";
import { scheduleReconnect } from "./entry-connection";
import { setStatus } from "./entry-status";
import type { PoolScope } from "./pool-scope";

/** Starts the pings; the timer does not hold the process open. Stop it with clearInterval. */
export function startPinger(scope: PoolScope): NodeJS.Timeout {
  const { opts, entries } = scope;
  const pinger = setInterval(() => {
    for (const e of entries.values()) {
      if (!e.conn) continue;
      const started = performance.now();
      e.conn.client
        .ping({ timeout: Math.max(1000, opts.degradedLatencyMs * 2) })
        .then(() => {
          const latencyMs = Math.round(performance.now() - started);
          setStatus(scope, e, latencyMs > opts.degradedLatencyMs || e.breaker.state !== CircuitState.Closed ? "DEGRADED" : "HEALTHY", { latencyMs });
        })
        .catch((err: unknown) => {
          setStatus(scope, e, "DOWN", { lastError: `ping failed: ${(err as Error).message}` });
          const conn = e.conn;
          e.conn = undefined;
          void conn?.close().catch(() => undefined);
          scheduleReconnect(scope, e);
        });
    }
  }, opts.pingIntervalMs);
  pinger.unref();
  return pinger;
}
