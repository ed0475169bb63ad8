// Two gateway processes on one database: a change made through one (register, canary, promote, remove)
// must be served correctly by the other, whose upstream pool was started before the change.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RequestContext } from "../context";
import { insertUser, userContext } from "../test/contexts";
import {
  agentInBucket,
  connectAgent,
  fixtureEvents,
  firstText,
  misbehavingServer,
  removeTempDirs,
  startTestGateway,
  tempDir,
  userWithToken,
  waitUntil,
  type Agent,
  type TestGateway,
} from "../test/gateway-harness";
import { createTestDb, truncateAll } from "../test/test-db";

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe("registry changes across gateway processes", () => {
  const db = createTestDb();
  let a: TestGateway;
  let b: TestGateway;
  let admin: RequestContext;
  let token = "";
  let dir = "";
  const agents: Agent[] = [];

  const whoami = async (ag: Agent, slug = "shared") =>
    JSON.parse(firstText(await ag.client.callTool({ name: `${slug}__whoami`, arguments: {} }))) as {
      variant: string;
      pid: number;
    };

  beforeAll(async () => {
    await truncateAll(db);
    a = await startTestGateway();
    b = await startTestGateway();
    // Both processes are up and have connected what there was (nothing) before the changes below.
    await a.gateway.startUpstreams();
    await b.gateway.startUpstreams();
    admin = userContext(await insertUser(db, { role: "ADMIN" }));
    token = (await userWithToken(db)).token;
    dir = await tempDir("multi");
  });

  afterAll(async () => {
    for (const ag of agents) await ag.close();
    await b?.close();
    await a?.close();
    await db.$disconnect();
    await removeTempDirs();
  });

  it("a server registered through process A can be called through process B", async () => {
    const { server } = await a.gateway.registry.register(admin, misbehavingServer(dir, { slug: "shared" }));
    expect(server.status).toBe("HEALTHY");
    const onB = await connectAgent(b.mcpUrl, token);
    agents.push(onB);
    await waitUntil("B to list the new tools", async () =>
      (await onB.client.listTools()).tools.some((t) => t.name === "shared__whoami"),
    );
    const result = await onB.client.callTool({ name: "shared__whoami", arguments: {} });
    expect(result.isError ?? false, firstText(result)).toBe(false);
  });

  it("a canary started and promoted through A is served by B", async () => {
    const env = { ...misbehavingServer(dir, { slug: "shared" }).env, FIXTURE_VARIANT: "v2" };
    await a.gateway.registry.update(admin, "shared", { env, asCanary: true, canaryPercent: 50 });
    const low = await agentInBucket(b.mcpUrl, token, (x) => x < 50);
    const high = await agentInBucket(b.mcpUrl, token, (x) => x >= 50);
    agents.push(low, high);
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
    const onB = await connectAgent(b.mcpUrl, token);
    agents.push(onB);
    await waitUntil("B to drop the tools", async () =>
      (await onB.client.listTools()).tools.every((t) => !t.name.startsWith("shared__")),
    );
    // Touching B's registry after the change makes it reconcile its pool.
    await expect(whoami(onB)).rejects.toThrow(/Unknown tool/);
    await waitUntil("every shared process to exit", () => pidsBefore.every((pid) => !alive(pid)), 5_000);
  });
});
