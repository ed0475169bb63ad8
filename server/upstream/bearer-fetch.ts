// The fetch of an upstream MCP session whose server authenticates its callers (issue 22): every HTTP request of
// the session carries the bearer current at that moment, so a refreshed token needs no new session. A 401 is
// resent once with a renewed bearer where the source can renew (a session of one user's own), else raised as
// UpstreamUnauthorizedError for the caller to renew and retry (never a status code the connect would read as
// "try legacy SSE"). A 403 insufficient_scope naming scopes (MCP scope step-up) is handled the same way: resent
// once with a stepped-up bearer where the source can step up, else raised as UpstreamInsufficientScopeError.
import { extractWWWAuthenticateParams } from "@modelcontextprotocol/sdk/client/auth.js";
import type { CredentialRef } from "../upstream-auth/upstream-credentials";
import { UpstreamInsufficientScopeError, UpstreamUnauthorizedError } from "./upstream-errors";

/** Where a session's requests get their bearer: asked per request; `renew` after a 401 (one resend). */
export type BearerSource = {
  token: () => Promise<string>;
  renew?: ((rejected: string) => Promise<string>) | undefined;
  /** After a 403 insufficient_scope naming `scopes`: a bearer with them (one resend), or throws (the user must consent). */
  stepUp?: ((refused: string, scopes: string[]) => Promise<string>) | undefined;
  /** Which credential the last token was (for the audit of a call over this session). */
  ref?: (() => CredentialRef | undefined) | undefined;
};

export function bearerFetch(inner: typeof fetch, source: BearerSource): typeof fetch {
  return async (input, init) => {
    const headers = new Headers(init?.headers);
    const send = (token: string) => {
      headers.set("authorization", `Bearer ${token}`);
      return inner(input, { ...init, headers });
    };
    let token = await source.token();
    let res = await send(token);
    if (res.status === 401 && source.renew) {
      // The SDK's bodies are JSON text: the request can be sent again as it was.
      await res.body?.cancel().catch(() => undefined);
      res = await send((token = await source.renew(token)));
    }
    const needed = scopeChallenge(res);
    if (needed && source.stepUp) {
      await res.body?.cancel().catch(() => undefined);
      res = await send(await source.stepUp(token, needed));
    }
    if (res.status === 401) {
      await res.body?.cancel().catch(() => undefined);
      throw new UpstreamUnauthorizedError(res.headers.get("www-authenticate"));
    }
    const stillNeeded = scopeChallenge(res);
    if (!stillNeeded) return res;
    await res.body?.cancel().catch(() => undefined);
    throw new UpstreamInsufficientScopeError(res.headers.get("www-authenticate"), stillNeeded);
  };
}

/**
 * The scopes a 403 `insufficient_scope` challenge names, else undefined. A challenge naming no scope is not a
 * step-up (nothing to ask for): the response goes to the caller as it is.
 */
function scopeChallenge(res: Response): string[] | undefined {
  if (res.status !== 403) return undefined;
  const { error, scope } = extractWWWAuthenticateParams(res);
  const scopes = scope?.split(" ").filter(Boolean) ?? [];
  return error === "insufficient_scope" && scopes.length > 0 ? scopes : undefined;
}
