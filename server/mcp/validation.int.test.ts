// Argument validation on the gateway path: a call that breaks the tool's JSON Schema never reaches the
// upstream, and the agent learns the path and the rule. Draft-07 (server-memory) and 2020-12 (fixture).
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RequestContext } from "../context";
import { insertUser, userContext } from "../test/contexts";
import {
  connectAgent,
  errorMeta,
  fixtureEvents,
  firstText,
  memoryServer,
  misbehavingServer,
  removeTempDirs,
  startTestGateway,
  tempDir,
  userWithToken,
  type Agent,
  type TestGateway,
} from "../test/gateway-harness";
import { createTestDb, truncateAll } from "../test/test-db";

describe("argument validation through /mcp", () => {
  const db = createTestDb();
  let tg: TestGateway;
  let admin: RequestContext;
  let ag: Agent;
  let dir = "";

  const counted = () => fixtureEvents(dir).filter((e) => e.event === "call" && e.tool === "counted");

  beforeAll(async () => {
    await truncateAll(db);
    tg = await startTestGateway();
    admin = userContext(await insertUser(db, { role: "ADMIN" }));
    dir = await tempDir("validation");
    for (const input of [misbehavingServer(dir, { slug: "fixture" }), memoryServer(path.join(dir, "memory.jsonl"))]) {
      const { server } = await tg.gateway.registry.register(admin, input);
      if (server.status !== "HEALTHY") throw new Error(`${server.slug}: ${server.lastError ?? ""}`);
    }
    ag = await connectAgent(tg.mcpUrl, (await userWithToken(db)).token);
  });

  afterAll(async () => {
    await ag?.close();
    await tg?.close();
    await db.$disconnect();
    await removeTempDirs();
  });

  it("a schema violation never reaches the upstream; the error names the path and the rule", async () => {
    const missing = await ag.client.callTool({ name: "fixture__counted", arguments: {} });
    expect(missing.isError).toBe(true);
    expect(errorMeta(missing)).toMatchObject({
      code: "invalid_arguments",
      problems: [{ path: "/", rule: "required", message: "(arguments) is missing required property `name`" }],
    });
    expect(firstText(missing)).toMatch(
      /^\[invalid_arguments\] Invalid arguments for fixture__counted: .*missing required property `name`.*Fix the arguments and call again\.$/,
    );

    const several = await ag.client.callTool({ name: "fixture__counted", arguments: { name: "", count: 11 } });
    expect(errorMeta(several).problems).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ path: "/name", rule: "minLength" }),
        { path: "/count", rule: "maximum", message: "/count must be <= 10" },
      ]),
    );
    const wrongType = await ag.client.callTool({ name: "fixture__counted", arguments: { name: "n", count: "three" } });
    expect(errorMeta(wrongType).problems).toEqual([
      expect.objectContaining({ path: "/count", rule: "type", message: "/count must be integer" }),
    ]);
    expect(counted()).toEqual([]);

    const ok = await ag.client.callTool({ name: "fixture__counted", arguments: { name: "n", count: 3 } });
    expect(ok.isError ?? false).toBe(false);
    expect(counted()).toHaveLength(1);
    expect(counted()[0]?.args).toEqual({ name: "n", count: 3 });

    const audits = await db.auditEvent.findMany({
      where: { action: "tool.called", toolName: "fixture__counted" },
      orderBy: { id: "asc" },
    });
    expect(audits.map((a) => [a.decision, a.status, a.errorCode])).toEqual([
      ["deny", "denied", "invalid_arguments"],
      ["deny", "denied", "invalid_arguments"],
      ["deny", "denied", "invalid_arguments"],
      ["allow", "ok", null],
    ]);
    expect(audits[0]?.reason).toContain("missing required property `name`");
  });

  it("JSON Schema 2020-12: prefixItems and items:false are enforced", async () => {
    const before = counted().length;
    const good = await ag.client.callTool({ name: "fixture__counted", arguments: { name: "n", pair: ["a", 1] } });
    expect(good.isError ?? false, firstText(good)).toBe(false);
    const wrongSecond = await ag.client.callTool({
      name: "fixture__counted",
      arguments: { name: "n", pair: ["a", "b"] },
    });
    expect(errorMeta(wrongSecond).problems).toEqual([expect.objectContaining({ path: "/pair/1", rule: "type" })]);
    const tooLong = await ag.client.callTool({ name: "fixture__counted", arguments: { name: "n", pair: ["a", 1, 2] } });
    expect(errorMeta(tooLong)).toMatchObject({
      code: "invalid_arguments",
      problems: [{ path: "/pair", rule: "items", message: "/pair must NOT have more than 2 items" }],
    });
    expect(counted().length).toBe(before + 1);
  });

  it("draft-07 (server-memory declares $schema draft-07): violations are caught, valid calls pass", async () => {
    const tool = (await ag.client.listTools()).tools.find((t) => t.name === "memory__create_entities");
    expect(tool?.inputSchema.$schema).toBe("http://json-schema.org/draft-07/schema#");
    const bad = await ag.client.callTool({
      name: "memory__create_entities",
      arguments: { entities: [{ name: "x", entityType: 5 }] },
    });
    expect(errorMeta(bad).code).toBe("invalid_arguments");
    expect(errorMeta(bad).problems).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ path: "/entities/0/entityType", rule: "type" }),
        { path: "/entities/0", rule: "required", message: "/entities/0 is missing required property `observations`" },
      ]),
    );
    const good = await ag.client.callTool({
      name: "memory__create_entities",
      arguments: { entities: [{ name: "x", entityType: "thing", observations: [] }] },
    });
    expect(good.isError ?? false, firstText(good)).toBe(false);
  });

  it("strict mode (updateTool strict: true) rejects unknown arguments that the schema alone lets through", async () => {
    const before = counted().length;
    const lax = await ag.client.callTool({ name: "fixture__counted", arguments: { name: "n", extra: 1 } });
    expect(lax.isError ?? false).toBe(false);
    expect(counted().length).toBe(before + 1);

    await tg.gateway.registry.updateTool(admin, "fixture__counted", { strict: true });
    const strict = await ag.client.callTool({ name: "fixture__counted", arguments: { name: "n", extra: 1 } });
    expect(errorMeta(strict)).toMatchObject({
      code: "invalid_arguments",
      problems: [
        { path: "/", rule: "additionalProperties", message: "(arguments) has unknown property `extra` (not allowed)" },
      ],
    });
    expect(counted().length).toBe(before + 1);
    // Known arguments still pass in strict mode.
    const fine = await ag.client.callTool({ name: "fixture__counted", arguments: { name: "n", count: 2 } });
    expect(fine.isError ?? false).toBe(false);

    await tg.gateway.registry.updateTool(admin, "fixture__counted", { strict: false });
    expect(
      (await ag.client.callTool({ name: "fixture__counted", arguments: { name: "n", extra: 1 } })).isError ?? false,
    ).toBe(false);
  });
});
