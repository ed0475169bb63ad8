// The fetch of an upstream MCP session whose server authenticates its callers (issue 22): every HTTP request of
// the session carries the bearer current at that moment, so a refreshed token needs no new session. A 401 is
// raised as UpstreamUnauthorizedError (never a status code the connect would read as "try legacy SSE").
import { UpstreamUnauthorizedError } from "./upstream-errors";

export function bearerFetch(inner: typeof fetch, bearer: () => Promise<string>): typeof fetch {
  return async (input, init) => {
    const headers = new Headers(init?.headers);
    headers.set("authorization", `Bearer ${await bearer()}`);
    const res = await inner(input, { ...init, headers });
    if (res.status !== 401) return res;
    await res.body?.cancel().catch(() => undefined);
    throw new UpstreamUnauthorizedError(res.headers.get("www-authenticate"));
  };
}
