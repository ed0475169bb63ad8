// The per-server policy changedDefinitionCalls over real MCP: an upstream changes a tool after approval without
// announcing it. Under serve_compatible a compatible change (an optional argument added) is served against the
// pinned definition (agents keep seeing it, the change waits for review, the audit row says so); a breaking change,
// or any changed description, is refused tool_definition_changed as under the default policy (refuse).
import { writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RequestContext } from "../context";
import { errorMeta, firstText, fixtureEvents, misbehavingServer, setUpGatewayTest, waitUntil, type Agent, type GatewayTestEnv, type TestGateway } from "../test/gateway-harness";
import { createTestDb } from "../test/test-db";

const COMPATIBLE = { type: "object", properties: { verbose: { type: "boolean" } } };
const BREAKING = { type: "object", properties: { verbose: { type: "boolean" } }, required: ["verbose"] };

describe("changedDefinitionCalls: serving compatible changes against the pinned definition", () => {
  const db = createTestDb();
  let env: GatewayTestEnv;
  let a: TestGateway;
  let admin: RequestContext;
  let agent: Agent;
  let dir = "";

  const overlay = (slug: string, value: Record<string, unknown>) => writeFileSync(path.join(dir, `${slug}.json`), JSON.stringify(value));
  const register = async (slug: string, policy?: "serve_compatible") => {
    overlay(slug, {});
    const base = misbehavingServer(dir, { slug });
    await a.gateway.registry.register(admin, { ...base, env: { ...base.env, FIXTURE_DESCRIPTIONS: path.join(dir, `${slug}.json`) }, ...(policy && { changedDefinitionCalls: policy }) });
  };
  const call = (slug: string) => agent.client.callTool({ name: `${slug}__whoami`, arguments: {} });
  const whoamiCalls = () => fixtureEvents(dir).filter((e) => e.event === "call" && e.tool === "whoami").length;
  const pending = (slug: string) => db.serverVersion.count({ where: { server: { slug }, review: "pending" } });

  beforeAll(async () => {
    env = await setUpGatewayTest(db, "serve-compatible");
    a = env.gateways[0]!;
    ({ admin, dir } = env);
    await register("lenient", "serve_compatible");
    await register("strict");
    agent = await env.agent();
  });

  afterAll(async () => {
    await env?.close();
  });

  it("a compatible change is served against the pinned definition, audited as such, and still waits for review", async () => {
    overlay("lenient", { $inputSchema: { whoami: COMPATIBLE } });
    const before = whoamiCalls();
    const result = await call("lenient");
    expect(result.isError ?? false, firstText(result)).toBe(false);
    expect(whoamiCalls()).toBe(before + 1);
    const row = await db.auditEvent.findFirstOrThrow({ where: { action: "tool.called", toolName: "lenient__whoami" }, orderBy: { id: "desc" } });
    expect(row).toMatchObject({ status: "ok", details: { servedAgainstPinned: true } });
    // Agents keep the approved definition; the change is recorded for an admin.
    const listed = (await agent.client.listTools()).tools.find((t) => t.name === "lenient__whoami");
    expect(listed?.inputSchema.properties ?? {}).not.toHaveProperty("verbose");
    await waitUntil("the change to wait for review", async () => (await pending("lenient")) === 1);
  });

  it("a breaking change is refused, naming why it is not served", async () => {
    overlay("lenient", { $inputSchema: { whoami: BREAKING } });
    const refused = await call("lenient");
    expect(errorMeta(refused).code).toBe("tool_definition_changed");
    expect(firstText(refused)).toMatch(/not served against the approved definition: .*verbose/);
  });

  it("a changed description is never served, even with a compatible schema", async () => {
    overlay("lenient", { whoami: "Says who answered, and more.", $inputSchema: { whoami: COMPATIBLE } });
    const refused = await call("lenient");
    expect(errorMeta(refused).code).toBe("tool_definition_changed");
    expect(firstText(refused)).toMatch(/a description or title changed/);
  });

  it("under the default policy (refuse) a compatible change is refused; switching the server's policy serves it", async () => {
    expect((await a.gateway.registry.get("strict")).server.changedDefinitionCalls).toBe("refuse");
    overlay("strict", { $inputSchema: { whoami: COMPATIBLE } });
    expect(errorMeta(await call("strict")).code).toBe("tool_definition_changed");
    await a.gateway.registry.update(admin, "strict", { changedDefinitionCalls: "serve_compatible" });
    // The update invalidates this process's snapshot before it answers: the next call is under the new policy.
    const served = await call("strict");
    expect(served.isError ?? false, firstText(served)).toBe(false);
    expect((await db.auditEvent.findFirstOrThrow({ where: { action: "server.updated" }, orderBy: { id: "desc" } })).details).toMatchObject({ slug: "strict", fields: ["changedDefinitionCalls"] });
  });
});
