// The call path of upstreams that authenticate their callers (issue 22), end to end: agents over real MCP on the
// gateway's /mcp, a real Streamable HTTP upstream that verifies every bearer against a real OAuth provider's JWKS
// (fixtures/protected-upstream-server.ts) and logs whose token each call carried. The credentials are a small
// test implementation over real provider tokens (test/fixture-upstream-credentials.ts).
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { McpError, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { User } from "../db/client";
import { runMigrations } from "graphile-worker";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RequestContext } from "../context";
import { insertUser, userContext } from "../test/contexts";
import { fixtureCredentials, type FixtureCredentials } from "../test/fixture-upstream-credentials";
import { agentToken, connectAgent, errorMeta, grantEverything, removeTempDirs, startTestGateway, waitUntil, type Agent, type TestGateway } from "../test/gateway-harness";
import { claimsOf, jtiOf, startProtectedUpstream, type ProtectedUpstream } from "../test/protected-upstream";
import { createTestDb, testDatabaseUrl, truncateAll } from "../test/test-db";
import { createLogger } from "../logger";
import { createUpstreamPool, type PoolOptions } from "./upstream-pool";
import type { LogLine, WhoAmI } from "../test/fixtures/protected-upstream-server";

const CLIENTS = [
  { client_id: "ann", client_secret: "ann-secret", email: "ann@corp.test", scope: "read" },
  { client_id: "ann-write", client_secret: "ann-write-secret", email: "ann@corp.test", scope: "read write" },
  { client_id: "ben", client_secret: "ben-secret", email: "ben@corp.test", scope: "read" },
  { client_id: "admin-conn", client_secret: "admin-secret", email: "admin@corp.test", scope: "read" },
  { client_id: "service", client_secret: "service-secret", email: "service@corp.test", scope: "read" },
];

