// The upstream OAuth client end to end against a real authorization server process (fixtures/upstream-idp-process.ts)
// and the real protected upstream MCP server it guards: two users connect their own accounts through the
// provider's login pages (dynamic registration, code + PKCE + resource, iss checked), each token reaches the
// upstream as its own user, a third user gets upstream_auth_required; the callback's hostile inputs; refresh
// (concurrent callers, one refresh), a refused refresh (needs_reconnect, the stale token never handed out),
// disconnect (revoked at the provider), client credentials, token exchange; no token outside the secret store.
import { randomBytes } from "node:crypto";
import { Writable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { User } from "../db/client";
import { isGatewayError } from "../errors";
import { createLogger } from "../logger";
import { insertUser, userContext } from "../test/contexts";
import { startTestGateway, type TestGateway } from "../test/gateway-harness";
import { followIdpPages } from "../test/fixtures/oidc-code-flow";
import { createSecretStore } from "../secrets/secret-store";
import { createTestDb, truncateAll } from "../test/test-db";
import { startUpstreamIdp, whoAmI, type UpstreamIdp } from "../test/upstream-idp";
import { UpstreamAuthRequiredError } from "./upstream-auth-required-error";
import type { UpstreamCredential } from "./upstream-credentials";
import { upstreamRedirectUri } from "./upstream-client-document";

const PUBLIC_URL = "http://portcullis.test";
const REDIRECT = upstreamRedirectUri(PUBLIC_URL);
const SECRETS_KEY = randomBytes(32).toString("base64");

describe("upstream OAuth client", () => {
  const db = createTestDb();
  let idp: UpstreamIdp;
  let t: TestGateway;
  const logs: string[] = [];
  const seenTokens = new Set<string>();
  let alice: User, bob: User, carol: User;
  let serverId = "";

  const auth = () => t.gateway.upstreamAuth();
  const creds = () => t.gateway.upstreamCredentials();
  const bearer = (c: UpstreamCredential) => {
    if (c.kind !== "bearer") throw new Error("expected a bearer credential");
    seenTokens.add(c.accessToken);
    return c;
  };
  const codeOf = async (err: Promise<unknown>) => err.then(() => "resolved", (e: unknown) => (isGatewayError(e) ? e.code : e instanceof UpstreamAuthRequiredError ? `${e.code}:${e.reason}` : String(e)));

  /** Starts connecting and signs in at the provider: the callback's query, as the browser would bring it back. */
  async function authorize(user: User, login: string, server = serverId): Promise<URLSearchParams> {
    const { authorizationUrl } = await auth().connect(user.id, server);
    const back = await followIdpPages(authorizationUrl, login, (url) => url.startsWith(REDIRECT));
    return new URL(back).searchParams;
  }
  const callback = (user: User, q: URLSearchParams) => auth().callback(userContext(user), user.id, { state: q.get("state"), code: q.get("code"), iss: q.get("iss"), error: q.get("error") });

  beforeAll(async () => {
    await truncateAll(db);
    idp = await startUpstreamIdp({
      accounts: { alice: { email: "alice@corp.test" }, bob: { email: "bob@corp.test" } },
      clients: [
        { client_id: "svc", client_secret: "svc-secret", grant_types: ["client_credentials"], email: "svc@corp.test" },
        { client_id: "agent-app", client_secret: "agent-secret", grant_types: ["client_credentials"], email: "agent@corp.test" },
        { client_id: "portcullis-tx", client_secret: "tx-secret", grant_types: ["urn:ietf:params:oauth:grant-type:token-exchange"] },
      ],
    });
    const sink = new Writable({ write: (chunk: Buffer, _e, done) => void (logs.push(chunk.toString()), done()) });
    t = await startTestGateway({ logger: createLogger("debug", {}, sink), env: { PUBLIC_URL, SECRETS_KEY } });
    [alice, bob, carol] = [await insertUser(db, { role: "ADMIN" }), await insertUser(db), await insertUser(db)];
    serverId = (await db.upstreamServer.create({ data: { slug: "tracker", name: "Tracker", transport: "HTTP", url: idp.upstreamUrl, authMode: "per_user", authConfig: { scopes: ["mcp"] } } })).id;
  }, 90_000);

  afterAll(async () => {
    await t?.close();
    await idp?.stop();
  });

  it("two users connect their own accounts; each token reaches the upstream as its user; a third gets upstream_auth_required", async () => {
    for (const [user, login] of [[alice, "alice"], [bob, "bob"]] as const) {
      const done = await callback(user, await authorize(user, login));
      expect(done.serverSlug).toBe("tracker");
    }
    expect((await idp.stats()).registrations).toBe(1); // one dynamic registration, reused by the second user
    const a = bearer(await creds().forCall({ serverId, userId: alice.id, agentSessionId: "s1" }));
    const b = bearer(await creds().forCall({ serverId, userId: bob.id, agentSessionId: "s2" }));
    expect(await whoAmI(idp.upstreamUrl, a.accessToken)).toMatchObject({ sub: "alice", email: "alice@corp.test" });
    expect(await whoAmI(idp.upstreamUrl, b.accessToken)).toMatchObject({ sub: "bob", email: "bob@corp.test" });
    expect(a.ref).toMatchObject({ mode: "per_user", userId: alice.id });
    expect(a.cacheKey).not.toBe(b.cacheKey);
    const err = await creds().forCall({ serverId, userId: carol.id, agentSessionId: "s3" }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UpstreamAuthRequiredError);
    expect(err).toMatchObject({ reason: "not_connected", connectUrl: `${PUBLIC_URL}/connections?server=tracker` });
    const mine = await auth().listMine(alice.id);
    expect(mine.connections).toEqual([expect.objectContaining({ serverSlug: "tracker", status: "connected", account: "alice@corp.test", issuer: idp.issuer, mode: "per_user" })]);
    // No tool of the server is known here (nothing listed it): only an admin, whose account would list it, is offered it.
    expect((await auth().listMine(carol.id)).available).toEqual([]);
    const admin2 = await insertUser(db, { role: "ADMIN" });
    expect((await auth().listMine(admin2.id)).available).toEqual([{ serverId, serverSlug: "tracker", serverName: "Tracker" }]);
    // The Authentication tab names where the per_user accounts live, though no shared account exists.
    expect(await auth().serverAuth("tracker")).toMatchObject({ mode: "per_user", issuer: idp.issuer, registration: "dynamic", shared: null, connectedUsers: 2 });
    expect(await db.auditEvent.count({ where: { action: "upstream.connected" } })).toBe(2);
    // An admin's connection lists the server's definitions (forDiscovery); bob's is a plain user's.
    expect(bearer(await creds().forDiscovery(serverId)).ref.userId).toBe(alice.id);
  });

  it("more concurrent callbacks, then refreshes, than the database pool has connections all complete (none starves inside its transaction)", async () => {
    // 12 > DATABASE_POOL_MAX (10): a claim that asked the pool for a second connection inside its transaction
    // waited on the others' held connections past the transaction's 5 s timeout.
    const users = await Promise.all(Array.from({ length: 12 }, () => insertUser(db)));
    const answers = await Promise.all(users.map(async (u, i) => [u, await authorize(u, i % 2 ? "bob" : "alice")] as const));
    const done = await Promise.allSettled(answers.map(([u, q]) => callback(u, q)));
    expect(done.filter((d): d is PromiseRejectedResult => d.status === "rejected").map((d) => String(d.reason))).toEqual([]);
    expect(await db.upstreamConnection.count({ where: { userId: { in: users.map((u) => u.id) }, status: "connected" } })).toBe(12);
    // Their 12 tokens expire at once: 12 refreshes, each in its lock's transaction, none starving the others.
    await db.upstreamConnection.updateMany({ where: { userId: { in: users.map((u) => u.id) } }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const refreshesBefore = (await idp.stats()).refresh_token;
    const fresh = await Promise.allSettled(users.map((u) => creds().forCall({ serverId, userId: u.id, agentSessionId: `s-${u.id}` })));
    expect(fresh.filter((d): d is PromiseRejectedResult => d.status === "rejected").map((d) => String(d.reason))).toEqual([]);
    expect((await idp.stats()).refresh_token - refreshesBefore).toBe(12);
    await Promise.all(users.map((u) => db.upstreamConnection.deleteMany({ where: { userId: u.id } })));
  });

  it("GET /oauth/upstream/callback – refuses a replayed state, another user's state, a wrong iss, error=, and huge parameters, each with its code", async () => {
    const q = await authorize(carol, "bob");
    // Another user presenting carol's state is refused, and carol's authorization is left intact.
    expect(await codeOf(callback(bob, q))).toBe("upstream_auth_state_invalid");
    const wrongIss = new URLSearchParams(q);
    wrongIss.set("iss", "https://evil.test");
    expect(await codeOf(callback(carol, wrongIss))).toBe("upstream_auth_issuer_mismatch");
    // The state was used by the refused attempt: the genuine response cannot be replayed after it.
    expect(await codeOf(callback(carol, q))).toBe("upstream_auth_state_invalid");
    const ok = await authorize(carol, "bob");
    const noIss = new URLSearchParams(ok);
    noIss.delete("iss"); // the provider advertises RFC 9207: an answer without iss is refused
    expect(await codeOf(callback(carol, noIss))).toBe("upstream_auth_issuer_mismatch");
    const denied = await authorize(carol, "bob");
    expect(await codeOf(callback(carol, new URLSearchParams({ state: denied.get("state")!, error: "access_denied", iss: idp.issuer })))).toBe("upstream_auth_denied");
    expect(await codeOf(callback(carol, new URLSearchParams({ state: "x".repeat(5000), code: "c" })))).toBe("bad_request");
    expect(await codeOf(callback(carol, new URLSearchParams({ state: "never-issued", code: "c" })))).toBe("upstream_auth_state_invalid");
    // An expired authorization is refused; one never finished is removed (with its sealed verifier) by a later start.
    const late = await authorize(carol, "bob");
    await auth().connect(carol.id, serverId);
    await db.upstreamAuthorization.updateMany({ data: { expiresAt: new Date(Date.now() - 1000) } });
    expect(await codeOf(callback(carol, late))).toBe("upstream_auth_state_invalid");
    const abandoned = await db.upstreamAuthorization.findFirstOrThrow({ select: { verifierSecretId: true } });
    const good = await authorize(carol, "bob");
    expect(await db.upstreamAuthorization.count({ where: { expiresAt: { lt: new Date() } } })).toBe(0);
    expect(await db.secret.count({ where: { id: abandoned.verifierSecretId } })).toBe(0);
    await callback(carol, good);
    expect(await codeOf(callback(carol, good))).toBe("upstream_auth_state_invalid");
    expect(await db.upstreamConnection.count({ where: { userId: carol.id } })).toBe(1);
  }, 60_000);

  it("an expired token: 20 concurrent callers get one refresh at the provider and the same new token", async () => {
    const before = (await idp.stats()).refresh_token;
    const old = bearer(await creds().forCall({ serverId, userId: alice.id, agentSessionId: "s1" }));
    await db.upstreamConnection.updateMany({ where: { userId: alice.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const all = await Promise.all(Array.from({ length: 20 }, () => creds().forCall({ serverId, userId: alice.id, agentSessionId: "s1" })));
    const tokens = new Set(all.map((c) => bearer(c).accessToken));
    expect(tokens.size).toBe(1);
    expect(tokens.has(old.accessToken)).toBe(false);
    expect((await idp.stats()).refresh_token).toBe(before + 1);
    expect(await whoAmI(idp.upstreamUrl, [...tokens][0]!)).toMatchObject({ sub: "alice" });
    // A 401 for the new token: one forced refresh; a second caller reporting the same token gets the newer one.
    const fresh = bearer(all[0]!);
    const [r1, r2] = await Promise.all([creds().rejected({ serverId, userId: alice.id, agentSessionId: "s1" }, fresh), creds().rejected({ serverId, userId: alice.id, agentSessionId: "s1" }, fresh)]);
    expect(bearer(r1).accessToken).toBe(bearer(r2).accessToken);
    expect(bearer(r1).accessToken).not.toBe(fresh.accessToken);
    expect((await idp.stats()).refresh_token).toBe(before + 2);
    expect(await db.auditEvent.count({ where: { action: "upstream.token_refreshed", targetId: { in: (await db.upstreamConnection.findMany({ where: { userId: alice.id } })).map((c) => c.id) } } })).toBe(2);
  });

  it("a refresh token revoked at the provider: needs_reconnect, the user told, the stale token never handed out", async () => {
    expect(await idp.revokeRefresh("bob")).toBeGreaterThan(0);
    await db.upstreamConnection.updateMany({ where: { userId: bob.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const calls = Array.from({ length: 5 }, () => creds().forCall({ serverId, userId: bob.id, agentSessionId: "s2" }).catch((e: unknown) => e));
    for (const err of await Promise.all(calls)) expect(err).toMatchObject({ code: "upstream_auth_required", reason: "needs_reconnect" });
    const [row] = (await auth().listMine(bob.id)).connections;
    expect(row?.status).toBe("needs_reconnect");
    expect(row?.lastError).toContain("invalid_grant");
    expect((await idp.stats()).refused_refresh).toBe(1);
    expect(await db.auditEvent.count({ where: { action: "upstream.refresh_failed" } })).toBe(1);
    // Reconnecting is connecting again: connected, with a working token.
    await callback(bob, await authorize(bob, "bob"));
    expect(await whoAmI(idp.upstreamUrl, bearer(await creds().forCall({ serverId, userId: bob.id, agentSessionId: "s2" })).accessToken)).toMatchObject({ sub: "bob" });
  }, 60_000);

  it("scope step-up: a 403 insufficient_scope marks the connection needs_reconnect, and the reconnect asks for the union of scopes", async () => {
    const identity = { serverId, userId: alice.id, agentSessionId: "s1" };
    const cred = bearer(await creds().forCall(identity));
    const err = await creds().insufficientScope!(identity, cred, ["email"]).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: "upstream_auth_required", reason: "needs_reconnect" });
    expect(await codeOf(creds().forCall(identity))).toBe("upstream_auth_required:needs_reconnect");
    expect((await auth().listMine(alice.id)).connections[0]?.lastError).toContain("email");
    const { authorizationUrl } = await auth().connect(alice.id, serverId);
    expect(new URL(authorizationUrl).searchParams.get("scope")?.split(" ").sort()).toEqual(["email", "mcp"]);
    const back = new URL(await followIdpPages(authorizationUrl, "alice", (url) => url.startsWith(REDIRECT))).searchParams;
    await callback(alice, back);
    expect(await whoAmI(idp.upstreamUrl, bearer(await creds().forCall(identity)).accessToken)).toMatchObject({ sub: "alice" });
    expect(await db.auditEvent.count({ where: { action: "upstream.scope_required" } })).toBe(1);
  });

  it("disconnect revokes at the provider and deletes the tokens; a disabled user's connections go the same way", async () => {
    const revocations = (await idp.stats()).revocations;
    const [conn] = (await auth().listMine(bob.id)).connections;
    const row = await db.upstreamConnection.findUniqueOrThrow({ where: { id: conn!.id } });
    expect(await codeOf(auth().disconnect(userContext(carol), conn!.id))).toBe("not_found"); // not carol's
    await auth().disconnect(userContext(bob), conn!.id);
    expect((await idp.stats()).revocations).toBeGreaterThan(revocations);
    expect(await db.upstreamConnection.count({ where: { id: conn!.id } })).toBe(0);
    expect(await db.secret.count({ where: { id: { in: [row.accessSecretId!, row.refreshSecretId!] } } })).toBe(0);
    expect(await codeOf(creds().forCall({ serverId, userId: bob.id, agentSessionId: "s2" }))).toBe("upstream_auth_required:not_connected");
    await t.gateway.users.update(userContext(alice), carol.id, { disabled: true });
    expect(await db.upstreamConnection.count({ where: { userId: carol.id } })).toBe(0);
    expect(await db.auditEvent.count({ where: { action: "upstream.disconnected" } })).toBe(2);
  });

  it("client_credentials: the server's own pre-registered client; token_exchange: the agent's token traded for the upstream's audience", async () => {
    const cc = (await db.upstreamServer.create({ data: { slug: "m2m", name: "M2M", transport: "HTTP", url: idp.upstreamUrl } })).id;
    await auth().updateServerAuth(userContext(alice), cc, { mode: "client_credentials", clientId: "svc", clientSecret: "svc-secret" });
    const settings = await auth().serverAuth("m2m");
    expect(settings).toMatchObject({ mode: "client_credentials", clientId: "svc", registration: "pre_registered" });
    expect(JSON.stringify(settings)).not.toContain("svc-secret");
    const c = bearer(await creds().forCall({ serverId: cc, userId: null, agentSessionId: "s4" }));
    expect(await whoAmI(idp.upstreamUrl, c.accessToken)).toMatchObject({ sub: "svc", client_id: "svc" });
    expect(c.ref).toEqual({ mode: "client_credentials", connectionId: null, userId: null });

    const tx = (await db.upstreamServer.create({ data: { slug: "exchange", name: "Exchange", transport: "HTTP", url: idp.upstreamUrl } })).id;
    await auth().updateServerAuth(userContext(alice), tx, { mode: "token_exchange", clientId: "portcullis-tx", clientSecret: "tx-secret" });
    const subjectToken = await idp.clientToken("agent-app", "agent-secret", `${PUBLIC_URL}/mcp`);
    seenTokens.add(subjectToken);
    const before = (await idp.stats()).token_exchange;
    const x = bearer(await creds().forCall({ serverId: tx, userId: bob.id, agentSessionId: "s5", subjectToken }));
    expect(await whoAmI(idp.upstreamUrl, x.accessToken)).toMatchObject({ sub: "agent-app", email: "agent@corp.test", client_id: "portcullis-tx" });
    expect((await idp.stats()).token_exchange).toBe(before + 1);
    expect(await codeOf(creds().forCall({ serverId: tx, userId: bob.id, agentSessionId: "s5" }))).toBe("upstream_auth_required:not_connected");
    expect(await codeOf(creds().forCall({ serverId: tx, userId: bob.id, agentSessionId: "s5", subjectToken: "not-a-token" }))).toBe("upstream_auth_failed");
    expect(await codeOf(auth().updateServerAuth(userContext(alice), "tracker", { mode: "none" }).then(async () => auth().updateServerAuth(userContext(alice), (await db.upstreamServer.create({ data: { slug: "local", name: "Local", transport: "STDIO", command: "true" } })).id, { mode: "per_user" })))).toBe("auth_mode_requires_http");
  });

  it("no token value reaches any table but the secret store, nor the logs", async () => {
    // The refresh tokens too (opaque: no built-in pattern knows them), read from the secret store as the gateway does.
    const store = createSecretStore({ db, dataDir: "", key: Buffer.from(SECRETS_KEY, "base64") });
    const stored: string[] = [];
    for (const c of await db.upstreamConnection.findMany()) {
      for (const id of [c.accessSecretId, c.refreshSecretId]) if (id) stored.push((await store.unseal(id))!);
    }
    expect(stored.filter((v) => v.split(".").length !== 3).length).toBeGreaterThan(0);
    // Log every live token the way a careless line would: the redactor knows each of them.
    for (const token of stored) {
      seenTokens.add(token);
      t.gateway.logger.info({ header: `Bearer ${token}` }, `upstream answered for ${token}`);
    }
    const tables = await db.$queryRaw<{ table_name: string }[]>`SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' AND table_name NOT IN ('secrets', '_prisma_migrations')`;
    expect(tables.length).toBeGreaterThan(10);
    for (const token of seenTokens) {
      for (const { table_name } of tables) {
        const hits = await db.$queryRawUnsafe<{ n: bigint }[]>(`SELECT count(*) AS n FROM "${table_name}" t WHERE t::text LIKE '%' || $1 || '%'`, token);
        expect({ table_name, n: Number(hits[0]!.n) }).toEqual({ table_name, n: 0 });
      }
      expect(logs.filter((l) => l.includes(token))).toEqual([]);
    }
    expect(logs.join("").length).toBeGreaterThan(0);
  });
});
