// A server whose first connect fails is not given up on: it is retried with the same backoff as a dropped
// connection until it comes up (a stdio process that refuses to start, an HTTP URL nobody listens on yet),
// and a restart connects it at once.
import { readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { Writable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureDemoDatabase } from "../demo/orders-db";
import {
  fixtureEvents,
  firstText,
  freePort,
  misbehavingServer,
  setUpGatewayTest,
  spawnTsServer,
  tempDir,
  waitUntil,
  type ChildServer,
  type GatewayTestEnv,
} from "../test/gateway-harness";
import { createTestDb, testDatabaseUrl } from "../test/test-db";
import { createLogger } from "../logger";

const POOL = { maxReconnectDelayMs: 4_000 };

/** The delays the pool scheduled for a server's reconnects, in order, from its debug log. */
function scheduledDelays() {
  const delays = new Map<string, number[]>();
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString("utf8").split("\n")) {
        if (!line.includes("reconnect scheduled")) continue;
        const { server, delayMs } = JSON.parse(line) as { server: string; delayMs: number };
        delays.set(server, [...(delays.get(server) ?? []), delayMs]);
      }
      done();
    },
  });
  return { logger: createLogger("debug", {}, sink), of: (slug: string) => delays.get(slug) ?? [] };
}

describe("servers whose first connect fails", () => {
  const db = createTestDb();
  let env: GatewayTestEnv;
  const children: ChildServer[] = [];
  const scheduled = scheduledDelays();

  const row = (slug: string) =>
    db.upstreamServer.findUniqueOrThrow({ where: { slug }, include: { activeVersion: true } });
  /** Up (its status written and its first version recorded: two writes that land in either order). */
  const up = async (slug: string) => {
    const r = await row(slug);
    return r.status === "HEALTHY" && r.activeVersion !== null && r;
  };

  beforeAll(async () => {
    env = await setUpGatewayTest(db, "first-connect", { pool: POOL, logger: scheduled.logger });
  });

  afterAll(async () => {
    await env?.close();
    for (const c of children) await c.stop();
  });

  it("a stdio server that refuses to start is retried with growing delays and comes up with its tools once it can", async () => {
    const dir = await tempDir("late-stdio");
    const refuse = path.join(dir, "refuse-start");
    const attempts = path.join(dir, "attempts");
    await writeFile(refuse, "");
    const fixture = misbehavingServer(dir, { slug: "late" });
    // A shell in front of the fixture notes each refused attempt and exits at once: the gaps between attempts
    // are the pool's waits, not Node's start-up time.
    const script = `if [ -e "$FIXTURE_REFUSE_START" ]; then date +%s%3N >> "$ATTEMPTS"; exit 3; fi; exec "$0" "$@"`;
    const registry = env.gateways[0]!.gateway.registry;
    const { server, tools } = await registry.register(env.admin, {
      ...fixture,
      command: "/bin/sh",
      args: ["-c", script, fixture.command!, ...fixture.args!],
      env: { ...fixture.env, ATTEMPTS: attempts },
    });
    expect(server).toMatchObject({ status: "DOWN", activeVersion: null });
    expect(server.lastError).toBeTruthy();
    expect(tools).toEqual([]);

    // After the failed first connect: waits of 500 ms · 2^n (±20 % jitter), capped at maxReconnectDelayMs.
    const times = async () => (await readFile(attempts, "utf8")).trim().split("\n").map(Number);
    const at = await waitUntil(
      "five attempts",
      async () => ((await times()).length >= 5 ? times() : undefined),
      20_000,
    );
    // The delays the pool chose (from its log, not the wall clock, which a loaded machine stretches by each
    // process start): 500 ms · 2^n with ±20 % jitter, so each at least 4/3 of the one before, up to the cap.
    const delays = scheduled.of("late").slice(0, 4);
    expect(delays, `delays ${delays.join(", ")} ms`).toHaveLength(4);
    expect(delays[0]!).toBeGreaterThanOrEqual(400);
    expect(delays[0]!).toBeLessThanOrEqual(600);
    for (let i = 1; i < 3; i++) expect(delays[i]!, `delays ${delays.join(", ")} ms`).toBeGreaterThanOrEqual(Math.floor(delays[i - 1]! * 1.3));
    expect(delays[3]!, `delays ${delays.join(", ")} ms`).toBeLessThanOrEqual(POOL.maxReconnectDelayMs * 1.2);
    // And the attempts really waited them: a timer never fires early, so each gap is at least its delay.
    const waits = at.slice(1).map((t, i) => t - at[i]!);
    for (let i = 0; i < 4; i++) expect(waits[i]!, `waits ${waits.join(", ")} ms, delays ${delays.join(", ")} ms`).toBeGreaterThanOrEqual(delays[i]! - 5);

    await rm(refuse);
    const late = await waitUntil("late up", () => up("late"), 10_000);
    expect(late.lastError).toBeNull();
    expect(late.activeVersion?.version).toBe("1.0.0");
    expect(late.activeVersion?.activatedAt).toBeInstanceOf(Date);
    expect((await registry.get("late")).tools.map((t) => t.name)).toContain("late__whoami");

    const ag = await env.agent();
    const who = await ag.client.callTool({ name: "late__whoami", arguments: {} });
    expect(who.isError ?? false, firstText(who)).toBe(false);
    expect(JSON.parse(firstText(who))).toMatchObject({ variant: "v1" });
  });

  it("an HTTP server that comes up after registration is connected by the retries", async () => {
    const port = await freePort();
    const registry = env.gateways[0]!.gateway.registry;
    const { server } = await registry.register(env.admin, {
      slug: "late-http",
      name: "Orders, started later",
      transport: "http",
      url: `http://127.0.0.1:${port}/mcp`,
    });
    expect(server.status).toBe("DOWN");
    expect(server.lastError).toBeTruthy();

    const demoUrl = await ensureDemoDatabase(testDatabaseUrl());
    children.push(
      await spawnTsServer(
        "scripts/demo-orders-server.ts",
        ["--http", String(port)],
        { DEMO_DATABASE_URL: demoUrl, DEMO_EXPORT_STEP_MS: "20" },
        /orders MCP server on/,
      ),
    );
    const lateHttp = await waitUntil("late-http up", () => up("late-http"), 15_000);
    expect(lateHttp.activeVersion?.version).toBe("1.0.0");

    const ag = await env.agent();
    const result = await ag.client.callTool({ name: "late-http__query_orders", arguments: { limit: 1 } });
    expect(result.isError ?? false, firstText(result)).toBe(false);
  });
});

