// Canary versions: a changed launch runs beside the active one and serves the sessions whose stable bucket
// is below canaryPercent; promote and rollback; every version gets a semver bump and a diff.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RequestContext } from "../context";
import { hashToken } from "../auth/token-format";
import { canaryBucket } from "../mcp/mcp-sessions";
import {
  agentInBucket,
  connectAgent,
  fixtureEvents,
  firstText,
  misbehavingServer,
  processAlive as alive,
  setUpGatewayTest,
  tempDir,
  waitUntil,
  type Agent,
  type GatewayTestEnv,
  type TestGateway,
} from "../test/gateway-harness";
import { createTestDb } from "../test/test-db";

describe("canary versions", () => {
  const db = createTestDb();
  let env: GatewayTestEnv;
  let tg: TestGateway;
  let admin: RequestContext;
  let dir = "";
  let v1Env: Record<string, string> = {};
  let v2Env: Record<string, string> = {};
  let low: Agent;
  let high: Agent;

  const names = async (ag: Agent) => (await ag.client.listTools()).tools.map((t) => t.name);
  const whoami = async (ag: Agent) =>
    JSON.parse(firstText(await ag.client.callTool({ name: "shop__whoami", arguments: {} }))) as {
      variant: string;
      pid: number;
    };
  const lastAuditVersion = async () =>
    (await db.auditEvent.findFirstOrThrow({ where: { action: "tool.called" }, orderBy: { id: "desc" } }))
      .upstreamVersion;
  const versionRows = async () =>
    (await tg.gateway.registry.versions("shop")).sort((a, b) => a.createdAt.localeCompare(b.createdAt));

  beforeAll(async () => {
    env = await setUpGatewayTest(db, "canary");
    ({ admin, dir } = env);
    tg = env.gateways[0]!;
    const input = misbehavingServer(dir, { slug: "shop" });
    v1Env = input.env!;
    v2Env = { ...v1Env, FIXTURE_VARIANT: "v2" };
    const { server } = await tg.gateway.registry.register(admin, input);
    if (server.status !== "HEALTHY") throw new Error(server.lastError ?? "shop did not start");
    low = await agentInBucket(tg.mcpUrl, env.token, (b) => b < 50);
    high = await agentInBucket(tg.mcpUrl, env.token, (b) => b >= 50);
    env.agents.push(low, high);
  });

  afterAll(async () => {
    await env?.close();
  });

  it("buckets are stable per agent session (every MCP session of one token) and spread over 0–99", async () => {
    const again = await connectAgent(tg.mcpUrl, low.token);
    env.agents.push(again);
    expect(again.sessionId).not.toBe(low.sessionId);
    expect(again.bucket).toBe(low.bucket);
    expect((await db.agentSession.findFirstOrThrow({ where: { tokenHash: hashToken(low.token) } })).canaryBucket).toBe(low.bucket);
    const buckets = Array.from({ length: 2000 }, (_, i) => canaryBucket(`session-${i}`));
    expect(Math.min(...buckets)).toBe(0);
    expect(Math.max(...buckets)).toBe(99);
    const below50 = buckets.filter((b) => b < 50).length / buckets.length;
    expect(below50).toBeGreaterThan(0.45);
    expect(below50).toBeLessThan(0.55);
  });

  it("a launch change asCanary at 50 %: sessions in buckets < 50 get the canary's tools, the others the active's", async () => {
    const { server } = await tg.gateway.registry.update(admin, "shop", {
      env: v2Env,
      asCanary: true,
      canaryPercent: 50,
    });
    expect(server).toMatchObject({ activeVersion: "1.0.0", canaryVersion: "1.1.0", canaryPercent: 50 });
    // The server row keeps the active version's launch; the canary's lives on its version.
    const row = await db.upstreamServer.findUniqueOrThrow({
      where: { slug: "shop" },
      include: { canaryVersion: true },
    });
    expect(row.env).toEqual(v1Env);
    expect(row.canaryVersion?.launch).toMatchObject({ env: v2Env });

    for (const bucket of [0, 49])
      expect((await tg.gateway.registry.visibleTools(bucket)).map((t) => t.name)).toContain("shop__v2_only");
    for (const bucket of [50, 99])
      expect((await tg.gateway.registry.visibleTools(bucket)).map((t) => t.name)).not.toContain("shop__v2_only");

    expect(await names(low)).toContain("shop__v2_only");
    expect((await whoami(low)).variant).toBe("v2");
    expect(await lastAuditVersion()).toBe("1.1.0");
    expect(await names(high)).not.toContain("shop__v2_only");
    expect((await whoami(high)).variant).toBe("v1");
    expect(await lastAuditVersion()).toBe("1.0.0");
    await expect(high.client.callTool({ name: "shop__v2_only", arguments: {} })).rejects.toThrow(
      /not available in the version serving this session/,
    );
    expect(firstText(await low.client.callTool({ name: "shop__v2_only", arguments: {} }))).toBe("v2_only ok (v2)");

    const [v1, v2] = await versionRows();
    expect(v1).toMatchObject({ version: "1.0.0", active: true, canary: false });
    expect(v2).toMatchObject({
      version: "1.1.0",
      active: false,
      canary: true,
      diff: { breaking: false, tools: { added: ["v2_only"], removed: [], changed: [] } },
    });
  });

  it("changing canaryPercent moves sessions between versions without restarting anything", async () => {
    const pids = new Set(
      fixtureEvents(dir)
        .filter((e) => e.event === "start")
        .map((e) => e.pid),
    );
    await tg.gateway.registry.update(admin, "shop", { canaryPercent: 100 });
    expect((await whoami(high)).variant).toBe("v2");
    await tg.gateway.registry.update(admin, "shop", { canaryPercent: 0 });
    expect((await whoami(low)).variant).toBe("v1");
    await tg.gateway.registry.update(admin, "shop", { canaryPercent: 50 });
    expect((await whoami(low)).variant).toBe("v2");
    expect(
      new Set(
        fixtureEvents(dir)
          .filter((e) => e.event === "start")
          .map((e) => e.pid),
      ),
    ).toEqual(pids);
  });

  it("rollback removes the canary: every session is served by the active version and the canary process stops", async () => {
    const canaryPid = (await whoami(low)).pid;
    const { server } = await tg.gateway.registry.update(admin, "shop", { action: "rollback" });
    expect(server).toMatchObject({ activeVersion: "1.0.0", canaryVersion: null, canaryPercent: 0 });
    expect(await names(low)).not.toContain("shop__v2_only");
    expect((await whoami(low)).variant).toBe("v1");
    await waitUntil("the canary process to exit", () => !alive(canaryPid), 5_000);
    // The canary-only tool is no longer offered anywhere, the admin's tool list included.
    const { items } = await tg.gateway.registry.listTools();
    expect(items.map((t) => t.name)).not.toContain("shop__v2_only");
    expect((await db.tool.findUniqueOrThrow({ where: { gatewayName: "shop__v2_only" } })).removedAt).not.toBeNull();
  });

  it("promote makes the canary the active version for every session", async () => {
    await tg.gateway.registry.update(admin, "shop", { env: v2Env, asCanary: true, canaryPercent: 50 });
    const canaryVersion = (
      await db.upstreamServer.findUniqueOrThrow({ where: { slug: "shop" }, include: { canaryVersion: true } })
    ).canaryVersion!.version;
    const activePid = (await whoami(high)).pid;
    const { server } = await tg.gateway.registry.update(admin, "shop", { action: "promote" });
    expect(server).toMatchObject({ activeVersion: canaryVersion, canaryVersion: null, canaryPercent: 0 });
    for (const ag of [low, high]) {
      expect(await names(ag)).toContain("shop__v2_only");
      expect((await whoami(ag)).variant).toBe("v2");
    }
    expect(await lastAuditVersion()).toBe(canaryVersion);
    await waitUntil("the old active process to exit", () => !alive(activePid), 5_000);
    const { items } = await tg.gateway.registry.listTools();
    expect(items.find((t) => t.name === "shop__v2_only")).toMatchObject({ removed: false });
  });

  it("the promoted launch survives a disable and re-enable of the server", async () => {
    await tg.gateway.registry.update(admin, "shop", { enabled: false });
    await tg.gateway.registry.update(admin, "shop", { enabled: true });
    expect((await whoami(low)).variant).toBe("v2");
    expect(await names(high)).toContain("shop__v2_only");
  });

  it("a canary that drops a tool is a new major version with a breaking diff", async () => {
    const before = (await versionRows()).map((v) => v.version);
    const { server } = await tg.gateway.registry.update(admin, "shop", {
      env: v1Env,
      asCanary: true,
      canaryPercent: 10,
    });
    expect(server.canaryVersion).toBe("2.0.0");
    const latest = (await versionRows()).at(-1)!;
    expect(latest).toMatchObject({
      version: "2.0.0",
      canary: true,
      diff: { breaking: true, tools: { removed: ["v2_only"] } },
    });
    // Every version is distinct semver, never reused.
    const all = (await versionRows()).map((v) => v.version);
    expect(new Set(all).size).toBe(all.length);
    expect(all).toEqual([...before, "2.0.0"]);
    for (const v of all) expect(v).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it("a launch change without canary replaces the active version; rollback then returns to the previous one", async () => {
    const plainDir = await tempDir("canary-plain");
    const input = misbehavingServer(plainDir, { slug: "plain" });
    await tg.gateway.registry.register(admin, input);
    const { server: updated } = await tg.gateway.registry.update(admin, "plain", {
      env: { ...input.env, FIXTURE_VARIANT: "v2" },
    });
    expect(updated).toMatchObject({ activeVersion: "1.1.0", canaryVersion: null });
    expect(await names(high)).toContain("plain__v2_only");

    const { server } = await tg.gateway.registry.update(admin, "plain", { action: "rollback" });
    expect(server).toMatchObject({ activeVersion: "1.0.0", canaryVersion: null });
    expect(await names(high)).not.toContain("plain__v2_only");
    const who = JSON.parse(firstText(await high.client.callTool({ name: "plain__whoami", arguments: {} }))) as {
      variant: string;
    };
    expect(who.variant).toBe("v1");
    // The server row describes the launch that runs now, so a later restart or edit starts the right one.
    expect((await db.upstreamServer.findUniqueOrThrow({ where: { slug: "plain" } })).env).toEqual(input.env);
    expect((await db.tool.findUniqueOrThrow({ where: { gatewayName: "plain__v2_only" } })).removedAt).not.toBeNull();
  });

  it("rollback without a canary returns to the version active before the current one, not the newest earlier one", async () => {
    const input = misbehavingServer(await tempDir("canary-history"), { slug: "history" });
    const launch = (extra: Record<string, string>) => ({ env: { ...input.env, ...extra } });
    const active = async () =>
      (await db.upstreamServer.findUniqueOrThrow({ where: { slug: "history" }, include: { activeVersion: true } }))
        .activeVersion!;
    const variant = async () =>
      (
        JSON.parse(firstText(await high.client.callTool({ name: "history__whoami", arguments: {} }))) as {
          variant: string;
        }
      ).variant;

    await tg.gateway.registry.register(admin, input); // v1 1.0.0, active
    const v1 = await active();
    const { server: s2 } = await tg.gateway.registry.update(admin, "history", launch({ FIXTURE_VARIANT: "v2" }));
    expect(s2.activeVersion).toBe("1.1.0"); // v2, active
    // A canary that never served everyone: created after v2, rolled back.
    await tg.gateway.registry.update(admin, "history", {
      ...launch({ EXTRA: "x" }),
      asCanary: true,
      canaryPercent: 10,
    });
    const { server: rolledCanary } = await tg.gateway.registry.update(admin, "history", { action: "rollback" });
    expect(rolledCanary).toMatchObject({ activeVersion: "1.1.0", canaryVersion: null });
    // v3 through the promote path.
    const { server: s3 } = await tg.gateway.registry.update(admin, "history", {
      ...launch({ FIXTURE_VARIANT: "v2", EXTRA: "3" }),
      asCanary: true,
      canaryPercent: 50,
    });
    const v3Version = s3.canaryVersion!;
    await tg.gateway.registry.update(admin, "history", { action: "promote" });
    const v3 = await active();
    expect(v3.version).toBe(v3Version);

    const rows = await db.serverVersion.findMany({ where: { serverId: v1.serverId }, orderBy: { createdAt: "asc" } });
    expect(rows.map((v) => v.version)).toEqual(["1.0.0", "1.1.0", "2.0.0", v3Version]);
    // Every version that served everyone has an activation time, in the order they became active; the canary none.
    const [r1, r2, canary, r3] = rows;
    expect(canary!.activatedAt).toBeNull();
    expect(r1!.activatedAt!.getTime()).toBeLessThan(r2!.activatedAt!.getTime());
    expect(r2!.activatedAt!.getTime()).toBeLessThan(r3!.activatedAt!.getTime());
    // Activated on promote, not when it started as a canary.
    expect(r3!.activatedAt!.getTime()).toBeGreaterThan(r3!.createdAt.getTime());

    const { server: back } = await tg.gateway.registry.update(admin, "history", { action: "rollback" });
    expect(back).toMatchObject({ activeVersion: "1.1.0", canaryVersion: null }); // not 2.0.0, the newest earlier
    expect(await variant()).toBe("v2");
    const row = await db.upstreamServer.findUniqueOrThrow({ where: { slug: "history" } });
    expect(row.env).toEqual(launch({ FIXTURE_VARIANT: "v2" }).env);
    expect((await active()).activatedAt!.getTime()).toBeGreaterThan(r3!.activatedAt!.getTime());

    // The version active before 1.1.0 is now the one just left: rolling back again returns to it.
    const { server: again } = await tg.gateway.registry.update(admin, "history", { action: "rollback" });
    expect(again.activeVersion).toBe(v3Version);
    expect(await db.auditEvent.count({ where: { action: "server.rolled_back", targetId: v1.serverId } })).toBe(3);
  });
});
