// Per-credential upstream sessions of one (server, role), for servers that act as the signed-in person
// (per_user, token_exchange; issue 22): one MCP session per credential cacheKey, opened on that credential's
// first call, so no session (and no upstream state) is ever shared between users. Each request of a session
// carries the credential's latest token (a refresh needs no new session). Bounded: past maxCredentialSessions
// the least recently used idle session is closed; an idle one closes after credentialSessionIdleMs; all close
// with their entry (server removed or replaced, pool closed).
import type { UpstreamCredential } from "../upstream-auth/upstream-credentials";
import { connectTimeout } from "./entry-connection";
import type { CredentialSession, Entry, PoolScope } from "./pool-scope";
import { connectUpstream, type ConnectedUpstream } from "./upstream-client";
import { UpstreamInsufficientScopeError, UpstreamUnauthorizedError, UpstreamUnavailableError } from "./upstream-errors";

type Bearer = UpstreamCredential & { kind: "bearer" };

/** Runs `fn` over the session of `cred` (opened now if there is none). */
export async function withCredentialSession<T>(scope: PoolScope, e: Entry, cred: Bearer, fn: (conn: ConnectedUpstream) => Promise<T>): Promise<T> {
  const sessions = (e.sessions ??= new Map<string, CredentialSession>());
  let s = sessions.get(cred.cacheKey);
  if (s) sessions.delete(cred.cacheKey); // re-inserted below: the Map's order is the use order (LRU first)
  s ??= { key: cred.cacheKey, token: cred.accessToken, inUse: 0, closed: false };
  sessions.set(cred.cacheKey, s);
  s.token = cred.accessToken;
  s.inUse++;
  clearTimeout(s.idleTimer);
  evictIdle(scope, e);
  try {
    return await fn(await sessionConnection(scope, e, s));
  } finally {
    s.inUse--;
    if (s.inUse === 0 && !s.closed) {
      const idle = s;
      idle.idleTimer = setTimeout(() => void closeSession(e, idle), scope.opts.credentialSessionIdleMs);
      idle.idleTimer.unref();
    }
  }
}

function sessionConnection(scope: PoolScope, e: Entry, s: CredentialSession): Promise<ConnectedUpstream> {
  if (s.conn) return Promise.resolve(s.conn);
  s.connecting ??= (async () => {
    try {
      const conn = await connectUpstream(
        e.spec.launch,
        // A dropped session is forgotten: the credential's next call opens a new one.
        { onClose: () => void closeSession(e, s) },
        {
          timeoutMs: connectTimeout(scope, e),
          launcher: scope.deps.launcher,
          key: { serverId: e.spec.serverId, slug: e.spec.slug, role: e.spec.role },
          bearer: { token: () => Promise.resolve(s.token) },
          validators: scope.validators,
        },
      );
      if (e.removed || s.closed) {
        await conn.close().catch(() => undefined);
        throw new UpstreamUnavailableError("the server was removed while connecting");
      }
      s.conn = conn;
      return conn;
    } catch (err) {
      void closeSession(e, s);
      // A refused credential is the caller's to renew (credentials.rejected / insufficientScope), not the upstream's failure.
      if (err instanceof UpstreamUnauthorizedError || err instanceof UpstreamInsufficientScopeError || err instanceof UpstreamUnavailableError) throw err;
      throw new UpstreamUnavailableError(err instanceof Error ? err.message : String(err), { cause: err });
    } finally {
      s.connecting = undefined;
    }
  })();
  return s.connecting;
}

/** Past the bound, the least recently used sessions that no call is using are closed. */
function evictIdle({ opts }: PoolScope, e: Entry): void {
  const sessions = e.sessions!;
  for (const s of sessions.values()) {
    if (sessions.size <= opts.maxCredentialSessions) return;
    if (s.inUse === 0) void closeSession(e, s);
  }
}

async function closeSession(e: Entry, s: CredentialSession): Promise<void> {
  if (s.closed) return;
  s.closed = true;
  clearTimeout(s.idleTimer);
  if (e.sessions?.get(s.key) === s) e.sessions.delete(s.key);
  const conn = s.conn;
  s.conn = undefined;
  await conn?.close().catch(() => undefined);
}

/** Closes every per-credential session of the entry (it is being removed). */
export async function closeCredentialSessions(e: Entry): Promise<void> {
  await Promise.all([...(e.sessions?.values() ?? [])].map((s) => closeSession(e, s)));
}
