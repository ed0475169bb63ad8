// Two gateway processes on one database: an admin's registry change made through A (a tool disabled or raised to
// HIGH, a server disabled) answers only once every process listening on the change bus has confirmed it, so B
// refuses the call on its very next one, never from the snapshot it held. A third listener stands for a process
// whose copy of the change trails: it holds its confirmation until the test releases it.
import { mkdir } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { busHears, errorMeta, fixtureEvents, misbehavingServer, setUpGatewayTest, type Agent, type GatewayTestEnv } from "../test/gateway-harness";
import { orderBehindSlowListener } from "../test/slow-bus-listener";
import { createTestDb, testDatabaseUrl } from "../test/test-db";

describe("an admin's registry change holds on every process once answered", () => {
  const db = createTestDb();
  let env: GatewayTestEnv;
  let onB: Agent;
  const a = () => env.gateways[0]!.gateway;
  const whoamiCalls = (slug: string) => fixtureEvents(`${env.dir}/${slug}`).filter((e) => e.event === "call" && e.tool === "whoami");

  /** Runs `change` through A with a trailing listener; returns the order of its answer and the confirmation. */
  const throughA = (change: () => Promise<unknown>) => orderBehindSlowListener(testDatabaseUrl(), change);

  /** A server of its own, registered through A, whose whoami B has called once (so B's snapshot holds it). */
  async function servedOnB(slug: string): Promise<void> {
    await mkdir(`${env.dir}/${slug}`, { recursive: true });
    const { server } = await a().registry.register(env.admin, misbehavingServer(`${env.dir}/${slug}`, { slug }));
    expect(server.status).toBe("HEALTHY");
    const first = await onB.client.callTool({ name: `${slug}__whoami`, arguments: {} });
    expect(first.isError ?? false).toBe(false);
    expect(whoamiCalls(slug)).toHaveLength(1);
  }

  beforeAll(async () => {
    env = await setUpGatewayTest(db, "registry-everywhere", { gateways: 2 });
    for (const g of env.gateways) await busHears(db, g.gateway);
    onB = await env.agent(1);
  });

  afterAll(async () => {
    await env?.close();
  });

  it("a tool disabled through A: the update answers after every listener confirmed it, and B refuses the next call (tool_disabled)", async () => {
    await servedOnB("off");
    expect(await throughA(() => a().registry.updateTool(env.admin, "off__whoami", { enabled: false }))).toEqual(["confirmed", "answered"]);
    const refused = await onB.client.callTool({ name: "off__whoami", arguments: {} });
    expect(errorMeta(refused).code).toBe("tool_disabled");
    expect(whoamiCalls("off")).toHaveLength(1);
  });

  it("a tool raised to HIGH through A: B's next call is held for approval, not sent upstream", async () => {
    await servedOnB("tiered");
    expect(await throughA(() => a().registry.updateTool(env.admin, "tiered__whoami", { riskTier: "HIGH" }))).toEqual(["confirmed", "answered"]);
    const held = await onB.client.callTool({ name: "tiered__whoami", arguments: {} });
    expect(held.structuredContent).toMatchObject({ approval_status: "PENDING" });
    expect(whoamiCalls("tiered")).toHaveLength(1);
  });

  it("a server disabled through A: B no longer offers its tools (unknown_tool) and the call does not reach it", async () => {
    await servedOnB("paused");
    expect(await throughA(() => a().registry.update(env.admin, "paused", { enabled: false }))).toEqual(["confirmed", "answered"]);
    await expect(onB.client.callTool({ name: "paused__whoami", arguments: {} })).rejects.toThrow(/unknown_tool/);
    expect(whoamiCalls("paused")).toHaveLength(1);
  });
});
