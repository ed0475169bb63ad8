// The per-process cache of transparent upstream sessions: bounded (least recently used idle session closed
// first, busy ones never), rebuilt with the session's saved state, dropped when the agent ends the session.
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ServerRoute } from "../../registry/create-registry";
import { createChangeBus, type ChangeBus } from "../../events/change-bus";
import { createLogger } from "../../logger";
import { insertUser } from "../../test/contexts";
import { REPO_ROOT, waitUntil } from "../../test/gateway-harness";
import { createTestDb, testDatabaseUrl, truncateAll } from "../../test/test-db";
import { createSessionUpstreams, type SessionUpstreams } from "./session-upstreams";

const route: ServerRoute = {
  serverId: "srv",
  slug: "everything",
  timeoutMs: 10_000,
  role: "active",
  versionId: "v1",
  version: "1.0.0",
  launch: {
    transport: "STDIO",
    command: process.execPath,
    args: [path.join(REPO_ROOT, "node_modules/@modelcontextprotocol/server-everything/dist/index.js"), "stdio"],
    env: {},
  },
  defs: { serverInfo: { name: "everything", version: "1" }, capabilities: {}, tools: [], resources: [], resourceTemplates: [], prompts: [] },
};

describe("transparent session upstreams", () => {
  const db = createTestDb();
  let bus: ChangeBus;
  let sessions: SessionUpstreams;
  let userId = "";

  async function sessionRow(id: string, state: object = {}) {
    await db.mcpSession.create({ data: { id, userId, endpoint: "mcp/s/everything", protocolVersion: "2025-11-25", state } });
  }

  beforeAll(async () => {
    await truncateAll(db);
    userId = (await insertUser(db)).id;
    bus = createChangeBus(testDatabaseUrl(), createLogger("silent"));
    sessions = createSessionUpstreams({ db, bus, logger: createLogger("silent") }, { maxLive: 2 });
  });

  afterAll(async () => {
    await sessions?.closeAll();
    await bus?.close();
    await db.$disconnect();
  });

  it("keeps at most maxLive sessions, closing the least recently used idle one, never a busy one", async () => {
    for (const id of ["s1", "s2", "s3"]) await sessionRow(id);
    const s1 = await sessions.get("s1", route, {}, false);
    const s2 = await sessions.get("s2", route, {}, false);
    s2.inFlight.push({ requestId: 1, transport: undefined as never, sent: Promise.resolve() });
    s1.lastUsedAt = Date.now() + 1000; // s1 newer than s2, but s2 is busy: s1 must go
    await sessions.get("s3", route, {}, false);
    expect(sessions.size()).toBe(2);
    expect(s1.client.transport).toBeUndefined(); // closed
    expect(s2.client.transport).toBeDefined();
    // Both others busy: a new session is refused with a clear error instead of growing without bound.
    const s3 = await sessions.get("s3", route, {}, false);
    s3.inFlight.push({ requestId: 2, transport: undefined as never, sent: Promise.resolve() });
    await sessionRow("s4");
    await expect(sessions.get("s4", route, {}, false)).rejects.toThrow(/already serves 2 busy transparent sessions/);
    s2.inFlight.length = 0;
    s3.inFlight.length = 0;
  });

  it("reconnects a session that has saved state (log level, subscriptions): the replay does not break it", async () => {
    await sessionRow("s5", { logLevel: "error", subscriptions: ["demo://resource/static/document/architecture.md"] });
    const s5 = await sessions.get("s5", route, {}, false);
    // The upstream accepted the replayed calls on its new connection: the session works and is live.
    expect(await s5.client.ping()).toEqual({});
    expect(sessions.size()).toBeLessThanOrEqual(2);
  });

  it("closes the upstream session when the agent's session ends anywhere (session-closed on the bus)", async () => {
    await sessionRow("s6");
    const s6 = await sessions.get("s6", route, {}, false);
    await bus.publish({ kind: "session-closed", mcpSessionId: "s6" });
    await waitUntil("the upstream session to close", () => (s6.client.transport === undefined ? true : undefined), 5_000);
  });
});
