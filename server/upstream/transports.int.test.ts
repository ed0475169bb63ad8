// Upstreams over HTTP: Streamable HTTP (the demo orders server with --http), the fall-back to legacy
// HTTP+SSE, and health pings that notice an HTTP server going away and coming back.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RequestContext } from "../context";
import { ensureDemoDatabase } from "../demo/orders-db";
import { insertUser, userContext } from "../test/contexts";
import {
  connectAgent,
  firstText,
  freePort,
  removeTempDirs,
  spawnTsServer,
  startTestGateway,
  tempDir,
  userWithToken,
  waitUntil,
  type Agent,
  type ChildServer,
  type TestGateway,
} from "../test/gateway-harness";
import { createTestDb, testDatabaseUrl, truncateAll } from "../test/test-db";

describe("upstreams over HTTP", () => {
  const db = createTestDb();
  let tg: TestGateway;
  let admin: RequestContext;
  let ag: Agent;
  let demoUrl = "";
  const children: ChildServer[] = [];

  async function ordersOverHttp(port: number): Promise<ChildServer> {
    const child = await spawnTsServer(
      "scripts/demo-orders-server.ts",
      ["--http", String(port)],
      { DEMO_DATABASE_URL: demoUrl, DEMO_EXPORT_STEP_MS: "20" },
      /orders MCP server on/,
    );
    children.push(child);
    return child;
  }

  async function sseFixture(port: number, dir: string): Promise<ChildServer> {
    const child = await spawnTsServer(
      "server/test/fixtures/misbehaving-server.ts",
      ["--sse", String(port)],
      { FIXTURE_LOG: `${dir}/events.jsonl` },
      /misbehaving SSE server on/,
    );
    children.push(child);
    return child;
  }

  const status = async (slug: string) => (await db.upstreamServer.findUnique({ where: { slug } }))?.status;

  beforeAll(async () => {
    await truncateAll(db);
    demoUrl = await ensureDemoDatabase(testDatabaseUrl());
    tg = await startTestGateway({ pool: { pingIntervalMs: 300, maxReconnectDelayMs: 1_000 } });
    admin = userContext(await insertUser(db, { role: "ADMIN" }));
    ag = await connectAgent(tg.mcpUrl, (await userWithToken(db)).token);
  });

  afterAll(async () => {
    await ag?.close();
    await tg?.close();
    for (const c of children) await c.stop();
    await db.$disconnect();
    await removeTempDirs();
  });

  it("a Streamable HTTP upstream registers HEALTHY and its calls (with progress) work through /mcp", async () => {
    const port = await freePort();
    await ordersOverHttp(port);
    const { server, tools } = await tg.gateway.registry.register(admin, {
      slug: "orders-http",
      name: "Orders over HTTP",
      transport: "http",
      url: `http://127.0.0.1:${port}/mcp`,
    });
    expect(server.status, server.lastError ?? "").toBe("HEALTHY");
    expect(tools.map((t) => t.name)).toContain("orders-http__query_orders");

    const result = await ag.client.callTool({
      name: "orders-http__query_orders",
      arguments: { status: "paid", limit: 2 },
    });
    expect(result.isError ?? false, firstText(result)).toBe(false);
    const body = JSON.parse(firstText(result)) as { orders: { status: string }[]; total: number };
    expect(body.orders).toHaveLength(2);
    expect(body.orders.every((o) => o.status === "paid")).toBe(true);

    const progress: number[] = [];
    const exported = await ag.client.callTool(
      { name: "orders-http__export_orders", arguments: { format: "jsonl" } },
      undefined,
      {
        onprogress: (p) => progress.push(p.progress),
      },
    );
    expect(exported.isError ?? false).toBe(false);
    // The last step(s) may race the result (see the /mcp progress test); the rest arrive in order.
    expect(progress.length).toBeGreaterThanOrEqual(5);
    expect(progress).toEqual(Array.from({ length: progress.length }, (_, i) => i + 1));
  });

  it("an HTTP server that goes away is noticed by the health ping (DOWN) and reconnected when it is back", async () => {
    const port = await freePort();
    const first = await ordersOverHttp(port);
    const { server } = await tg.gateway.registry.register(admin, {
      slug: "orders-flaky",
      name: "Orders that restart",
      transport: "http",
      url: `http://127.0.0.1:${port}/mcp`,
    });
    expect(server.status, server.lastError ?? "").toBe("HEALTHY");

    await first.stop();
    await waitUntil("orders-flaky DOWN", async () => (await status("orders-flaky")) === "DOWN", 5_000);
    const down = await ag.client.callTool({ name: "orders-flaky__query_orders", arguments: {} });
    expect(down.isError).toBe(true);
    expect(firstText(down)).toMatch(/^\[upstream_unavailable\]/);

    await ordersOverHttp(port);
    await waitUntil("orders-flaky HEALTHY again", async () => (await status("orders-flaky")) === "HEALTHY", 10_000);
    const back = await ag.client.callTool({ name: "orders-flaky__query_orders", arguments: { limit: 1 } });
    expect(back.isError ?? false, firstText(back)).toBe(false);
  });

  it("an http URL that only speaks legacy HTTP+SSE falls back to SSE; an sse server registers directly", async () => {
    const port = await freePort();
    await sseFixture(port, await tempDir("sse"));
    for (const [slug, transport] of [
      ["legacy-auto", "http"],
      ["legacy-sse", "sse"],
    ] as const) {
      const { server, tools } = await tg.gateway.registry.register(admin, {
        slug,
        name: slug,
        transport,
        url: `http://127.0.0.1:${port}/sse`,
      });
      expect(server.status, `${slug}: ${server.lastError ?? ""}`).toBe("HEALTHY");
      expect(tools.map((t) => t.tool)).toContain("whoami");
      const who = await ag.client.callTool({ name: `${slug}__whoami`, arguments: {} });
      expect(JSON.parse(firstText(who))).toMatchObject({ variant: "v1" });
    }
  });
});
