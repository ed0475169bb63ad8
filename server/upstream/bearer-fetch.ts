// The fetch of an upstream MCP session whose server authenticates its callers (issue 22): every HTTP request of
// the session carries the bearer current at that moment, so a refreshed token needs no new session. A 401 is
// resent once with a renewed bearer where the source can renew (a session of one user's own), else raised as
// UpstreamUnauthorizedError for the caller to renew and retry (never a status code the connect would read as
// "try legacy SSE").
import type { CredentialRef } from "../upstream-auth/upstream-credentials";
import { UpstreamUnauthorizedError } from "./upstream-errors";

/** Where a session's requests get their bearer: asked per request; `renew` after a 401 (one resend). */
export type BearerSource = {
  token: () => Promise<string>;
  renew?: ((rejected: string) => Promise<string>) | undefined;
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
    const token = await source.token();
    let res = await send(token);
    if (res.status === 401 && source.renew) {
      // The SDK's bodies are JSON text: the request can be sent again as it was.
      await res.body?.cancel().catch(() => undefined);
      res = await send(await source.renew(token));
    }
    if (res.status !== 401) return res;
    await res.body?.cancel().catch(() => undefined);
    throw new UpstreamUnauthorizedError(res.headers.get("www-authenticate"));
  };
}
