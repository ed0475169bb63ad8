// The demo servers run from the gateway's install directory, which a sandbox hides: their seeded isolation
// declares what a sandbox must show them (the packages they load, their source, the sample folder, the orders
// database), so an admin who switches them to bwrap gets servers that start and answer.
import { chmod, mkdir, rm } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TIsolation } from "../../lib/sandbox-schemas";
import { createLogger } from "../logger";
import { isolationOf } from "../registry/registry-dto";
import { firstText, REPO_ROOT, setUpGatewayTest, type Agent, type GatewayTestEnv } from "../test/gateway-harness";
import { createTestDb, testDatabaseUrl } from "../test/test-db";
import { seedDemo } from "./seed-demo";

describe("the demo servers under bwrap, with the mounts their launch configuration declares", () => {
  const db = createTestDb();
  // Not a mkdtemp folder: the sandbox user must be able to reach the sample folder.
  const dataDir = `/var/tmp/portcullis-demo-sandboxed-${String(process.pid)}`;
  let env: GatewayTestEnv;
  let agent: Agent;
  const stored = new Map<string, TIsolation>();

  beforeAll(async () => {
    env = await setUpGatewayTest(db, "demo-sandboxed");
    await mkdir(dataDir, { recursive: true });
    await chmod(dataDir, 0o755);
    const seeded = await seedDemo(db, createLogger("silent"), { adminDatabaseUrl: testDatabaseUrl(), dataDir, root: REPO_ROOT });
    expect(seeded).toEqual(["orders", "files"]);
    const gateway = env.gateways[0]!.gateway;
    await gateway.startUpstreams();
    for (const slug of seeded) {
      const row = await db.upstreamServer.findUniqueOrThrow({ where: { slug } });
      const isolation = isolationOf(row.isolation);
      stored.set(slug, isolation);
      const { server } = await gateway.registry.update(env.admin, slug, { isolation: { ...isolation, profile: "bwrap" } });
      expect(server.isolation?.profile).toBe("bwrap");
      expect(server.status, `${slug}: ${server.lastError ?? ""}`).toBe("HEALTHY");
    }
    agent = await env.agent();
  }, 120_000);

  afterAll(async () => {
    await env.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it("are seeded unsandboxed, with read-only mounts of exactly their packages and source in the install directory", () => {
    const orders = stored.get("orders")!;
    expect(orders.profile).toBe("none");
    expect(orders.mounts.every((m) => !m.writable)).toBe(true);
    const paths = orders.mounts.map((m) => m.path.slice(REPO_ROOT.length + 1));
    expect(paths).toEqual(expect.arrayContaining(["node_modules/tsx", "node_modules/pg", "node_modules/@modelcontextprotocol/sdk", "package.json", "scripts/demo-orders-server.ts"]));
    // Never the install directory or its node_modules as a whole.
    expect(paths).not.toContain("");
    expect(paths).not.toContain("node_modules");
    expect(orders.network).toEqual([`${new URL(testDatabaseUrl()).hostname}:${new URL(testDatabaseUrl()).port}`]);
    const files = stored.get("files")!;
    expect(files.mounts.map((m) => m.path)).toContain(`${dataDir}/sample`);
  });

  it("orders answers a query from inside the sandbox, through its allowlisted database", async () => {
    const r = await agent.client.callTool({ name: "orders__query_orders", arguments: { status: "shipped", limit: 3 } });
    expect(r.isError ?? false, firstText(r)).toBe(false);
    expect(firstText(r)).toMatch(/ORD-/);
  });

  it("files reads the sample folder from inside the sandbox", async () => {
    const r = await agent.client.callTool({ name: "files__read_text_file", arguments: { path: `${dataDir}/sample/reports/q3-summary.md` } });
    expect(r.isError ?? false, firstText(r)).toBe(false);
    expect(firstText(r)).toContain("Orders grew 12%");
  });

  it("without those mounts the server is down, and its error says which file the sandbox hides and what to mount", async () => {
    const { server } = await env.gateways[0]!.gateway.registry.update(env.admin, "orders", { isolation: { ...stored.get("orders")!, profile: "bwrap", mounts: [] } });
    expect(server.status).toBe("DOWN");
    expect(server.lastError).toContain(`${REPO_ROOT}/scripts/demo-orders-server.ts is inside ${REPO_ROOT}, which the sandbox hides: add a read-only mount`);
  });
});
