import { describe, expect, it } from "vitest";
import { bearerFetch } from "./bearer-fetch";
import { UpstreamUnauthorizedError } from "./upstream-errors";

/** An upstream answering 401 to the tokens in `refused`, 200 otherwise; records the bearer of each request. */
function upstream(refused: Set<string>) {
  const seen: string[] = [];
  const statics: (string | null)[] = [];
  const fetch: typeof globalThis.fetch = (_input, init) => {
    const token = new Headers(init?.headers).get("authorization")?.replace("Bearer ", "") ?? "";
    seen.push(token);
    statics.push(new Headers(init?.headers).get("x-static"));
    return Promise.resolve(refused.has(token) ? new Response("no", { status: 401, headers: { "www-authenticate": 'Bearer error="invalid_token"' } }) : new Response("ok"));
  };
  return { fetch, seen, statics };
}

describe("bearerFetch", () => {
  it("asks for the bearer on every request and keeps the other headers", async () => {
    const up = upstream(new Set());
    let n = 0;
    const f = bearerFetch(up.fetch, { token: () => Promise.resolve(`t${String(++n)}`) });
    await f("http://u/mcp", { method: "POST", headers: { "x-static": "1", authorization: "Bearer static" }, body: "{}" });
    await f("http://u/mcp", { method: "POST", body: "{}" });
    expect(up.seen).toEqual(["t1", "t2"]);
    expect(up.statics).toEqual(["1", null]);
  });

  it("a 401 without renew is UpstreamUnauthorizedError carrying the challenge", async () => {
    const f = bearerFetch(upstream(new Set(["old"])).fetch, { token: () => Promise.resolve("old") });
    const err = await f("http://u/mcp", { method: "POST", body: "{}" }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UpstreamUnauthorizedError);
    expect((err as UpstreamUnauthorizedError).challenge).toBe('Bearer error="invalid_token"');
  });

  it("a 401 with renew resends once with the renewed bearer; refused again, it throws", async () => {
    const up = upstream(new Set(["old"]));
    const renewed: string[] = [];
    const ok = bearerFetch(up.fetch, { token: () => Promise.resolve("old"), renew: (t) => (renewed.push(t), Promise.resolve("new")) });
    expect((await ok("http://u/mcp", { method: "POST", body: "{}" })).status).toBe(200);
    expect(up.seen).toEqual(["old", "new"]);
    expect(renewed).toEqual(["old"]);
    const stale = bearerFetch(upstream(new Set(["old", "older"])).fetch, { token: () => Promise.resolve("old"), renew: () => Promise.resolve("older") });
    await expect(stale("http://u/mcp", { method: "POST", body: "{}" })).rejects.toBeInstanceOf(UpstreamUnauthorizedError);
  });
});
