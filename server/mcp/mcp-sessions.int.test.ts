// MCP sessions are cached per gateway process; a session closed on one process is gone on every other.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectAgent, startTestGateway, userWithToken, waitUntil, type Agent, type TestGateway } from "../test/gateway-harness";
import { SESSION_CACHE_TTL_MS } from "./mcp-sessions";
import { createTestDb, truncateAll } from "../test/test-db";

describe("MCP sessions across gateway processes", () => {
  const db = createTestDb();
  let a: TestGateway;
  let b: TestGateway;
  const agents: Agent[] = [];

  beforeAll(async () => {
    await truncateAll(db);
    a = await startTestGateway();
    b = await startTestGateway();
  });

  afterAll(async () => {
    for (const ag of agents) await ag.close();
    await b?.close();
    await a?.close();
    await db.$disconnect();
  });

  it("a session opened on A continues on B, and once closed on A it is refused by B", async () => {
    const { token } = await userWithToken(db);
    const onA = await connectAgent(a.mcpUrl, token);
    const onB = await connectAgent(b.mcpUrl, token, { sessionId: onA.sessionId });
    agents.push(onA, onB);
    await onB.client.listTools();
    await onB.client.listTools();
    await onA.transport.terminateSession();
    // The close reaches B over the change bus, which delivers it to every process on its own time: B refuses the
    // session once it arrives, well before B's cached row would expire by itself (SESSION_CACHE_TTL_MS).
    const refused = (err: unknown) => /Session not found|404/.test(String(err));
    await waitUntil("B to refuse the session closed on A", () => onB.client.listTools().then(() => false, refused), SESSION_CACHE_TTL_MS / 2);
  });

  it("a closed session stays closed on the process that closed it", async () => {
    const { token } = await userWithToken(db);
    const ag = await connectAgent(a.mcpUrl, token);
    const again = await connectAgent(a.mcpUrl, token, { sessionId: ag.sessionId });
    agents.push(ag, again);
    await again.client.listTools();
    await ag.transport.terminateSession();
    await expect(again.client.listTools()).rejects.toThrow(/Session not found|404/);
  });
});
