// Two gateway processes on one database: each serves agent session tokens from its own cache, and a revoke or
// a disabled user on one is refused by the other on its very next call: the change answers only once every
// process listening on the change bus has confirmed it has handled it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertUser, userContext } from "../test/contexts";
import { busHears, connectAgent, startTestGateway, userWithToken, waitUntil, type Agent, type TestGateway } from "../test/gateway-harness";
import { orderBehindSlowListener } from "../test/slow-bus-listener";
import { createTestDb, testDatabaseUrl, truncateAll } from "../test/test-db";

describe("agent session cache across gateway processes", () => {
  const db = createTestDb();
  let a: TestGateway;
  let b: TestGateway;
  const agents: Agent[] = [];

  /** An agent on B whose token B has already served (and so cached). */
  async function warmAgentOnB() {
    const { user, token } = await userWithToken(db);
    const ag = await connectAgent(b.mcpUrl, token);
    agents.push(ag);
    await ag.client.listTools();
    await ag.client.listTools();
    const [row] = await db.agentSession.findMany({ where: { userId: user.id } });
    return { user, token, tokenId: row!.id, ag };
  }

  beforeAll(async () => {
    await truncateAll(db);
    a = await startTestGateway();
    b = await startTestGateway();
    // Both processes listen on the change bus before the tests start (a cache serves nothing until then).
    for (const g of [a, b]) await busHears(db, g.gateway);
  });

  afterAll(async () => {
    for (const ag of agents) await ag.close();
    await b?.close();
    await a?.close();
    await db.$disconnect();
  });

  it("B answers from its cache: a revoke written behind the change bus's back is not seen at once", async () => {
    const { tokenId, ag } = await warmAgentOnB();
    await db.agentSession.update({ where: { id: tokenId }, data: { revokedAt: new Date() } });
    expect(Array.isArray((await ag.client.listTools()).tools)).toBe(true);
  });

  it("a token revoked through A is refused by B on the next call", async () => {
    const { user, tokenId, ag } = await warmAgentOnB();
    await a.gateway.sessions.revoke(userContext(user), tokenId);
    await expect(ag.client.listTools()).rejects.toThrow(/revoked/);
  });

  it("a user disabled through A cannot use their token on B on the next call", async () => {
    const { user, ag } = await warmAgentOnB();
    const admin = await insertUser(db, { role: "ADMIN" });
    await a.gateway.users.update(userContext(admin), user.id, { disabled: true });
    await expect(ag.client.listTools()).rejects.toThrow(/disabled/);
  });

  it("a revoke answers only once every process listening on the change bus has confirmed it, however late", async () => {
    // A third listener, as a gateway process's bus is seen by the others (its name in pg_stat_activity), that
    // holds its confirmation until the test releases it: a process whose copy of the NOTIFY trails.
    const { user, tokenId, ag } = await warmAgentOnB();
    expect(await orderBehindSlowListener(testDatabaseUrl(), () => a.gateway.sessions.revoke(userContext(user), tokenId))).toEqual(["confirmed", "answered"]);
    await expect(ag.client.listTools()).rejects.toThrow(/revoked/);
  });

  it("records when a cached token was last used, without a call waiting for it", async () => {
    const { tokenId } = await warmAgentOnB();
    const row = await waitUntil("lastUsedAt to be written", async () => {
      const r = await db.agentSession.findUniqueOrThrow({ where: { id: tokenId } });
      return r.lastUsedAt !== null && r;
    });
    expect(Date.now() - row.lastUsedAt!.getTime()).toBeLessThan(60_000);
  });
});
