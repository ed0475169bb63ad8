// /mcp/s/<slug> starts one upstream process per MCP session. These tests drive the limits per agent session,
// per user, per server and per gateway process over real HTTP in front of the misbehaving fixture (stdio; its
// event log names each process it starts), and count the processes that really run.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { insertUser, userContext } from "../../test/contexts";
import {
  agentToken,
  errorMeta,
  fixtureEvents,
  grantEverything,
  misbehavingServer,
  processRunning,
  removeTempDirs,
  startTestGateway,
  tempDir,
  userWithToken,
  waitUntil,
  type TestGateway,
} from "../../test/gateway-harness";
import { parsePromText, sampleValue } from "../../test/prom-text";
import { createTestDb, truncateAll } from "../../test/test-db";

const LIMITS = {
  TRANSPARENT_MAX_PER_SESSION: "2",
  TRANSPARENT_MAX_PER_USER: "3",
  TRANSPARENT_MAX_PER_SERVER: "4",
  TRANSPARENT_MAX_PER_PROCESS: "5",
  // No reaping while a test runs: only the limits and evictions act.
  TRANSPARENT_IDLE_SECONDS: "600",
  TRANSPARENT_PRESSURE_IDLE_SECONDS: "600",
};

type Initialized = { status: number; retryAfter: string | null; text: string; sessionId: string | null };

