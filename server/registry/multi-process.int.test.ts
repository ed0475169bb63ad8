// Two gateway processes on one database: a change made through one (register, canary, promote, remove)
// must be served correctly by the other, whose upstream pool was started before the change.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RequestContext } from "../context";
import {
  agentInBucket,
  fixtureEvents,
  firstText,
  misbehavingServer,
  processAlive as alive,
  setUpGatewayTest,
  waitUntil,
  type Agent,
  type GatewayTestEnv,
  type TestGateway,
} from "../test/gateway-harness";
import { createTestDb } from "../test/test-db";

describe("registry changes across gateway processes", () => {
  const db = createTestDb();
  let env: GatewayTestEnv;
  let a: TestGateway;
  let b: TestGateway;
  let admin: RequestContext;
  let token = "";
  let dir = "";

  const whoami = async (ag: Agent, slug = "shared") =>
    JSON.parse(firstText(await ag.client.callTool({ name: `${slug}__whoami`, arguments: {} }))) as {
      variant: string;
      pid: number;
    };

  beforeAll(async () => {
    // Both processes are up and have connected what there was (nothing) before the changes below.
    env = await setUpGatewayTest(db, "multi", { gateways: 2, startUpstreams: true });
    [a, b] = env.gateways as [TestGateway, TestGateway];
    ({ admin, token, dir } = env);
  });

  afterAll(async () => {
    await env?.close();
  });

  it("a server registered through process A can be called through process B", async () => {
    const { server } = await a.gateway.registry.register(admin, misbehavingServer(dir, { slug: "shared" }));
    expect(server.status).toBe("HEALTHY");
    const onB = await env.agent(1);
    await waitUntil("B to list the new tools", async () =>
      (await onB.client.listTools()).tools.some((t) => t.name === "shared__whoami"),
    );
    const result = await onB.client.callTool({ name: "shared__whoami", arguments: {} });
    expect(result.isError ?? false, firstText(result)).toBe(false);
  });

  it("a canary started and promoted through A is served by B", async () => {
    const v2Env = { ...misbehavingServer(dir, { slug: "shared" }).env, FIXTURE_VARIANT: "v2" };
    await a.gateway.registry.update(admin, "shared", { env: v2Env, asCanary: true, canaryPercent: 50 });
    const low = await agentInBucket(b.mcpUrl, token, (x) => x < 50);
    const high = await agentInBucket(b.mcpUrl, token, (x) => x >= 50);
    env.agents.push(low, high);
    expect((await whoami(low)).variant).toBe("v2");
    expect((await whoami(high)).variant).toBe("v1");

    await a.gateway.registry.update(admin, "shared", { action: "promote" });
    await waitUntil("B to serve v2 to everyone", async () => (await whoami(high)).variant === "v2");
    expect((await whoami(low)).variant).toBe("v2");
  });

  it("a server removed through A stops being served, and its process on B stops", async () => {
    const pidsBefore = fixtureEvents(dir)
      .filter((e) => e.event === "start")
      .map((e) => e.pid)
      .filter(alive);
    expect(pidsBefore.length).toBeGreaterThan(0);
    await a.gateway.registry.remove(admin, "shared");
    const onB = await env.agent(1);
    await waitUntil("B to drop the tools", async () =>
      (await onB.client.listTools()).tools.every((t) => !t.name.startsWith("shared__")),
    );
    // Touching B's registry after the change makes it reconcile its pool.
    await expect(whoami(onB)).rejects.toThrow(/Unknown tool/);
    await waitUntil("every shared process to exit", () => pidsBefore.every((pid) => !alive(pid)), 5_000);
  });
});
