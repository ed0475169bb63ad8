// subscriptions/listen (2026-07-28) over real HTTP on every endpoint: the acknowledgement first, list_changed
// only for lists that changed for this agent session and that it opted in to, resource updates through the
// upstream's own subscription on /mcp/s, reads' authorization for the URIs it listens to, the per-session limit
// of streams, and a revoked session's streams ending with the reason.
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startConformanceServerHttp, type RunningServer } from "../../../scripts/test-support/conformance";
import { insertUser, userContext } from "../../test/contexts";
import { agentToken, busHears, grantEverything, startTestGateway, userWithToken, type TestGateway } from "../../test/gateway-harness";
import { createTestDb, truncateAll } from "../../test/test-db";
import { MAX_LISTEN_STREAMS_PER_SESSION } from "./listen-streams";
import { sseMessages } from "../../http/sse-messages";

const VERSION = "2026-07-28";
const SUB = "io.modelcontextprotocol/subscriptionId";
type Frame = { id?: unknown; method?: string; params?: Record<string, unknown> & { _meta?: Record<string, unknown> }; result?: Record<string, unknown>; error?: { code: number; message: string; data?: Record<string, unknown> } };

describe("subscriptions/listen", () => {
  const db = createTestDb();
  let tg: TestGateway;
  let upstream: RunningServer;
  let admin: ReturnType<typeof userContext>;
  let token = "";
  let nextId = 1;
  const aborts: AbortController[] = [];

  /** Opens a listen stream; `next()` reads its frames one by one as they arrive. */
  async function listen(path: string, notifications: Record<string, unknown>, bearer = token) {
    const id = nextId++;
    const abort = new AbortController();
    aborts.push(abort);
    const res = await fetch(new URL(path, tg.http.url), {
      method: "POST",
      signal: abort.signal,
      headers: { authorization: `Bearer ${bearer}`, accept: "application/json, text/event-stream", "content-type": "application/json", "mcp-protocol-version": VERSION, "mcp-method": "subscriptions/listen" },
      body: JSON.stringify({ jsonrpc: "2.0", id, method: "subscriptions/listen", params: { notifications, _meta: { "io.modelcontextprotocol/protocolVersion": VERSION, "io.modelcontextprotocol/clientCapabilities": {} } } }),
    });
    const sse = (res.headers.get("content-type") ?? "").includes("text/event-stream");
    const frames = sse && res.body ? sseMessages(res.body) : undefined;
    const json = sse ? undefined : ((await res.json()) as Frame);
    return {
      id,
      status: res.status,
      json,
      next: async () => ((await frames!.next()).value ?? null) as Frame | null,
      close: () => abort.abort(),
    };
  }

  /** A user holding everything (heard by the policy cache) and an agent session token of theirs. */
  async function newAgent(opts: { tools?: string[]; paths?: string[] } = {}) {
    const user = await insertUser(db);
    await grantEverything(db, user.id);
    await busHears(db, tg.gateway, [{ kind: "policy" }]);
    return { user, token: await agentToken(db, user, opts) };
  }

  beforeAll(async () => {
    await truncateAll(db);
    tg = await startTestGateway();
    upstream = await startConformanceServerHttp();
    admin = userContext(await insertUser(db, { role: "ADMIN" }));
    const { server } = await tg.gateway.registry.register(admin, { slug: "conf", name: "Conformance fixture", transport: "http", url: upstream.url });
    if (server.status !== "HEALTHY") throw new Error(server.lastError ?? "the fixture did not start");
    await tg.gateway.virtualServers.create(admin, { name: "desk", members: [{ kind: "tool", server: "conf", name: "test_simple_text" }] });
    token = (await userWithToken(db)).token;
  }, 60_000);

  afterAll(async () => {
    for (const a of aborts) a.abort();
    await tg?.close();
    await upstream?.close();
    await db.$disconnect();
  });

  it.each(["/mcp", "/mcp/code", "/mcp/s/conf", "/mcp/v/desk"])("POST %s – acknowledges first, tagged with the request's id, and server/discover advertises list changes", async (path) => {
    const s = await listen(path, { toolsListChanged: true, promptsListChanged: true, bogus: true });
    expect(s.status).toBe(200);
    expect(await s.next()).toEqual({ jsonrpc: "2.0", method: "notifications/subscriptions/acknowledged", params: { notifications: { toolsListChanged: true, promptsListChanged: true }, _meta: { [SUB]: s.id } } });
    s.close();
    const res = await fetch(new URL(path, tg.http.url), {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, accept: "application/json, text/event-stream", "content-type": "application/json", "mcp-protocol-version": VERSION, "mcp-method": "server/discover" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "server/discover", params: { _meta: { "io.modelcontextprotocol/protocolVersion": VERSION, "io.modelcontextprotocol/clientCapabilities": {} } } }),
    });
    const discover = (await res.json()) as Frame;
    expect(discover.result).toMatchObject({ capabilities: { tools: { listChanged: true } }, ttlMs: 60_000, cacheScope: "private" });
  });

  it("tells a tools listener that a tool it sees was disabled, tells a prompts-only listener nothing, and ends both when the session is revoked", async () => {
    const { user, token: mine } = await newAgent();
    const tools = await listen("/mcp", { toolsListChanged: true }, mine);
    const prompts = await listen("/mcp", { promptsListChanged: true }, mine);
    expect((await tools.next())?.method).toBe("notifications/subscriptions/acknowledged");
    expect((await prompts.next())?.method).toBe("notifications/subscriptions/acknowledged");
    await tg.gateway.registry.updateTool(admin, "conf__test_image_content", { enabled: false });
    expect(await tools.next()).toEqual({ jsonrpc: "2.0", method: "notifications/tools/list_changed", params: { _meta: { [SUB]: tools.id } } });
    const session = await db.agentSession.findFirstOrThrow({ where: { userId: user.id } });
    await tg.gateway.sessions.revoke(admin, session.id);
    // Both read at once until they end: only what each opted in to (a list may be told twice while the server's
    // connection follows the change), then the reason it ended, then nothing.
    const untilEnd = async (s: typeof tools) => {
      const frames: Frame[] = [];
      for (let f = await s.next(); f; f = await s.next()) frames.push(f);
      return frames;
    };
    const [toolFrames, promptFrames] = await Promise.all([untilEnd(tools), untilEnd(prompts)]);
    for (const [s, frames, wanted] of [[tools, toolFrames, "notifications/tools/list_changed"], [prompts, promptFrames, "notifications/prompts/list_changed"]] as const) {
      expect(frames.at(-1)).toMatchObject({ id: s.id, error: { code: -32001, message: expect.stringContaining("revoked") as unknown } });
      expect(frames.slice(0, -1).every((f) => f.method === wanted && f.params?._meta?.[SUB] === s.id)).toBe(true);
    }
    expect(promptFrames).toHaveLength(1);
    await tg.gateway.registry.updateTool(admin, "conf__test_image_content", { enabled: true });
  });

  it("a stream ends with the reason when its agent session expires", async () => {
    const { user, token: short } = await newAgent();
    // Tokens live a minute at least: this one is made to end in a moment (and its cached row dropped).
    const session = await db.agentSession.update({ where: { id: (await db.agentSession.findFirstOrThrow({ where: { userId: user.id } })).id }, data: { expiresAt: new Date(Date.now() + 1500) } });
    await busHears(db, tg.gateway, [{ kind: "agent_session", sessionId: session.id }]);
    const s = await listen("/mcp", { toolsListChanged: true }, short);
    expect((await s.next())?.method).toBe("notifications/subscriptions/acknowledged");
    expect(await s.next()).toMatchObject({ id: s.id, error: { code: -32001, message: expect.stringContaining("expired") as unknown } });
    expect(await s.next()).toBeNull();
  });

  it("a v2 SDK client (2.4.0) listens: the honoured filter, list_changed to its handler, and its close", async () => {
    const { token: mine } = await newAgent();
    const client = new ClientV2({ name: "v2-listener", version: "2.4.0" }, { versionNegotiation: { mode: { pin: VERSION } } });
    await client.connect(new TransportV2(new URL("/mcp", tg.http.url), { requestInit: { headers: { authorization: `Bearer ${mine}` } } }));
    try {
      const changed = new Promise<void>((resolve) => client.setNotificationHandler("notifications/tools/list_changed", () => resolve()));
      const sub = await client.listen({ toolsListChanged: true, resourceSubscriptions: ["test://static-text"] });
      // /mcp has no resource updates to give: only the list changes are honoured.
      expect(sub.honoredFilter).toEqual({ toolsListChanged: true });
      await tg.gateway.registry.updateTool(admin, "conf__test_audio_content", { enabled: false });
      await changed;
      await sub.close();
      expect(await sub.closed).toBe("local");
    } finally {
      await client.close();
      await tg.gateway.registry.updateTool(admin, "conf__test_audio_content", { enabled: true });
    }
  });

  it("a change that does not touch what the session sees is not told: a tool outside its whitelist", async () => {
    const { token: narrow } = await newAgent({ tools: ["conf__test_simple_text"] });
    const s = await listen("/mcp", { toolsListChanged: true }, narrow);
    expect((await s.next())?.method).toBe("notifications/subscriptions/acknowledged");
    await tg.gateway.registry.updateTool(admin, "conf__test_image_content", { enabled: false });
    await tg.gateway.registry.updateTool(admin, "conf__test_simple_text", { enabled: false });
    // The first change was outside the whitelist: the first notification is the second's.
    expect((await s.next())?.method).toBe("notifications/tools/list_changed");
    expect(await db.tool.findFirst({ where: { name: "test_simple_text" }, select: { enabled: true } })).toEqual({ enabled: false });
    await tg.gateway.registry.updateTool(admin, "conf__test_image_content", { enabled: true });
    await tg.gateway.registry.updateTool(admin, "conf__test_simple_text", { enabled: true });
    s.close();
  });

  it("POST /mcp/s/<slug> – resource updates of the upstream, for the URIs listened to", async () => {
    const s = await listen("/mcp/s/conf", { resourceSubscriptions: ["test://watched-resource"] });
    expect(await s.next()).toMatchObject({ method: "notifications/subscriptions/acknowledged", params: { notifications: { resourceSubscriptions: ["test://watched-resource"] } } });
    // The fixture announces an update shortly after each subscription.
    expect(await s.next()).toEqual({ jsonrpc: "2.0", method: "notifications/resources/updated", params: { uri: "test://watched-resource", _meta: { [SUB]: s.id } } });
    expect(await db.auditEvent.count({ where: { action: { contains: "subscribe" } } })).toBeGreaterThan(0);
    s.close();
  });

  it("a resource the session may not read is refused with the reason, and nothing is subscribed", async () => {
    const { token: narrow } = await newAgent({ paths: ["/nowhere"] });
    for (const path of ["/mcp/s/conf", "/mcp"]) {
      const s = await listen(path, { resourceSubscriptions: ["test://static-text", "test://watched-resource"] }, narrow);
      expect(s.status).toBe(403);
      expect(s.json).toMatchObject({ id: s.id, error: { code: -32000, data: { code: "path_not_allowed", uris: ["test://static-text", "test://watched-resource"] } } });
    }
  });

  it("refuses a malformed filter (-32602), and a listen stream past the agent session's limit (429 too_many_listen_streams)", async () => {
    const bad = await listen("/mcp", { toolsListChanged: "yes" });
    expect(bad.status).toBe(400);
    expect(bad.json?.error).toMatchObject({ code: -32602, message: expect.stringContaining("toolsListChanged") as unknown });
    const { token: mine } = await newAgent();
    const open = [];
    for (let i = 0; i < MAX_LISTEN_STREAMS_PER_SESSION; i++) {
      const s = await listen("/mcp", { toolsListChanged: true }, mine);
      expect(s.status).toBe(200);
      open.push(s);
    }
    const over = await listen("/mcp", { toolsListChanged: true }, mine);
    expect(over.status).toBe(429);
    expect(over.json).toMatchObject({ id: over.id, error: { data: { code: "too_many_listen_streams" } } });
    // Another agent session has its own streams.
    expect((await listen("/mcp", { toolsListChanged: true })).status).toBe(200);
    for (const s of open) s.close();
  });
});