describe("/mcp/s/<slug> upstream process limits", () => {
  const db = createTestDb();
  let gw: TestGateway;
  const dirs: Record<string, string> = {};
  const busy: { client: Client; abort: AbortController; call?: { slug: string; tag: string } }[] = [];
  let tag = 0;

  beforeAll(async () => {
    await truncateAll(db);
    const registrar = await startTestGateway();
    const admin = userContext(await insertUser(db, { role: "ADMIN" }));
    for (const slug of ["cap-a", "cap-b"]) {
      dirs[slug] = await tempDir(slug);
      const { server } = await registrar.gateway.registry.register(admin, misbehavingServer(dirs[slug], { slug }));
      if (server.status !== "HEALTHY") throw new Error(`${slug} is ${server.status}: ${server.lastError ?? ""}`);
    }
    await registrar.close();
  });

  afterEach(async () => {
    const ended = busy.splice(0);
    for (const b of ended) b.abort.abort();
    // Cancelled upstream, the fixture processes exit as soon as their stdin ends (else they wait for SIGTERM).
    for (const { call } of ended)
      if (call) await waitUntil(`the call ${call.tag} to be cancelled`, () => fixtureEvents(dirs[call.slug]!).some((e) => e.event === "cancelled" && (e.args as { tag?: string }).tag === call.tag));
    for (const b of ended) await b.client.close();
    await gw?.close();
  });

  afterAll(async () => {
    await db.$disconnect();
    await removeTempDirs();
  });

  const url = (slug: string) => new URL(`/mcp/s/${slug}`, gw.http.url);
  const starts = (slug: string) => fixtureEvents(dirs[slug]!).filter((e) => e.event === "start").map((e) => e.pid);
  /** The fixture processes of `slug` started since `before` (a count of starts) that still run. */
  const running = (slug: string, before: number) => starts(slug).slice(before).filter(processRunning);

  async function initialize(slug: string, token: string): Promise<Initialized> {
    const res = await fetch(url(slug), {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "capacity-test", version: "1" } } }),
    });
    // An event stream ends after the answer: by then the session's upstream has started.
    return { status: res.status, retryAfter: res.headers.get("retry-after"), text: await res.text(), sessionId: res.headers.get("mcp-session-id") };
  }

  /** An agent whose session has a call in flight upstream (the fixture logged its start): a busy process. */
  async function busySession(slug: string, token: string): Promise<Client> {
    const client = new Client({ name: "capacity-test", version: "1" });
    await client.connect(new StreamableHTTPClientTransport(url(slug), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
    const abort = new AbortController();
    const t = `busy-${String(++tag)}`;
    busy.push({ client, abort, call: { slug, tag: t } });
    client.callTool({ name: "slow_read", arguments: { ms: 600_000, tag: t } }, undefined, { signal: abort.signal, timeout: 600_000 }).catch(() => undefined);
    await waitUntil(`the call ${t} to reach the upstream`, () => fixtureEvents(dirs[slug]!).some((e) => e.event === "slow.start" && (e.args as { tag?: string }).tag === t));
    return client;
  }

  function expectRefused(r: Initialized, limit: string) {
    expect(r.status).toBe(503);
    expect(Number(r.retryAfter)).toBeGreaterThanOrEqual(1);
    const body = JSON.parse(r.text) as { id: unknown; error: { code: number; message: string; data: { code: string; limit: string; retryAfterSeconds: number } } };
    expect(body.id).toBe(1);
    expect(body.error.data).toMatchObject({ code: "upstream_capacity", limit, retryAfterSeconds: Number(r.retryAfter) });
    expect(body.error.message).toMatch(/upstream processes/);
  }

  async function user(tokens = 1) {
    const u = await insertUser(db);
    await grantEverything(db, u.id);
    return Promise.all(Array.from({ length: tokens }, () => agentToken(db, u)));
  }

  /** A gateway with these limits, its shared pool connections (one process per server) started first. */
  async function startGateway(env: Record<string, string> = LIMITS) {
    gw = await startTestGateway({ env });
    await gw.gateway.registry.startAll();
  }

  async function metrics() {
    return parsePromText(await gw.gateway.metrics().scrape());
  }

  it("POST /mcp/s/<slug> initialize – a third session of one agent session: 503 upstream_capacity (session) with Retry-After while its two are busy", async () => {
    await startGateway();
    const before = starts("cap-a").length;
    const [token] = await user();
    await busySession("cap-a", token!);
    await busySession("cap-a", token!);
    expectRefused(await initialize("cap-a", token!), "session");
    expect(running("cap-a", before)).toHaveLength(2);
    const m = await metrics();
    expect(sampleValue(m, "portcullis_transparent_capacity_refusals_total", { limit: "session" })).toBe(1);
    expect(sampleValue(m, "portcullis_transparent_upstream_processes", { server: "cap-a" })).toBe(2);
  });

  it("POST /mcp/s/<slug> initialize – an initialize the transport refuses (406) gives its reserved slot back at once", async () => {
    await startGateway();
    const [token] = await user();
    for (let i = 0; i < 3; i++) {
      const res = await fetch(url("cap-a"), {
        method: "POST",
        headers: { authorization: `Bearer ${token!}`, "content-type": "application/json", accept: "application/json" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "capacity-test", version: "1" } } }),
      });
      expect(res.status).toBe(406);
    }
    expect(sampleValue(await metrics(), "portcullis_transparent_upstream_processes", { server: "cap-a" }) ?? 0).toBe(0);
    // Held until the connect timeout, the refused ones filled the agent session's limit of 2: this was a 503.
    const ok = await initialize("cap-a", token!);
    expect(ok.status).toBe(200);
  });

  it("POST /mcp/s/<slug> initialize – over the session limit, the agent's longest-idle process is closed for the new one", async () => {
    await startGateway();
    const [token] = await user();
    const before = starts("cap-a").length;
    const idle = await initialize("cap-a", token!);
    expect(idle.status).toBe(200);
    const idlePid = starts("cap-a").slice(before);
    expect(idlePid).toHaveLength(1);
    await busySession("cap-a", token!);
    const third = await initialize("cap-a", token!);
    expect(third.status).toBe(200);
    // The evicted process had exited before the new one was started: never more than the limit.
    expect(processRunning(idlePid[0]!)).toBe(false);
    expect(running("cap-a", before)).toHaveLength(2);
    expect(sampleValue(await metrics(), "portcullis_transparent_upstream_reaped_total", { reason: "evicted" })).toBe(1);
  });

  it("POST /mcp/s/<slug> initialize – a user's sessions over several agent sessions: 503 upstream_capacity (user)", async () => {
    await startGateway();
    const [t1, t2] = await user(2);
    await busySession("cap-a", t1!);
    await busySession("cap-a", t1!);
    await busySession("cap-b", t2!);
    expectRefused(await initialize("cap-a", t2!), "user");
    expect(sampleValue(await metrics(), "portcullis_transparent_capacity_refusals_total", { limit: "user" })).toBe(1);
  });

  it("POST /mcp/s/<slug> initialize – a server's limit and the process limit: 503 upstream_capacity (server, then process); other users' sessions are not evicted", async () => {
    await startGateway();
    const beforeA = starts("cap-a").length;
    const [u1] = await user();
    const [u2] = await user();
    const [u3] = await user();
    const [u4] = await user();
    await busySession("cap-a", u1!);
    await busySession("cap-a", u1!);
    // Idle, but another user's: a newcomer may not take it.
    expect((await initialize("cap-a", u2!)).status).toBe(200);
    expect((await initialize("cap-a", u2!)).status).toBe(200);
    expectRefused(await initialize("cap-a", u3!), "server");
    expect((await initialize("cap-b", u3!)).status).toBe(200);
    expectRefused(await initialize("cap-b", u4!), "process");
    expect(running("cap-a", beforeA)).toHaveLength(4);
    const m = await metrics();
    expect(sampleValue(m, "portcullis_transparent_capacity_refusals_total", { limit: "server" })).toBe(1);
    expect(sampleValue(m, "portcullis_transparent_capacity_refusals_total", { limit: "process" })).toBe(1);
    expect(sampleValue(m, "portcullis_transparent_upstream_processes", { server: "cap-a" })).toBe(4);
    expect(sampleValue(m, "portcullis_transparent_upstream_processes", { server: "cap-b" })).toBe(1);
    expect(sampleValue(m, "portcullis_transparent_upstream_limit", { limit: "server" })).toBe(4);
  });

  it("POST /mcp/s/<slug> initialize – 20 at once from 20 users: exactly the server limit is admitted, and no more processes ever start", async () => {
    await startGateway({ ...LIMITS, TRANSPARENT_MAX_PER_PROCESS: "32" });
    const tokens = await Promise.all(Array.from({ length: 20 }, async () => (await userWithToken(db)).token));
    const before = starts("cap-a").length;
    const answers = await Promise.all(tokens.map((t) => initialize("cap-a", t)));
    expect(answers.filter((r) => r.status === 200)).toHaveLength(4);
    for (const r of answers.filter((x) => x.status !== 200)) expectRefused(r, "server");
    // Every process that was started is one of the admitted sessions', and all of them still run.
    expect(starts("cap-a").slice(before)).toHaveLength(4);
    expect(running("cap-a", before)).toHaveLength(4);
    expect(sampleValue(await metrics(), "portcullis_transparent_capacity_refusals_total", { limit: "server" })).toBe(16);
  });

  it("POST /mcp/s/<slug> initialize – 20 at once from one agent session: each answered (a session or upstream_capacity), never more than its limit running", async () => {
    await startGateway();
    const [token] = await user();
    const before = starts("cap-a").length;
    const answers = await Promise.all(Array.from({ length: 20 }, () => initialize("cap-a", token!)));
    const admitted = answers.filter((r) => r.status === 200);
    expect(admitted.length).toBeGreaterThanOrEqual(2);
    // An admitted session got its upstream's answer (evictions take only sessions already answered and idle).
    for (const r of admitted) expect(r.text).toContain('"serverInfo"');
    for (const r of answers.filter((x) => x.status !== 200)) expectRefused(r, "session");
    expect(running("cap-a", before).length).toBeLessThanOrEqual(2);
  });

  it("tools/call mid-session – the session's upstream was evicted and no slot is free: a tool error upstream_capacity, audited as denied", async () => {
    await startGateway();
    const [token] = await user();
    const victim = new Client({ name: "capacity-test", version: "1" });
    await victim.connect(new StreamableHTTPClientTransport(url("cap-a"), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
    busy.push({ client: victim, abort: new AbortController() });
    await busySession("cap-a", token!);
    // The third session evicts the idle first one; the second and third are then busy.
    await busySession("cap-a", token!);
    const result = await victim.callTool({ name: "counted", arguments: { name: "x" } });
    expect(result.isError).toBe(true);
    expect(errorMeta(result)).toMatchObject({ code: "upstream_capacity", limit: "session" });
    // Committed before the answer left.
    const audit = await db.auditEvent.findFirst({ where: { errorCode: "upstream_capacity" } });
    expect(audit).toMatchObject({ status: "denied", decision: "deny", toolName: "counted" });
  });
});
