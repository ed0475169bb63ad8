// One tool by name, and the rate-limit overrides: a tool's own, else its server's, else the gateway default
// (null), as the pipeline receives it from resolveTool.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RequestContext } from "../context";
import { misbehavingServer, setUpGatewayTest, type GatewayTestEnv } from "../test/gateway-harness";
import { createTestDb } from "../test/test-db";
import type { Registry } from "./create-registry";

describe("tool settings: one tool by name, rate-limit overrides", () => {
  const db = createTestDb();
  let env: GatewayTestEnv;
  let registry: Registry;
  let admin: RequestContext;

  const limitOf = async (name: string) => {
    const resolved = await registry.resolveTool(name, 0);
    if ("error" in resolved) throw new Error(resolved.error);
    return resolved.tool.rateLimitPerMinute;
  };

  beforeAll(async () => {
    env = await setUpGatewayTest(db, "tool-settings");
    ({ admin } = env);
    registry = env.gateways[0]!.gateway.registry;
    const { server } = await registry.register(admin, misbehavingServer(env.dir, { slug: "limits" }));
    if (server.status !== "HEALTHY") throw new Error(server.lastError ?? "limits did not start");
  });

  afterAll(async () => {
    await env?.close();
  });

  it("getTool gives one tool with its schema, lint findings, tier and settings", async () => {
    const tool = await registry.getTool("limits__counted");
    expect(tool).toMatchObject({
      name: "limits__counted",
      tool: "counted",
      server: "limits",
      enabled: true,
      strict: false,
      timeoutMs: null,
      rateLimitPerMinute: null,
      removed: false,
      riskTier: expect.stringMatching(/^(LOW|MEDIUM|HIGH)$/) as unknown,
      inputSchema: expect.objectContaining({ type: "object" }) as unknown,
      lintFindings: expect.any(Array) as unknown,
    });
    expect(tool).toEqual((await registry.listTools()).items.find((t) => t.name === "limits__counted"));
  });

  it("getTool of an unknown name is not_found", async () => {
    for (const name of ["limits__nope", "nobody__counted", "no-separator"]) {
      await expect(registry.getTool(name)).rejects.toMatchObject({ code: "not_found" });
    }
  });

  it("without overrides a tool resolves with no rate limit of its own (the gateway default applies)", async () => {
    expect(await limitOf("limits__counted")).toBeNull();
    expect((await registry.get("limits")).server.rateLimitPerMinute).toBeNull();
  });

  it("a server's rate limit applies to each of its tools; a tool's own wins over it; null clears either", async () => {
    const { server } = await registry.update(admin, "limits", { rateLimitPerMinute: 120 });
    expect(server.rateLimitPerMinute).toBe(120);
    expect(await limitOf("limits__counted")).toBe(120);
    expect(await limitOf("limits__whoami")).toBe(120);

    const tool = await registry.updateTool(admin, "limits__whoami", { rateLimitPerMinute: 30 });
    expect(tool.rateLimitPerMinute).toBe(30);
    expect((await registry.getTool("limits__whoami")).rateLimitPerMinute).toBe(30);
    expect(await limitOf("limits__whoami")).toBe(30);
    expect(await limitOf("limits__counted")).toBe(120);

    await registry.updateTool(admin, "limits__whoami", { rateLimitPerMinute: null });
    expect(await limitOf("limits__whoami")).toBe(120);
    await registry.update(admin, "limits", { rateLimitPerMinute: null });
    expect(await limitOf("limits__whoami")).toBeNull();

    const audit = await db.auditEvent.findFirstOrThrow({ where: { action: "tool.updated" }, orderBy: { id: "desc" } });
    expect(audit.details).toMatchObject({ tool: "limits__whoami", changes: { rateLimitPerMinute: null } });
  });
});
