// The embedded authorization server end to end on real HTTP and PostgreSQL: the MCP SDK client's OAuth flow
// against /mcp (discovery, dynamic registration, authorization with PKCE, consent as the signed-in user, token),
// a tool call inside the consent and a 403 insufficient_scope outside it; refresh rotation and reuse; revocation
// from the Agents page; and the attacks, each a test.
import { createHash, randomBytes } from "node:crypto";
import { auth } from "@modelcontextprotocol/sdk/client/auth.js";
import { SignJWT, importJWK } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { User } from "../../db/client";
import { isGatewayError } from "../../errors";
import { parseSecretsKey, secretKey } from "../../secrets/secret-crypto";
import { insertUser, userContext } from "../../test/contexts";
import { connectAgent, everythingServer, firstText, grantEverything, removeTempDirs, startTestGateway, type Agent, type TestGateway } from "../../test/gateway-harness";
import { serveAuthorizationProbe } from "../../test/authorization-probe";
import { orderBehindSlowListener } from "../../test/slow-bus-listener";
import { createTestDb, testDatabaseUrl, truncateAll } from "../../test/test-db";
import { MemoryOAuthClient, REDIRECT_URI, TestBrowser } from "./oauth-test-client";
import { sweepExpiredRecords } from "./prisma-oidc-adapter";
import { privateJwks, publicJwks } from "./signing-keys";

const SECRETS_KEY = randomBytes(32).toString("base64");
const ECHO = "everything__echo";
const SUM = "everything__get-sum";
const THIRD = "everything__get-tiny-image";

