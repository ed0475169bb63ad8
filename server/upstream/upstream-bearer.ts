// The bearer of servers that authenticate their callers (issue 22), as the pool uses it: the mode of an entry,
// the credential its shared connection lists definitions with (and answers shared calls with), and one request
// under a call's own credential with the one retry a 401 earns (credentials.rejected renews it, or says the user
// must reconnect).
import type { CallIdentity, CredentialRef, UpstreamAuthMode, UpstreamCredential, UpstreamCredentials } from "../upstream-auth/upstream-credentials";
import type { Entry, PoolDeps, PoolScope } from "./pool-scope";
import { UpstreamUnauthorizedError, UpstreamUnavailableError } from "./upstream-errors";
import type { BearerSource } from "./bearer-fetch";

export type Bearer = UpstreamCredential & { kind: "bearer" };

export function authModeOf({ deps }: PoolScope, e: Entry): UpstreamAuthMode {
  return e.spec.auth?.mode ?? deps.authModeOf?.(e.spec) ?? "none";
}

/** Modes whose calls act as their user: each credential gets its own upstream session (credential-sessions.ts). */
export const perCredentialSessions = (mode: UpstreamAuthMode) => mode === "per_user" || mode === "token_exchange";

function credentialsOf({ deps }: PoolScope, e: Entry, mode: UpstreamAuthMode) {
  if (!deps.credentials) throw new UpstreamUnavailableError(`the server ${e.spec.slug} authenticates its callers (${mode}) but this gateway has no upstream credentials`);
  if (e.spec.launch.transport !== "HTTP" && e.spec.launch.transport !== "SSE") throw new UpstreamUnavailableError(`auth mode ${mode} needs an HTTP server; ${e.spec.slug} is ${e.spec.launch.transport}`);
  return deps.credentials;
}

function bearerOf(server: { slug: string }, cred: UpstreamCredential): Bearer {
  // The credentials answer `none` only for a server in mode none: the pool's view and theirs disagree.
  if (cred.kind !== "bearer") throw new UpstreamUnavailableError(`no bearer credential for ${server.slug}`);
  return cred;
}

/**
 * A bearer asked on every request (`resolve`); a 401 is renewed through `rejected` (as `identity` of the refused
 * credential) and the request sent once more. Renewed only when the refused token is the one last handed out:
 * else a newer one exists already.
 */
function renewingBearer(server: { slug: string }, credentials: UpstreamCredentials, resolve: () => Promise<UpstreamCredential>, identity: (cred: Bearer) => CallIdentity): BearerSource {
  let last: Bearer | undefined;
  const token = async () => (last = bearerOf(server, await resolve())).accessToken;
  return {
    token,
    ref: () => last?.ref,
    renew: async (rejected) => (last?.accessToken === rejected ? (last = bearerOf(server, await credentials.rejected(identity(last), last))).accessToken : token()),
  };
}

/**
 * The bearer of the entry's pooled connection (undefined in mode none): the discovery credential (the service
 * credential, or an admin's connection), asked on every HTTP request so a refreshed token is used at once, renewed
 * after a 401 (pings and listings included; `rejected` is told the credential's own user and no agent session).
 * Throws UpstreamAuthRequiredError while there is no credential yet.
 */
export function discoveryBearer(scope: PoolScope, e: Entry): BearerSource | undefined {
  const mode = authModeOf(scope, e);
  if (mode === "none") return undefined;
  const credentials = credentialsOf(scope, e, mode);
  const { serverId } = e.spec;
  return renewingBearer(e.spec, credentials, () => credentials.forDiscovery(serverId), (cred) => ({ serverId, userId: cred.ref.userId, agentSessionId: "" }));
}

/**
 * The bearer of a connection that serves one user's agent session alone (the transparent endpoint's): that
 * user's credential, asked on every request, renewed after a 401. Undefined for a server in mode none.
 */
export function sessionBearer(deps: Pick<PoolDeps, "credentials" | "authModeOf">, server: { serverId: string; slug: string }, identity: CallIdentity): BearerSource | undefined {
  const mode = deps.authModeOf?.(server) ?? "none";
  if (mode === "none") return undefined;
  const credentials = deps.credentials;
  if (!credentials) throw new UpstreamUnavailableError(`the server ${server.slug} authenticates its callers (${mode}) but this gateway has no upstream credentials`);
  return renewingBearer(server, credentials, () => credentials.forCall(identity), () => identity);
}

/**
 * Runs `run` with the call's credential; a 401 gets one retry with the credential `rejected` answers. The ref
 * of the credential used is told before each attempt (the audit event records the last).
 */
export async function withCallCredential<T>(
  scope: PoolScope,
  e: Entry,
  o: { identity?: CallIdentity | undefined; signal?: AbortSignal | undefined; onCredential?: ((ref: CredentialRef) => void) | undefined },
  run: (cred: Bearer) => Promise<T>,
): Promise<T> {
  const credentials = credentialsOf(scope, e, authModeOf(scope, e));
  if (!o.identity) throw new UpstreamUnavailableError(`a call to ${e.spec.slug} needs to know whose it is`);
  const identity = o.identity;
  let cred = bearerOf(e.spec, await credentials.forCall(identity, o.signal));
  for (let retried = false; ; retried = true) {
    o.onCredential?.(cred.ref);
    try {
      return await run(cred);
    } catch (err) {
      if (retried || !(err instanceof UpstreamUnauthorizedError)) throw err;
      cred = bearerOf(e.spec, await credentials.rejected(identity, cred, o.signal));
    }
  }
}