describe("upstream credentials on the call path: per-user sessions, shared service account, 401 retry, audit, tasks", () => {
  const db = createTestDb();
  let up: ProtectedUpstream;
  let creds: FixtureCredentials;
  let gw: TestGateway;
  let admin: RequestContext;
  const users: Record<"ann" | "ben" | "cat", User> = {} as never;
  const agents: Record<"ann" | "ben" | "cat", Agent> = {} as never;
  const extra: Client[] = [];
  const extraAgents: Agent[] = [];
  /** ann's per-credential upstream session behind /mcp. */
  let annSession = "";
  const connectUrl = (slug: string) => `https://portcullis.test/connections?server=${slug}`;

  const whoami = (who: keyof typeof agents, tool = "personal__whoami") => agents[who].client.callTool({ name: tool, arguments: {} }) as Promise<CallToolResult>;
  const calls = async () => (await up.log()).filter((l): l is Extract<LogLine, { event: "call" }> => l.event === "call");

  beforeAll(async () => {
    await truncateAll(db);
    up = await startProtectedUpstream(CLIENTS);
    creds = fixtureCredentials(db, up, { modes: { personal: "per_user", team: "shared", later: "per_user" }, sharedClient: "service", adminClient: "admin-conn", connectUrl });
    gw = await startTestGateway({ pool: { reconnectDelayMs: 50, maxReconnectDelayMs: 200 }, upstreamAuth: { credentials: creds, authModeOf: (server) => creds.modeOf(server) } });
    admin = userContext(await insertUser(db, { role: "ADMIN" }));
    for (const slug of ["personal", "team"]) {
      const { server } = await gw.gateway.registry.register(admin, { slug, name: slug, transport: "http", url: `${up.url}?as=${slug}` });
      if (server.status !== "HEALTHY") throw new Error(`${slug} is ${server.status}: ${server.lastError ?? ""}`);
    }
    for (const who of ["ann", "ben", "cat"] as const) {
      users[who] = await insertUser(db, { email: `${who}@corp.test` });
      await grantEverything(db, users[who].id);
      agents[who] = await connectAgent(gw.mcpUrl, await agentToken(db, users[who]));
    }
    creds.connect(users.ann.id, "ann");
    creds.connect(users.ben.id, "ben");
  });

  afterAll(async () => {
    for (const a of Object.values(agents)) await a.close();
    for (const c of extra) await c.close();
    for (const a of extraAgents) await a.close();
    await gw?.close();
    await up?.stop();
    await db.$disconnect();
    await removeTempDirs();
  });

  it("per_user: two users' agents each see only their own identity, each over an upstream session of its own", async () => {
    const [a, b] = await Promise.all([whoami("ann"), whoami("ben")]);
    expect(a.structuredContent as WhoAmI).toMatchObject({ sub: "ann", email: "ann@corp.test" });
    expect(b.structuredContent as WhoAmI).toMatchObject({ sub: "ben", email: "ben@corp.test" });
    const log = await calls();
    const ann = log.filter((l) => l.email === "ann@corp.test");
    const ben = log.filter((l) => l.email === "ben@corp.test");
    expect(ann).toHaveLength(1);
    expect(ben).toHaveLength(1);
    expect(ann[0]!.session).not.toBe(ben[0]!.session);
    annSession = ann[0]!.session!;
    // The discovery credential (the admin's) lists definitions and never answers a user's call.
    expect(log.some((l) => l.email === "admin@corp.test")).toBe(false);
  });

  it("per_user: a user without a connection gets upstream_auth_required with the connect URL, and nothing reaches the upstream", async () => {
    const before = (await up.log()).length;
    const result = await whoami("cat");
    expect(result.isError).toBe(true);
    expect(errorMeta(result)).toMatchObject({ code: "upstream_auth_required", connectUrl: connectUrl("personal"), reason: "not_connected" });
    expect((await up.log()).length).toBe(before);
  });

  it("per_user: a client that declared URL elicitation is sent to the connect URL (-32042)", async () => {
    const token = await agentToken(db, users.cat);
    const client = new Client({ name: "url-elicitation-agent", version: "1" }, { capabilities: { elicitation: { url: {} } } });
    extra.push(client);
    await client.connect(new StreamableHTTPClientTransport(gw.mcpUrl, { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
    const err = await client.callTool({ name: "personal__whoami", arguments: {} }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(McpError);
    expect((err as McpError).code).toBe(-32042);
    expect((err as McpError).message).toContain("upstream_auth_required");
    expect((err as McpError).data).toMatchObject({ elicitations: [{ mode: "url", url: connectUrl("personal") }] });
  });

  it("per_user: resource reads go with the reader's own credential; without a connection, a refusal naming the connect URL", async () => {
    const read = await agents.ben.client.readResource({ uri: "whoami://personal" });
    expect(JSON.parse((read.contents[0] as { text: string }).text)).toMatchObject({ sub: "ben" });
    const err = await agents.cat.client.readResource({ uri: "whoami://personal" }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(McpError);
    expect((err as McpError).data).toMatchObject({ code: "upstream_auth_required", connectUrl: connectUrl("personal"), reason: "not_connected" });
    const event = await db.auditEvent.findFirstOrThrow({ where: { userId: users.cat.id, action: "resource.read" } });
    expect(event.errorCode).toBe("upstream_auth_required");
  });

  it("shared: every user's call carries the service account's token", async () => {
    const [a, c] = await Promise.all([whoami("ann", "team__whoami"), whoami("cat", "team__whoami")]);
    expect(a.structuredContent).toMatchObject({ sub: "service" });
    expect(c.structuredContent).toMatchObject({ sub: "service" });
  });

  it("transparent /mcp/s/personal: each user's own session carries their own credential, renewed after a 401; without one, initialize is refused naming the connect URL", async () => {
    const url = new URL("/mcp/s/personal", gw.mcpUrl);
    const ann = await connectAgent(url, await agentToken(db, users.ann));
    extraAgents.push(ann);
    expect((await ann.client.callTool({ name: "whoami", arguments: {} })).structuredContent).toMatchObject({ sub: "ann" });
    // Its token expires at the upstream: the request is renewed through rejected() and sent once more.
    const used = (await calls()).at(-1)!;
    await up.expireJti(used.jti!);
    const rejectedBefore = creds.asked.rejected.length;
    expect((await ann.client.callTool({ name: "whoami", arguments: {} })).structuredContent).toMatchObject({ sub: "ann" });
    expect(creds.asked.rejected.length).toBe(rejectedBefore + 1);
    expect((await calls()).at(-1)).toMatchObject({ session: used.session });
    const event = await db.auditEvent.findFirstOrThrow({ where: { userId: users.ann.id, mcpSessionId: ann.sessionId, action: "tool.called" }, orderBy: { id: "desc" } });
    expect(event.details).toMatchObject({ credential: { mode: "per_user", connectionId: "conn-ann", userId: users.ann.id } });
    const err = await connectAgent(url, await agentToken(db, users.cat)).then(
      (a) => (extraAgents.push(a), undefined),
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(McpError);
    expect((err as McpError).data).toMatchObject({ code: "upstream_auth_required", connectUrl: connectUrl("personal") });
  });

  it("a token that expires at the upstream mid-session: one rejected(), the retry with the new token succeeds on the same session", async () => {
    await whoami("ann"); // the token ann's session carries now
    const last = (await calls()).filter((l) => l.session === annSession).at(-1)!;
    await up.expireJti(last.jti!);
    const rejectedBefore = creds.asked.rejected.length;
    const result = await whoami("ann");
    expect(result.structuredContent).toMatchObject({ sub: "ann" });
    expect(creds.asked.rejected.length).toBe(rejectedBefore + 1);
    expect(jtiOf(creds.asked.rejected.at(-1)!.token)).toBe(last.jti);
    const log = await up.log();
    expect(log.at(-2)).toMatchObject({ event: "refused", reason: "expired", jti: last.jti });
    const retried = log.at(-1) as Extract<LogLine, { event: "call" }>;
    expect(retried).toMatchObject({ event: "call", email: "ann@corp.test", session: last.session });
    expect(retried.jti).not.toBe(last.jti);
  });

  it("shared: a service token that expires at the upstream is renewed once and the call retried on the pooled connection", async () => {
    await whoami("cat", "team__whoami");
    const last = (await calls()).at(-1)!;
    expect(last.sub).toBe("service");
    await up.expireJti(last.jti!);
    const rejectedBefore = creds.asked.rejected.length;
    expect((await whoami("cat", "team__whoami")).structuredContent).toMatchObject({ sub: "service" });
    expect(creds.asked.rejected.length).toBe(rejectedBefore + 1);
    expect((await calls()).at(-1)).toMatchObject({ sub: "service", session: last.session });
  });

  it("shared: the pooled connection renews a token the upstream refuses on its own requests (health pings) and stays up", async () => {
    const team = await db.upstreamServer.findUniqueOrThrow({ where: { slug: "team" } });
    const pool = createUpstreamPool(createLogger("silent"), {}, { pingIntervalMs: 50 }, { credentials: creds, authModeOf: (srv) => creds.modeOf(srv) });
    try {
      await pool.start({ serverId: team.id, slug: "team", role: "active", launch: { transport: "HTTP", url: `${up.url}?as=team`, headers: {} }, maxConcurrency: 4 });
      const current = await creds.forDiscovery(team.id);
      if (current.kind !== "bearer") throw new Error("no service bearer");
      const rejectedBefore = creds.asked.rejected.length;
      await up.expireJti(jtiOf(current.accessToken));
      await waitUntil("a ping to renew the refused token", () => creds.asked.rejected.length > rejectedBefore);
      expect(creds.asked.rejected.at(-1)).toMatchObject({ token: current.accessToken, identity: { serverId: team.id, userId: null } });
      const r = await pool.callTool(team.id, "active", { name: "whoami", arguments: {} }, { signal: new AbortController().signal, timeoutMs: 10_000, retryable: false, identity: { serverId: team.id, userId: users.cat.id, agentSessionId: "pool-team" } });
      expect(r.structuredContent).toMatchObject({ sub: "service" });
      // The call went out with the renewed token: no token but the expired one was ever refused. (Pings sent with
      // the old token before the renewal landed may be refused after the first; a CI run under load saw three more.)
      expect(new Set(creds.asked.rejected.slice(rejectedBefore).map((r) => r.token))).toEqual(new Set([current.accessToken]));
      expect(pool.status(team.id)?.restarts).toBe(0); // and the connection was never dropped
    } finally {
      await pool.close();
    }
  });

  it("a discovery token the upstream refuses while the pool connects and lists tools is renewed through rejected() (its own connection, no agent session): the server comes up, no legacy SSE fallback", async () => {
    const team = await db.upstreamServer.findUniqueOrThrow({ where: { slug: "team" } });
    const pool = createUpstreamPool(createLogger("silent"), {}, {}, { credentials: creds, authModeOf: (srv) => creds.modeOf(srv) });
    try {
      const current = await creds.forDiscovery(team.id);
      if (current.kind !== "bearer") throw new Error("no service bearer");
      await up.expireJti(jtiOf(current.accessToken));
      const rejectedBefore = creds.asked.rejected.length;
      // The fixture serves Streamable HTTP only: a fallback to legacy SSE could not come up.
      const defs = await pool.start({ serverId: team.id, slug: "team", role: "active", launch: { transport: "HTTP", url: `${up.url}?as=team`, headers: {} }, maxConcurrency: 4 });
      expect(defs.tools.map((t) => t.name)).toContain("whoami");
      expect(creds.asked.rejected.slice(rejectedBefore)).toMatchObject([{ token: current.accessToken, identity: { serverId: team.id, userId: null, agentSessionId: "" } }]);
      expect(pool.status(team.id)?.status).toBe("HEALTHY");
    } finally {
      await pool.close();
    }
  });

  it("the audit event of each call records the credential it used, and no token value", async () => {
    const events = await db.auditEvent.findMany({ where: { action: "tool.called", serverSlug: { in: ["personal", "team"] } }, orderBy: { id: "asc" } });
    const byUser = (u: User, slug: string) => events.filter((e) => e.userId === u.id && e.serverSlug === slug && e.status === "ok");
    expect(byUser(users.ann, "personal").at(-1)?.details).toMatchObject({ credential: { mode: "per_user", connectionId: "conn-ann", userId: users.ann.id } });
    expect(byUser(users.ben, "personal").at(-1)?.details).toMatchObject({ credential: { mode: "per_user", connectionId: "conn-ben", userId: users.ben.id } });
    expect(byUser(users.cat, "team").at(-1)?.details).toMatchObject({ credential: { mode: "shared", connectionId: "conn-service", userId: null } });
    const refused = events.find((e) => e.userId === users.cat.id && e.serverSlug === "personal");
    expect(refused).toMatchObject({ status: "error", errorCode: "upstream_auth_required" });
    const stored = JSON.stringify(await db.auditEvent.findMany(), (_k, v: unknown) => (typeof v === "bigint" ? String(v) : v));
    for (const jti of (await calls()).map((l) => l.jti!)) expect(stored).not.toContain(jti);
    for (const { token } of creds.asked.rejected) expect(stored).not.toContain(token.split(".")[2]);
  });

  it("a server with no discovery credential yet waits (DOWN, retrying) with lastError upstream_auth_required, and comes up once one appears", async () => {
    creds.noDiscovery.add("later");
    const { server } = await gw.gateway.registry.register(admin, { slug: "later", name: "later", transport: "http", url: `${up.url}?as=later` });
    // DOWN, or already CONNECTING again in the reconnect loop; the reason stays until a connect succeeds.
    expect(["DOWN", "CONNECTING"]).toContain(server.status);
    expect(server.lastError).toMatch(/^upstream_auth_required: Connect your account to later first/);
    creds.noDiscovery.delete("later");
    await waitUntil("later to come up", async () => (await db.upstreamServer.findUniqueOrThrow({ where: { id: server.id } })).status === "HEALTHY");
    await waitUntil("later's tools", async () => (await db.tool.count({ where: { serverId: server.id } })) > 0);
  });

  /** A pool of its own on the personal server (options under test), and a whoami of `u` through it: the upstream session of the last call logged. */
  async function ownPool(options: Partial<PoolOptions>) {
    const personal = await db.upstreamServer.findUniqueOrThrow({ where: { slug: "personal" } });
    const pool = createUpstreamPool(createLogger("silent"), {}, options, { credentials: creds, authModeOf: (s) => creds.modeOf(s) });
    await pool.start({ serverId: personal.id, slug: "personal", role: "active", launch: { transport: "HTTP", url: `${up.url}?as=personal`, headers: {} }, maxConcurrency: 4 });
    const identity = (u: User) => ({ serverId: personal.id, userId: u.id, agentSessionId: `pool-${u.email}` });
    const call = async (u: User) => {
      const r = await pool.callTool(personal.id, "active", { name: "whoami", arguments: {} }, { signal: new AbortController().signal, timeoutMs: 10_000, retryable: false, identity: identity(u) });
      expect(r.structuredContent).toMatchObject({ email: u.email });
      return (await calls()).at(-1)!.session;
    };
    return { pool, call, sessions: () => pool.status(personal.id)?.credentialSessions };
  }

  it("per-credential sessions are bounded: past the bound the least recently used idle one is closed and reopened on its next call", async () => {
    const { pool, call } = await ownPool({ maxCredentialSessions: 1 });
    try {
      const first = await call(users.ann);
      expect(await call(users.ann)).toBe(first);
      await call(users.ben); // ann's idle session is the least recently used: closed
      expect(await call(users.ann)).not.toBe(first);
    } finally {
      await pool.close();
    }
  });

  it("20 concurrent first calls of two users open exactly one upstream session per credential, each answered with its own identity", async () => {
    const { pool, call } = await ownPool({});
    try {
      const before = (await calls()).length;
      await Promise.all(Array.from({ length: 20 }, (_, i) => call(i % 2 ? users.ann : users.ben))); // each answer checked
      const lines = (await calls()).slice(before);
      const sessionsOf = (u: User) => new Set(lines.filter((l) => l.email === u.email).map((l) => l.session));
      expect(lines).toHaveLength(20);
      expect(sessionsOf(users.ann).size).toBe(1);
      expect(sessionsOf(users.ben).size).toBe(1);
      expect([...sessionsOf(users.ann)][0]).not.toBe([...sessionsOf(users.ben)][0]);
    } finally {
      await pool.close();
    }
  });

  it("an idle per-credential session is closed, and the user's next call opens a new one", async () => {
    const { pool, call, sessions } = await ownPool({ credentialSessionIdleMs: 1 });
    try {
      const first = await call(users.ann);
      await waitUntil("the idle session to close", () => sessions() === 0);
      expect(await call(users.ann)).not.toBe(first);
    } finally {
      await pool.close();
    }
  });

  it("per_user: a 403 insufficient_scope asks insufficientScope() with the challenged scopes and retries once with the stepped-up credential", async () => {
    creds.connect(users.ann.id, "ann");
    creds.stepUps.set(users.ann.id, "ann-write");
    const before = creds.asked.insufficientScope.length;
    const result = await whoami("ann", "personal__whoami_write");
    expect(result.isError, JSON.stringify(result)).toBeFalsy();
    expect(creds.asked.insufficientScope.slice(before)).toMatchObject([{ identity: { userId: users.ann.id }, scopes: ["read", "write"] }]);
    expect(claimsOf(creds.asked.insufficientScope.at(-1)!.token).client_id).toBe("ann");
    const last = (await calls()).at(-1)!;
    expect(last).toMatchObject({ tool: "whoami_write", client_id: "ann-write", email: "ann@corp.test" });
    expect(last.scope?.split(" ")).toContain("write");
    creds.stepUps.delete(users.ann.id);
    creds.connect(users.ann.id, "ann");
  });

  it("per_user: a 403 insufficient_scope the user must consent to answers upstream_auth_required (needs_reconnect), and the call is not sent again", async () => {
    const before = creds.asked.insufficientScope.length;
    const refusedBefore = (await up.log()).filter((l) => l.event === "refused" && l.reason === "insufficient_scope").length;
    const result = await whoami("ben", "personal__whoami_write");
    expect(result.isError).toBe(true);
    expect(errorMeta(result)).toMatchObject({ code: "upstream_auth_required", connectUrl: connectUrl("personal"), reason: "needs_reconnect" });
    expect(creds.asked.insufficientScope.slice(before)).toMatchObject([{ identity: { userId: users.ben.id }, scopes: ["read", "write"] }]);
    expect((await up.log()).filter((l) => l.event === "refused" && l.reason === "insufficient_scope").length).toBe(refusedBefore + 1);
  });

  it("a refused refresh after a 401: upstream_auth_required with reason needs_reconnect, and no call reaches the upstream with the stale token", async () => {
    await whoami("ben");
    const last = (await calls()).at(-1)!;
    expect(last.email).toBe("ben@corp.test");
    await up.expireJti(last.jti!);
    creds.refreshRefused.add(users.ben.id);
    try {
      const before = (await calls()).length;
      const result = await whoami("ben");
      expect(errorMeta(result)).toMatchObject({ code: "upstream_auth_required", reason: "needs_reconnect", connectUrl: connectUrl("personal") });
      expect((await calls()).length).toBe(before);
      expect((await up.log()).at(-1)).toMatchObject({ event: "refused", reason: "expired", jti: last.jti });
    } finally {
      creds.refreshRefused.delete(users.ben.id);
    }
  });

  it("queued tasks run with their user's credential at run time; a user disconnected between submit and run gets upstream_auth_required", async () => {
    await gw.gateway.registry.updateTool(admin, "personal__whoami", { async: true });
    // The queue exists, no worker runs yet: both tasks wait PENDING while ben's connection goes.
    await runMigrations({ connectionString: testDatabaseUrl() });
    const [a, b] = await Promise.all([whoami("ann"), whoami("ben")]);
    const annTask = (a.structuredContent as { task_id: string; status: string }).task_id;
    const benTask = (b.structuredContent as { task_id: string; status: string }).task_id;
    expect((b.structuredContent as { status: string }).status).toBe("PENDING");
    creds.connect(users.ben.id, undefined);
    const before = (await calls()).length;
    await gw.gateway.startTasks();
    const done = (id: string) => waitUntil(`task ${id} to finish`, async () => {
      const t = await db.task.findUniqueOrThrow({ where: { id } });
      return t.status === "SUCCEEDED" || t.status === "FAILED" ? t : undefined;
    });
    const [annDone, benDone] = await Promise.all([done(annTask), done(benTask)]);
    expect(annDone.status).toBe("SUCCEEDED");
    expect(JSON.stringify(annDone.result)).toContain("ann@corp.test");
    expect(benDone.status).toBe("FAILED");
    expect(benDone.errorCode).toBe("upstream_auth_required");
    const ran = (await calls()).slice(before);
    expect(ran.map((l) => l.email)).toEqual(["ann@corp.test"]);
    const ended = await db.auditEvent.findFirstOrThrow({ where: { taskId: annTask, action: "task.succeeded" } });
    expect(ended.details).toMatchObject({ credential: { mode: "per_user", connectionId: "conn-ann", userId: users.ann.id } });
    // The task ran with its owner and agent session as the identity, without the agent's subject token.
    const asked = creds.asked.forCall.filter((i) => i.userId === users.ann.id).at(-1)!;
    expect(asked.agentSessionId).toBeTruthy();
    expect(asked.subjectToken).toBeUndefined();
  });
});