describe("embedded authorization server: OAuth 2.1 for MCP clients, consent = an agent session", () => {
  const db = createTestDb();
  let gw: TestGateway;
  let base = "";
  let alice: User;
  let bob: User;
  const agents: Agent[] = [];

  const oauth = () => gw.gateway.oauthServer!;
  const same = () => ({ origin: base, fetchSite: "same-origin" });

  /** The browser's way to the console's consent page; returns the interaction's uid. */
  async function toConsentPage(browser: TestBrowser, authorizationUrl: string): Promise<string> {
    const { url } = await browser.follow(authorizationUrl, base);
    const m = /\/authorize\/([^/?]+)$/.exec(new URL(url).pathname);
    if (!m) throw new Error(`the flow did not reach the consent page: ${url}`);
    return decodeURIComponent(m[1]!);
  }

  /** After the decision: the browser goes on to the client's redirect URI; returns it. */
  async function toRedirect(browser: TestBrowser, redirectTo: string): Promise<URL> {
    const { url } = await browser.follow(new URL(redirectTo, base).href, base);
    return new URL(url);
  }

  /** The SDK's whole flow for `user` consenting to `tools` (for the endpoint at `path`). */
  async function authorizeWithSdk(user: User, tools: string[], path = "/mcp") {
    const client = new MemoryOAuthClient();
    expect(await auth(client, { serverUrl: `${base}${path}` })).toBe("REDIRECT");
    const browser = new TestBrowser();
    const uid = await toConsentPage(browser, client.authorizationUrl!.href);
    const request = await oauth().consent.load(uid, user);
    const decided = await oauth().consent.decide(userContext(user), user, uid, { decision: "allow", tools, csrfToken: request.csrfToken }, same());
    const back = await toRedirect(browser, decided.redirectTo);
    expect(back.origin + back.pathname).toBe(REDIRECT_URI);
    expect(back.searchParams.get("iss")).toBe(base); // RFC 9207
    expect(await auth(client, { serverUrl: `${base}${path}`, authorizationCode: back.searchParams.get("code")! })).toBe("AUTHORIZED");
    return { client, tokens: client.saved!, sessionId: decided.sessionId!, request };
  }

  /** A client registered by hand and an authorization request of our own making (PKCE as given). */
  async function register(redirectUris = [REDIRECT_URI]): Promise<string> {
    const res = await fetch(`${base}/oauth/register`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ client_name: "Hand", redirect_uris: redirectUris, token_endpoint_auth_method: "none", grant_types: ["authorization_code", "refresh_token"], response_types: ["code"] }) });
    expect(res.status).toBe(201);
    return ((await res.json()) as { client_id: string }).client_id;
  }
  const verifier = () => randomBytes(32).toString("base64url");
  const s256 = (v: string) => createHash("sha256").update(v).digest("base64url");
  function authorizeUrl(clientId: string, extra: Record<string, string>): string {
    return `${base}/oauth/authorize?${new URLSearchParams({ client_id: clientId, response_type: "code", redirect_uri: REDIRECT_URI, scope: "mcp", state: "st", resource: `${base}/mcp`, ...extra }).toString()}`;
  }
  async function codeFor(clientId: string, codeVerifier: string, resource = `${base}/mcp`): Promise<string> {
    const browser = new TestBrowser();
    const uid = await toConsentPage(browser, authorizeUrl(clientId, { code_challenge: s256(codeVerifier), code_challenge_method: "S256", resource }));
    const { csrfToken } = await oauth().consent.load(uid, alice);
    const { redirectTo } = await oauth().consent.decide(userContext(alice), alice, uid, { decision: "allow", tools: [ECHO], csrfToken }, same());
    return (await toRedirect(browser, redirectTo)).searchParams.get("code")!;
  }
  const token = (params: Record<string, string>) =>
    fetch(`${base}/oauth/token`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(params) }).then(async (r) => ({ status: r.status, body: (await r.json()) as Record<string, string> }));

  const post = (path: string, body: unknown, bearer: string, sessionId?: string) =>
    fetch(new URL(path, base), {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", authorization: `Bearer ${bearer}`, ...(sessionId && { "mcp-session-id": sessionId, "mcp-protocol-version": "2025-06-18" }) },
      body: JSON.stringify(body),
    });
  const INIT = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } } };

  beforeAll(async () => {
    await truncateAll(db);
    alice = await insertUser(db, { email: "alice@corp.test" });
    await grantEverything(db, alice.id);
    bob = await insertUser(db, { email: "bob@corp.test" });
    await db.grant.createMany({ data: [{ kind: "TOOL", pattern: ECHO, userId: bob.id }, { kind: "PATH", pattern: "*", userId: bob.id }] });
    gw = await startTestGateway({ publicUrlIsServed: true, env: { SECRETS_KEY, OAUTH_SERVER_REGISTRATIONS_PER_HOUR: "1000" } });
    base = gw.http.url;
    const admin = userContext(await insertUser(db, { role: "ADMIN" }));
    const { server } = await gw.gateway.registry.register(admin, everythingServer());
    if (server.status !== "HEALTHY") throw new Error(`everything is ${server.status}: ${server.lastError ?? ""}`);
  });

  afterAll(async () => {
    for (const ag of agents) await ag.close();
    await gw?.close();
    await db.$disconnect();
    await removeTempDirs();
  });

  it("GET /.well-known/oauth-authorization-server – RFC 8414 metadata: S256 only, code only, iss parameter, registration, revocation", async () => {
    const res = await fetch(`${base}/.well-known/oauth-authorization-server`);
    expect(res.status).toBe(200);
    const meta = (await res.json()) as Record<string, unknown>;
    expect(meta).toMatchObject({
      issuer: base,
      authorization_endpoint: `${base}/oauth/authorize`,
      token_endpoint: `${base}/oauth/token`,
      registration_endpoint: `${base}/oauth/register`,
      revocation_endpoint: `${base}/oauth/revoke`,
      jwks_uri: `${base}/oauth/jwks`,
      code_challenge_methods_supported: ["S256"],
      response_types_supported: ["code"],
      authorization_response_iss_parameter_supported: true,
      token_endpoint_auth_methods_supported: ["none"],
    });
    const prm = (await (await fetch(`${base}/.well-known/oauth-protected-resource/mcp`)).json()) as Record<string, unknown>;
    expect(prm).toMatchObject({ resource: `${base}/mcp`, authorization_servers: [base], scopes_supported: ["mcp"] });
    const jwks = (await (await fetch(`${base}/oauth/jwks`)).json()) as { keys: { kid: string; d?: string }[] };
    expect(jwks.keys.map((k) => k.kid)).toEqual((await publicJwks(db, 600)).keys.map((k) => k.kid));
    expect(jwks.keys.every((k) => k.d === undefined)).toBe(true);
  });

  it("the MCP SDK's OAuth flow: discovery → registration → consent to two tools → a call works; a third tool → 403 insufficient_scope", async () => {
    const { tokens, sessionId, request } = await authorizeWithSdk(alice, [ECHO, SUM]);
    expect(request).toMatchObject({ clientName: "Test Agent", redirectHost: "127.0.0.1:53682", verified: false, resource: `${base}/mcp` });
    const session = await db.agentSession.findUniqueOrThrow({ where: { id: sessionId } });
    expect(session).toMatchObject({ userId: alice.id, agentId: `oauth:${request.clientId}`, tools: [ECHO, SUM], revokedAt: null });
    expect(tokens.refresh_token).toBeTruthy();
    const ag = await connectAgent(new URL("/mcp", base), tokens.access_token);
    agents.push(ag);
    const names = (await ag.client.listTools()).tools.map((t) => t.name).filter((n) => n.startsWith("everything__"));
    expect(names.sort()).toEqual([SUM, ECHO].sort());
    expect(firstText(await ag.client.callTool({ name: ECHO, arguments: { message: "through oauth" } }))).toContain("through oauth");
    const res = await post("/mcp", { jsonrpc: "2.0", id: 9, method: "tools/call", params: { name: THIRD, arguments: {} } }, tokens.access_token, ag.sessionId);
    expect(res.status).toBe(403);
    expect(res.headers.get("www-authenticate")).toBe(`Bearer realm="portcullis", error="insufficient_scope", scope="mcp", resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"`);
    const audit = await db.auditEvent.findFirst({ where: { action: "oauth.authorized", targetId: request.clientId } });
    expect(audit?.details).toMatchObject({ agentSessionId: sessionId, tools: [ECHO, SUM] });
  });

  it("a client authorizing for a virtual server's endpoint gets a session scoped to it: served there with the virtual names, refused on /mcp", async () => {
    const admin = userContext(await insertUser(db, { role: "ADMIN" }));
    await gw.gateway.virtualServers.create(admin, { name: "echoes", members: [{ kind: "tool", server: "everything", name: "echo", exposedName: "say" }] });
    const { tokens, sessionId, request } = await authorizeWithSdk(alice, [ECHO, SUM], "/mcp/v/echoes");
    expect(request.resource).toBe(`${base}/mcp/v/echoes`);
    const session = await db.agentSession.findUniqueOrThrow({ where: { id: sessionId } });
    expect(session.virtualServerId).toBe((await db.virtualServer.findUniqueOrThrow({ where: { name: "echoes" } })).id);
    const ag = await connectAgent(new URL("/mcp/v/echoes", base), tokens.access_token);
    agents.push(ag);
    expect((await ag.client.listTools()).tools.map((t) => t.name)).toContain("say");
    expect(firstText(await ag.client.callTool({ name: "say", arguments: { message: "virtually" } }))).toContain("virtually");
    expect((await post("/mcp", INIT, tokens.access_token)).status).toBe(401); // its tokens are for /mcp/v/echoes only
  });

  it("step-up: after 403 insufficient_scope the client sends the user back to consent; with the tool added the call goes through", async () => {
    const first = await authorizeWithSdk(alice, [ECHO]);
    const call = (bearer: string) => post("/mcp", { jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: SUM, arguments: { a: 2, b: 3 } } }, bearer);
    const refused = await call(first.tokens.access_token);
    expect(refused.status).toBe(403);
    // The client starts a new authorization (the SDK does on insufficient_scope); the user adds the tool.
    first.client.saved = undefined;
    expect(await auth(first.client, { serverUrl: `${base}/mcp`, scope: "mcp" })).toBe("REDIRECT");
    const browser = new TestBrowser();
    const uid = await toConsentPage(browser, first.client.authorizationUrl!.href);
    const { csrfToken } = await oauth().consent.load(uid, alice);
    const { redirectTo } = await oauth().consent.decide(userContext(alice), alice, uid, { decision: "allow", tools: [ECHO, SUM], csrfToken }, same());
    const back = await toRedirect(browser, redirectTo);
    expect(await auth(first.client, { serverUrl: `${base}/mcp`, authorizationCode: back.searchParams.get("code")! })).toBe("AUTHORIZED");
    const ag = await connectAgent(new URL("/mcp", base), first.client.saved!.access_token);
    agents.push(ag);
    expect(firstText(await ag.client.callTool({ name: SUM, arguments: { a: 2, b: 3 } }))).toContain("5");
  });

  it("refresh rotates the refresh token (audited oauth.token_refreshed); reusing the old one revokes the family", async () => {
    const { tokens, request, sessionId } = await authorizeWithSdk(alice, [ECHO]);
    const clientId = request.clientId;
    const first = await token({ grant_type: "refresh_token", refresh_token: tokens.refresh_token!, client_id: clientId });
    expect(first.status).toBe(200);
    expect(first.body.refresh_token).not.toBe(tokens.refresh_token);
    expect(await db.auditEvent.count({ where: { action: "oauth.token_refreshed", targetId: sessionId } })).toBe(1);
    const reuse = await token({ grant_type: "refresh_token", refresh_token: tokens.refresh_token!, client_id: clientId });
    expect(reuse).toMatchObject({ status: 400, body: { error: "invalid_grant" } });
    const next = await token({ grant_type: "refresh_token", refresh_token: first.body.refresh_token!, client_id: clientId });
    expect(next).toMatchObject({ status: 400, body: { error: "invalid_grant" } });
  });

  it("POST /oauth/revoke (RFC 7009) – a revoked refresh token no longer refreshes", async () => {
    const { tokens, request } = await authorizeWithSdk(alice, [ECHO]);
    const res = await fetch(`${base}/oauth/revoke`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams({ token: tokens.refresh_token!, token_type_hint: "refresh_token", client_id: request.clientId }) });
    expect(res.status).toBe(200);
    expect(await token({ grant_type: "refresh_token", refresh_token: tokens.refresh_token!, client_id: request.clientId })).toMatchObject({ status: 400, body: { error: "invalid_grant" } });
  });

  it("revoking the agent session on the Agents page kills its access token and its grant (refresh fails); audited oauth.revoked", async () => {
    const { tokens, request, sessionId } = await authorizeWithSdk(alice, [ECHO]);
    expect((await post("/mcp", INIT, tokens.access_token)).status).toBe(200);
    await gw.gateway.sessions.revoke(userContext(alice), sessionId);
    const after = await post("/mcp", INIT, tokens.access_token);
    expect(after.status).toBe(401);
    expect(after.headers.get("www-authenticate")).toContain('error="invalid_token"');
    const refreshed = await token({ grant_type: "refresh_token", refresh_token: tokens.refresh_token!, client_id: request.clientId });
    expect(refreshed).toMatchObject({ status: 400, body: { error: "invalid_grant" } });
    expect(await db.auditEvent.count({ where: { action: "oauth.revoked", targetId: sessionId } })).toBe(1);
  });

  it("an expired agent session and a disabled user end the token (401 invalid_token) and the refresh", async () => {
    const expiring = await authorizeWithSdk(alice, [ECHO]);
    await db.agentSession.update({ where: { id: expiring.sessionId }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect((await post("/mcp", INIT, expiring.tokens.access_token)).status).toBe(401);
    expect((await token({ grant_type: "refresh_token", refresh_token: expiring.tokens.refresh_token!, client_id: expiring.request.clientId })).body.error).toBe("invalid_grant");

    const carol = await insertUser(db, { email: "carol@corp.test" });
    await grantEverything(db, carol.id);
    const carols = await authorizeWithSdk(carol, [ECHO]);
    expect((await post("/mcp", INIT, carols.tokens.access_token)).status).toBe(200);
    const admin = userContext(await insertUser(db, { role: "ADMIN" }));
    await gw.gateway.users.update(admin, carol.id, { disabled: true });
    expect((await post("/mcp", INIT, carols.tokens.access_token)).status).toBe(401);
    expect((await token({ grant_type: "refresh_token", refresh_token: carols.tokens.refresh_token!, client_id: carols.request.clientId })).body.error).toBe("invalid_grant");
  });

  it("deny → access_denied at the client's redirect URI with iss; audited oauth.denied; no session", async () => {
    const client = new MemoryOAuthClient("Denied Agent");
    await auth(client, { serverUrl: `${base}/mcp` });
    const browser = new TestBrowser();
    const uid = await toConsentPage(browser, client.authorizationUrl!.href);
    const { csrfToken, clientId } = await oauth().consent.load(uid, alice);
    const { redirectTo } = await oauth().consent.decide(userContext(alice), alice, uid, { decision: "deny", csrfToken }, same());
    const back = await toRedirect(browser, redirectTo);
    expect(back.searchParams.get("error")).toBe("access_denied");
    expect(back.searchParams.get("iss")).toBe(base);
    expect(await db.auditEvent.count({ where: { action: "oauth.denied", targetId: clientId } })).toBe(1);
    expect(await db.agentSession.count({ where: { agentId: `oauth:${clientId}` } })).toBe(0);
  });

  it("an unused registration expires (then is unknown and swept); one a user consented to is kept", async () => {
    const { request } = await authorizeWithSdk(alice, [ECHO]);
    expect((await db.oAuthRecord.findUniqueOrThrow({ where: { model_id: { model: "Client", id: request.clientId } } })).expiresAt).toBeNull();
    const unused = await register();
    const row = await db.oAuthRecord.findUniqueOrThrow({ where: { model_id: { model: "Client", id: unused } } });
    expect(row.expiresAt!.getTime() - row.createdAt.getTime()).toBeGreaterThan(7 * 86_400_000 - 60_000);
    await db.oAuthRecord.update({ where: { model_id: { model: "Client", id: unused } }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const res = await new TestBrowser().get(authorizeUrl(unused, { code_challenge: s256(verifier()), code_challenge_method: "S256" }));
    expect(res.status).toBe(400);
    expect(await res.text()).toContain("invalid_client");
    expect(await sweepExpiredRecords(db)).toBeGreaterThanOrEqual(1);
    expect(await db.oAuthRecord.count({ where: { model: "Client", id: unused } })).toBe(0);
  });

  it("POST /oauth/register – rate limited per client address (429 rate_limited)", async () => {
    const strict = await startTestGateway({ publicUrlIsServed: true, env: { SECRETS_KEY, OAUTH_SERVER_REGISTRATIONS_PER_HOUR: "2" } });
    try {
      const reg = () => fetch(`${strict.http.url}/oauth/register`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ redirect_uris: [REDIRECT_URI], token_endpoint_auth_method: "none" }) });
      expect([(await reg()).status, (await reg()).status]).toEqual([201, 201]);
      const third = await reg();
      expect(third.status).toBe(429);
      expect(((await third.json()) as { error: string }).error).toBe("rate_limited");
    } finally {
      await strict.close();
    }
  });

  it("POST /oauth/register – public clients only; a confidential registration is refused", async () => {
    const res = await fetch(`${base}/oauth/register`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ redirect_uris: [REDIRECT_URI], token_endpoint_auth_method: "client_secret_basic" }) });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toBe("invalid_client_metadata");
  });

  it("the client's access token never reaches an upstream server", async () => {
    const probe = await serveAuthorizationProbe();
    const { seen } = probe;
    try {
      const admin = userContext(await insertUser(db, { role: "ADMIN" }));
      const { server } = await gw.gateway.registry.register(admin, { slug: "probe", name: "Probe", transport: "http", url: `${probe.url}/mcp` });
      expect(server.status, server.lastError ?? "").toBe("HEALTHY");
      const { tokens } = await authorizeWithSdk(alice, ["probe__whoami"]);
      const ag = await connectAgent(new URL("/mcp", base), tokens.access_token);
      agents.push(ag);
      expect(firstText(await ag.client.callTool({ name: "probe__whoami", arguments: {} }))).toBe("ok");
      expect(seen.length).toBeGreaterThan(0);
      expect(seen.filter((h) => h !== null)).toEqual([]);
    } finally {
      await probe.close();
    }
  });

  it("a refused lifetime leaves nothing behind: no session, no decision, and the user can decide again", async () => {
    const client = new MemoryOAuthClient();
    await auth(client, { serverUrl: `${base}/mcp` });
    const uid = await toConsentPage(new TestBrowser(), client.authorizationUrl!.href);
    const { csrfToken, clientId } = await oauth().consent.load(uid, alice);
    const tooLong = await oauth().consent.decide(userContext(alice), alice, uid, { decision: "allow", tools: [ECHO], ttlSeconds: 10 * 365 * 86_400, csrfToken }, same()).catch((e: unknown) => e);
    expect(isGatewayError(tooLong) && tooLong.code).toBe("validation_failed");
    expect(await db.agentSession.count({ where: { agentId: `oauth:${clientId}` } })).toBe(0);
    expect(await db.oAuthRecord.count({ where: { model: "Consent", id: uid } })).toBe(0);
    const ok = await oauth().consent.decide(userContext(alice), alice, uid, { decision: "allow", tools: [ECHO], ttlSeconds: 600, csrfToken }, same());
    const session = await db.agentSession.findUniqueOrThrow({ where: { id: ok.sessionId! } });
    expect(session.expiresAt.getTime() - session.createdAt.getTime()).toBeGreaterThan(590_000);
    expect(session.expiresAt.getTime() - session.createdAt.getTime()).toBeLessThan(610_000);
  });

  it("a request is decided once: eight concurrent Allows make one agent session, the others are 409 conflict", async () => {
    const client = new MemoryOAuthClient();
    await auth(client, { serverUrl: `${base}/mcp` });
    const uid = await toConsentPage(new TestBrowser(), client.authorizationUrl!.href);
    const { csrfToken, clientId } = await oauth().consent.load(uid, alice);
    const outcomes = await Promise.allSettled(Array.from({ length: 8 }, () => oauth().consent.decide(userContext(alice), alice, uid, { decision: "allow", tools: [ECHO], csrfToken }, same())));
    expect(outcomes.filter((o) => o.status === "fulfilled")).toHaveLength(1);
    for (const o of outcomes.filter((x): x is PromiseRejectedResult => x.status === "rejected")) expect(isGatewayError(o.reason) && o.reason.code).toBe("conflict");
    expect(await db.agentSession.count({ where: { agentId: `oauth:${clientId}` } })).toBe(1);
    expect(await db.auditEvent.count({ where: { action: "oauth.authorized", targetId: clientId } })).toBe(1);
  });

  describe("attacks", () => {
    it("a redirect URI that is not registered is refused, never redirected to", async () => {
      const clientId = await register();
      for (const redirect of ["https://evil.example/cb", `${REDIRECT_URI}/../evil`, "http://127.0.0.1:53682/callback?x=1"]) {
        const res = await new TestBrowser().get(authorizeUrl(clientId, { redirect_uri: redirect, code_challenge: s256(verifier()), code_challenge_method: "S256" }));
        expect(res.status, redirect).toBe(400);
        expect(res.headers.get("location")).toBeNull();
      }
    });

    it("missing PKCE and plain PKCE are refused; a wrong verifier does not redeem the code", async () => {
      const clientId = await register();
      for (const pkce of [{} as Record<string, string>, { code_challenge: "a".repeat(43), code_challenge_method: "plain" }]) {
        const res = await new TestBrowser().get(authorizeUrl(clientId, pkce));
        const location = new URL(res.headers.get("location")!);
        expect(location.searchParams.get("error"), JSON.stringify(pkce)).toBe("invalid_request");
      }
      const code = await codeFor(clientId, verifier());
      const wrong = await token({ grant_type: "authorization_code", code, code_verifier: verifier(), client_id: clientId, redirect_uri: REDIRECT_URI });
      expect(wrong).toMatchObject({ status: 400, body: { error: "invalid_grant" } });
    });

    it("an authorization code is redeemed once; its replay fails and revokes what it issued", async () => {
      const clientId = await register();
      const v = verifier();
      const code = await codeFor(clientId, v);
      const params = { grant_type: "authorization_code", code, code_verifier: v, client_id: clientId, redirect_uri: REDIRECT_URI };
      const first = await token(params);
      expect(first.status).toBe(200);
      expect((await token(params)).body.error).toBe("invalid_grant");
      const refresh = await token({ grant_type: "refresh_token", refresh_token: first.body.refresh_token!, client_id: clientId });
      expect(refresh.body.error).toBe("invalid_grant");
    });

    it("a token for another resource (audience /mcp/code) is refused on /mcp; a resource outside the gateway gets no token", async () => {
      const clientId = await register();
      const v = verifier();
      const code = await codeFor(clientId, v, `${base}/mcp/code`);
      const t = await token({ grant_type: "authorization_code", code, code_verifier: v, client_id: clientId, redirect_uri: REDIRECT_URI });
      expect(t.status).toBe(200);
      const res = await post("/mcp", INIT, t.body.access_token!);
      expect(res.status).toBe(401);
      expect(((await res.json()) as { error: { message: string } }).error.message).toContain("another resource");
      const outside = await new TestBrowser().get(authorizeUrl(clientId, { resource: "https://elsewhere.example/mcp", code_challenge: s256(v), code_challenge_method: "S256" }));
      expect(new URL(outside.headers.get("location")!).searchParams.get("error")).toBe("invalid_target");
    });

    it("an expired access token is refused, as is one signed by a key that is not the server's", async () => {
      const { tokens, request, sessionId } = await authorizeWithSdk(alice, [ECHO]);
      const [header] = tokens.access_token.split(".");
      const { kid } = JSON.parse(Buffer.from(header!, "base64url").toString()) as { kid: string };
      const jwk = (await privateJwks(db, secretKey(parseSecretsKey(SECRETS_KEY)!), 600)).keys.find((k) => k.kid === kid)!;
      const claims = { client_id: request.clientId, scope: "mcp", pcs_sid: sessionId };
      const expired = await new SignJWT(claims).setProtectedHeader({ alg: "ES256", typ: "at+jwt", kid }).setIssuer(base).setAudience(`${base}/mcp`).setSubject(alice.id).setIssuedAt(Math.floor(Date.now() / 1000) - 7200).setExpirationTime(Math.floor(Date.now() / 1000) - 3600).sign(await importJWK(jwk, "ES256"));
      const res = await post("/mcp", INIT, expired);
      expect(res.status).toBe(401);
      expect(((await res.json()) as { error: { message: string } }).error.message).toContain("expired");
      const { privateKey } = await import("jose").then((j) => j.generateKeyPair("ES256"));
      const forged = await new SignJWT(claims).setProtectedHeader({ alg: "ES256", typ: "at+jwt", kid }).setIssuer(base).setAudience(`${base}/mcp`).setSubject(alice.id).setIssuedAt().setExpirationTime("5m").sign(privateKey);
      expect((await post("/mcp", INIT, forged)).status).toBe(401);
    });

    it("a consent forged cross-site is refused: another origin, a cross-site fetch, another user's token", async () => {
      const client = new MemoryOAuthClient();
      await auth(client, { serverUrl: `${base}/mcp` });
      const uid = await toConsentPage(new TestBrowser(), client.authorizationUrl!.href);
      const { csrfToken, clientId } = await oauth().consent.load(uid, alice);
      const bobs = (await oauth().consent.load(uid, bob)).csrfToken;
      const attempts: [Parameters<ReturnType<typeof oauth>["consent"]["decide"]>[4], string][] = [
        [{ origin: "https://evil.example", fetchSite: "cross-site" }, csrfToken],
        [{ origin: null, fetchSite: "cross-site" }, csrfToken],
        [same(), bobs],
        [same(), ""],
      ];
      for (const [src, tokenValue] of attempts) {
        const err = await oauth().consent.decide(userContext(alice), alice, uid, { decision: "allow", tools: [ECHO], csrfToken: tokenValue }, src).catch((e: unknown) => e);
        expect(isGatewayError(err) && err.code, JSON.stringify(src)).toBe("consent_forged");
      }
      expect(await db.agentSession.count({ where: { agentId: `oauth:${clientId}` } })).toBe(0);
      expect(await db.oAuthRecord.count({ where: { model: "Consent", id: uid } })).toBe(0);
    });

    it("a browser cannot finish another browser's interaction, nor one without its cookie", async () => {
      const [mine, theirs] = [new TestBrowser(), new TestBrowser()];
      const clientA = new MemoryOAuthClient();
      const clientB = new MemoryOAuthClient();
      await auth(clientA, { serverUrl: `${base}/mcp` });
      await auth(clientB, { serverUrl: `${base}/mcp` });
      await toConsentPage(mine, clientA.authorizationUrl!.href);
      const theirUid = await toConsentPage(theirs, clientB.authorizationUrl!.href);
      const { csrfToken } = await oauth().consent.load(theirUid, alice);
      await oauth().consent.decide(userContext(alice), alice, theirUid, { decision: "allow", tools: [ECHO], csrfToken }, same());
      // My cookie sent to their interaction's finish: refused, no code.
      const stolen = await mine.get(`${base}/oauth/interaction/${theirUid}/finish`);
      expect(stolen.status).toBe(400);
      expect((await new TestBrowser().get(`${base}/oauth/interaction/${theirUid}/finish`)).status).toBe(400);
      // Their own browser still finishes it.
      const back = await toRedirect(theirs, `/oauth/interaction/${theirUid}/finish`);
      expect(back.searchParams.get("code")).toBeTruthy();
    });

    it("a USER consenting to a tool they do not hold is refused (consent_tools_not_held) and nothing is created", async () => {
      const client = new MemoryOAuthClient();
      await auth(client, { serverUrl: `${base}/mcp` });
      const uid = await toConsentPage(new TestBrowser(), client.authorizationUrl!.href);
      const { csrfToken, clientId } = await oauth().consent.load(uid, bob);
      const err = await oauth().consent.decide(userContext(bob), bob, uid, { decision: "allow", tools: [ECHO, SUM], csrfToken }, same()).catch((e: unknown) => e);
      expect(isGatewayError(err) && err.code).toBe("consent_tools_not_held");
      expect(await db.agentSession.count({ where: { agentId: `oauth:${clientId}` } })).toBe(0);
      expect(await db.oAuthRecord.count({ where: { model: "Consent", id: uid } })).toBe(0);
    });
  });

  it("key rotation: new tokens are signed by the new key; a token of the old key keeps working until it expires", async () => {
    const before = await authorizeWithSdk(alice, [ECHO]);
    const admin = userContext(await insertUser(db, { role: "ADMIN" }));
    const { kid, retired } = await oauth().rotateKeys(admin);
    expect(retired).toHaveLength(1);
    const jwks = (await (await fetch(`${base}/oauth/jwks`)).json()) as { keys: { kid: string }[] };
    expect(jwks.keys.map((k) => k.kid)).toEqual([kid, retired[0]]);
    const after = await authorizeWithSdk(alice, [ECHO]);
    const kidOf = (t: string) => (JSON.parse(Buffer.from(t.split(".")[0]!, "base64url").toString()) as { kid: string }).kid;
    expect(kidOf(after.tokens.access_token)).toBe(kid);
    expect(kidOf(before.tokens.access_token)).toBe(retired[0]);
    expect((await post("/mcp", INIT, before.tokens.access_token)).status).toBe(200);
    expect((await post("/mcp", INIT, after.tokens.access_token)).status).toBe(200);
    expect(await db.auditEvent.count({ where: { action: "oauth.key_rotated" } })).toBe(1);
  });

  it("an admin blocks a client: its session, token and refresh die, it cannot authorize, the list shows it; unblocked it authorizes again", async () => {
    const admin = userContext(await insertUser(db, { role: "ADMIN" }));
    const clientId = await register();
    const v = verifier();
    const code = await codeFor(clientId, v);
    const tokens = await token({ grant_type: "authorization_code", code, code_verifier: v, redirect_uri: REDIRECT_URI, client_id: clientId });
    expect(tokens.status).toBe(200);
    expect((await post("/mcp", INIT, tokens.body.access_token!)).status).toBe(200);
    const listed = (await oauth().clients.list()).find((c) => c.clientId === clientId);
    expect(listed).toMatchObject({ kind: "registered", name: "Hand", redirectUris: [REDIRECT_URI], activeSessions: 1, blocked: null });

    await expect(oauth().clients.block(userContext(bob), clientId)).rejects.toMatchObject({ code: "forbidden", status: 403 });
    expect(await oauth().clients.block(admin, clientId, "leaked")).toEqual({ clientId, blocked: true, revokedSessions: 1 });
    const session = await db.agentSession.findFirstOrThrow({ where: { agentId: `oauth:${clientId}` } });
    expect(session.revokedAt).not.toBeNull();
    expect((await post("/mcp", INIT, tokens.body.access_token!)).status).toBe(401);
    const refreshed = await token({ grant_type: "refresh_token", refresh_token: tokens.body.refresh_token!, client_id: clientId });
    expect(refreshed.body.error).toBe("invalid_client");
    const again = await new TestBrowser().get(authorizeUrl(clientId, { code_challenge: s256(verifier()), code_challenge_method: "S256" }));
    expect(again.status).toBe(400);
    expect(await again.text()).toContain("blocked by an administrator");
    // Idempotent: a second block changes nothing and audits nothing new.
    expect(await oauth().clients.block(admin, clientId)).toEqual({ clientId, blocked: true, revokedSessions: 0 });
    expect(await db.auditEvent.count({ where: { action: "oauth.client_blocked", targetId: clientId } })).toBe(1);
    expect((await oauth().clients.list()).find((c) => c.clientId === clientId)).toMatchObject({ activeSessions: 0, blocked: { blockedBy: admin.actor.type === "user" ? admin.actor.userId : null, reason: "leaked" } });

    expect(await oauth().clients.unblock(admin, clientId)).toEqual({ clientId, blocked: false, revokedSessions: 0 });
    expect(await db.auditEvent.count({ where: { action: "oauth.client_unblocked", targetId: clientId } })).toBe(1);
    const v2 = verifier();
    const fresh = await token({ grant_type: "authorization_code", code: await codeFor(clientId, v2), code_verifier: v2, redirect_uri: REDIRECT_URI, client_id: clientId });
    expect(fresh.status).toBe(200);
    expect((await post("/mcp", INIT, fresh.body.access_token!)).status).toBe(200);
    expect((await oauth().clients.list()).find((c) => c.clientId === clientId)).toMatchObject({ activeSessions: 1, blocked: null });
  });

  it("a block answers only once every process listening on the change bus has confirmed it, so no cache serves the revoked session", async () => {
    const admin = userContext(await insertUser(db, { role: "ADMIN" }));
    const { tokens, request } = await authorizeWithSdk(alice, [ECHO]);
    expect((await post("/mcp", INIT, tokens.access_token)).status).toBe(200); // its session is now in the gateway's cache
    expect(await orderBehindSlowListener(testDatabaseUrl(), () => oauth().clients.block(admin, request.clientId))).toEqual(["confirmed", "answered"]);
    const after = await post("/mcp", INIT, tokens.access_token);
    expect(after.status).toBe(401);
    expect(after.headers.get("www-authenticate")).toContain('error="invalid_token"');
  });

  it("a consent decided after its client was blocked is refused (oauth_client_blocked) and makes no session", async () => {
    const clientId = await register();
    const browser = new TestBrowser();
    const uid = await toConsentPage(browser, authorizeUrl(clientId, { code_challenge: s256(verifier()), code_challenge_method: "S256" }));
    const { csrfToken } = await oauth().consent.load(uid, alice);
    await oauth().clients.block(userContext(await insertUser(db, { role: "ADMIN" })), clientId);
    const decided = oauth().consent.decide(userContext(alice), alice, uid, { decision: "allow", tools: [ECHO], csrfToken }, same());
    await expect(decided).rejects.toMatchObject({ code: "oauth_client_blocked", status: 403 });
    expect(await db.agentSession.count({ where: { agentId: `oauth:${clientId}` } })).toBe(0);
  });
});
