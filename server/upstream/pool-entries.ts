// The entries the pool holds, one per (server, role): made on first start with a fresh breaker and
// bulkhead, and removed (connect under way aborted, reconnect cancelled, connection closed) when the server
// is removed or replaced, or the pool closes.
import { closeCredentialSessions } from "./credential-sessions";
import { cancelReconnect } from "./entry-connection";
import { entryResilience, releaseHold } from "./entry-resilience";
import { key, type Entry, type PoolScope, type Role, type UpstreamSpec } from "./pool-scope";
import { StderrLog } from "./stderr-log";

export function entryFor({ opts, entries }: PoolScope, spec: UpstreamSpec): Entry {
  const k = key(spec.serverId, spec.role);
  let e = entries.get(k);
  if (!e) {
    e = {
      spec,
      status: "CONNECTING",
      stderr: new StderrLog(),
      ...entryResilience(opts, spec.maxConcurrency),
      reconnectAttempt: 0,
      removed: false,
      restarts: 0,
      limitHits: 0,
    };
    entries.set(k, e);
  }
  return e;
}

export async function removeEntries({ entries }: PoolScope, serverId: string, role?: Role) {
  for (const r of role ? [role] : (["active", "canary"] as const)) {
    const e = entries.get(key(serverId, r));
    if (!e) continue;
    e.removed = true;
    e.abort?.abort(new Error("the server was removed while connecting"));
    cancelReconnect(e);
    releaseHold(e);
    entries.delete(key(serverId, r));
    await Promise.all([e.conn?.close().catch(() => undefined), closeCredentialSessions(e)]);
  }
}
