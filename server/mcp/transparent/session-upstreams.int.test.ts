// The per-process cache of transparent upstream sessions: bounded (per agent session, user, server, process;
// a user's longest-idle session closed for their new one, busy ones never), idle ones reaped sooner under
// pressure (driven by an injected clock), rebuilt with the session's saved state, dropped when the agent ends
// the session.
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ServerRoute } from "../../registry/create-registry";
import { createChangeBus, type ChangeBus } from "../../events/change-bus";
import { createLogger } from "../../logger";
import { insertUser } from "../../test/contexts";
import { REPO_ROOT, waitUntil } from "../../test/gateway-harness";
import { createTestDb, testDatabaseUrl, truncateAll } from "../../test/test-db";
import { createSessionStderr } from "../../upstream/session-stderr";
import { STATELESS_SESSION_PREFIX } from "../modern/stateless-view";
import { createSessionUpstreams, type SessionOwner, type SessionUpstreams } from "./session-upstreams";
import type { CapacityLimits } from "./upstream-capacity";

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
  rateLimitPerMinute: null,
};

describe("transparent session upstreams", () => {
  const db = createTestDb();
  let bus: ChangeBus;
  let sessions: SessionUpstreams;
  let userId = "";
  let owner: SessionOwner;
  const limits: CapacityLimits = { perSession: 10, perUser: 2, perServer: 10, perProcess: 10, idleMs: 600_000, pressureIdleMs: 10_000, pressureFraction: 0.5 };
  let clock = 1_000_000;

  async function sessionRow(id: string, state: object = {}) {
    await db.mcpSession.create({ data: { id, userId, endpoint: "mcp/s/everything", protocolVersion: "2025-11-25", state } });
  }

  beforeAll(async () => {
    await truncateAll(db);
    userId = (await insertUser(db)).id;
    owner = { sessionKey: "agent-session", userId };
    bus = createChangeBus(testDatabaseUrl(), createLogger("silent"));
    sessions = createSessionUpstreams({ db, bus, logger: createLogger("silent") }, { limits, now: () => clock });
  });

  afterAll(async () => {
    await sessions?.closeAll();
    await bus?.close();
    await db.$disconnect();
  });

  it("keeps at most perUser sessions of a user, closing their longest-idle one, never a busy one", async () => {
    for (const id of ["s1", "s2", "s3"]) await sessionRow(id);
    const s1 = await sessions.get("s1", route, {}, false, owner);
    const s2 = await sessions.get("s2", route, {}, false, owner);
    s2.inFlight.push({ requestId: 1, transport: undefined as never, sent: Promise.resolve() });
    s1.lastUsedAt = clock + 1000; // s1 newer than s2, but s2 is busy: s1 must go
    await sessions.get("s3", route, {}, false, owner);
    expect(sessions.size()).toBe(2);
    expect(s1.client.transport).toBeUndefined(); // closed
    expect(s2.client.transport).toBeDefined();
    // Both others busy: a new session is refused with a clear error instead of growing without bound.
    const s3 = await sessions.get("s3", route, {}, false, owner);
    s3.inFlight.push({ requestId: 2, transport: undefined as never, sent: Promise.resolve() });
    await sessionRow("s4");
    await expect(sessions.get("s4", route, {}, false, owner)).rejects.toMatchObject({ code: "upstream_capacity", details: { limit: "user", max: 2 }, retryAfterSeconds: 10 });
    expect(sessions.stats().refusals.user).toBe(1);
    s2.inFlight.length = 0;
    s3.inFlight.length = 0;
    clock += limits.idleMs + 1;
    await sessions.reap();
    expect(sessions.size()).toBe(0);
  });

  it("reaps idle sessions after idleMs, sooner under pressure: oldest first, until the pressure is relieved", async () => {
    for (const id of ["p1", "p2", "p3", "p4", "p5", "p6", "p7"]) await sessionRow(id);
    // Sessions of different users: 3 of the process limit 10 is under the pressure fraction 0.5.
    const open = (id: string) => sessions.get(id, route, {}, false, { sessionKey: id, userId: `user-${id}` });
    const reapedBefore = sessions.stats().reaped;
    const p1 = await open("p1");
    clock += 1_000;
    const p2 = await open("p2");
    clock += 1_000;
    const p3 = await open("p3");
    clock += 200_000; // idle 202 s, 201 s, 200 s: far from the 600 s idle timeout
    await sessions.reap();
    expect(sessions.size()).toBe(3);
    // Four more: 7 of 10 (0.7, 40 % into the pressure range), so the idle timeout is 600 - 0.4 × 590 = 364 s.
    const later = [await open("p4"), await open("p5"), await open("p6"), await open("p7")];
    clock += 163_000; // p1 idle 365 s, p2 364 s, p3 363 s, p4-p7 163 s
    await sessions.reap();
    // p1 went first; at 6 of 10 the timeout is 600 - 0.2 × 590 = 482 s and the others stay.
    expect(p1.client.transport).toBeUndefined();
    for (const s of [p2, p3, ...later]) expect(s.client.transport).toBeDefined();
    expect(sessions.stats().reaped.pressure - reapedBefore.pressure).toBe(1);
    expect(sessions.stats().perServer).toEqual({ everything: 6 });
    clock += limits.idleMs + 1; // past the idle timeout whatever the pressure
    await sessions.reap();
    for (const s of [p2, p3, ...later]) expect(s.client.transport).toBeUndefined();
    expect(sessions.size()).toBe(0);
    expect(sessions.stats().reaped.idle - reapedBefore.idle).toBe(6);
  });

  it("reconnects a session that has saved state (log level, subscriptions): the replay does not break it", async () => {
    await sessionRow("s5", { logLevel: "error", subscriptions: ["demo://resource/static/document/architecture.md"] });
    const s5 = await sessions.get("s5", route, {}, false, owner);
    // The upstream accepted the replayed calls on its new connection: the session works and is live.
    expect(await s5.client.ping()).toEqual({});
    expect(sessions.size()).toBeLessThanOrEqual(2);
  });

  it("closes the upstream session when the agent's session ends anywhere (session-closed on the bus)", async () => {
    await sessionRow("s6");
    const s6 = await sessions.get("s6", route, {}, false, owner);
    await bus.publish({ kind: "session-closed", mcpSessionId: "s6" });
    await waitUntil("the upstream session to close", () => (s6.client.transport === undefined ? true : undefined), 5_000);
  });

  it("a session ended while its upstream is still connecting is closed once connected, and its slot freed then", async () => {
    await sessionRow("s7");
    const held = sessions.stats().perServer;
    const connecting = sessions.get("s7", route, {}, false, owner);
    await bus.publish({ kind: "session-closed", mcpSessionId: "s7" });
    const s7 = await connecting;
    await waitUntil("the upstream session to close", () => (s7.client.transport === undefined ? true : undefined), 5_000);
    expect(sessions.stats().perServer).toEqual(held);
  });

  // A 2026-07-28 client is reached only on the answer of a request of its own. server-everything asks roots/list
  // 350 ms after initialize, so on a fresh stateless upstream session it asks with nothing in flight.
  it("a 2026 client's upstream session asked for roots between its requests: the upstream is told at once that nobody can answer", async () => {
    const stderr = createSessionStderr();
    const own = createSessionUpstreams({ db, bus, logger: createLogger("silent"), stderr }, { limits, now: () => clock });
    try {
      // The capabilities stateless-view.ts offers upstream for a 2026 client, roots among them.
      await own.get(`${STATELESS_SESSION_PREFIX}roots-between`, route, { roots: {} }, true, owner);
      const heard = () => stderr.snapshot("srv").flatMap((p) => p.process.lines).find((l) => l.includes("Failed to request roots"));
      // Without the answer, the upstream would wait relayTimeoutMs (5 minutes) for a reply.
      expect(await waitUntil("server-everything to hear its roots/list refused", heard, 15_000)).toContain("roots/list: no request of this client is in flight");
    } finally {
      await own.closeAll();
    }
  });
});