describe("restart", () => {
  const db = createTestDb();
  let env: GatewayTestEnv;

  beforeAll(async () => {
    // Retries wait a minute: whatever connects within the test was the restart.
    env = await setUpGatewayTest(db, "restart", { pool: { reconnectDelayMs: 60_000, maxReconnectDelayMs: 60_000 } });
  });

  afterAll(async () => {
    await env?.close();
  });

  it("restart connects a server whose first connect failed at once, without waiting for the next retry", async () => {
    const refuse = path.join(env.dir, "refuse-start");
    await writeFile(refuse, "");
    const registry = env.gateways[0]!.gateway.registry;
    expect((await registry.register(env.admin, misbehavingServer(env.dir, { slug: "stuck" }))).server.status).toBe(
      "DOWN",
    );
    await rm(refuse);

    const { server, tools } = await registry.update(env.admin, "stuck", { action: "restart" });
    expect(server, server.lastError ?? "").toMatchObject({ status: "HEALTHY", activeVersion: "1.0.0" });
    expect(tools.map((t) => t.name)).toContain("stuck__whoami");
    expect(fixtureEvents(env.dir).map((e) => e.event)).toEqual(["refused", "start"]);
    expect(await db.auditEvent.count({ where: { action: "server.restarted" } })).toBe(1);
  });

  it("restart of a live server ends its process and a new one takes over", async () => {
    const ag = await env.agent();
    const pid = async () =>
      (JSON.parse(firstText(await ag.client.callTool({ name: "stuck__whoami", arguments: {} }))) as { pid: number })
        .pid;
    const before = await pid();
    await env.gateways[0]!.gateway.registry.update(env.admin, "stuck", { action: "restart" });
    // The next call connects again (the reconnect loop would wait a minute here).
    const after = await waitUntil(
      "calls served by a new process",
      async () => {
        const p = await pid();
        return p !== before && p;
      },
      10_000,
    );
    const starts = fixtureEvents(env.dir).filter((e) => e.event === "start");
    expect(starts.map((e) => e.pid)).toEqual([before, after]);
  });
});
