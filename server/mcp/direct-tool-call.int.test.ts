// The direct tools/call path (D81) answers what the SDK's path answers: the same request sent plainly (direct)
// and as a batch of one (the SDK's way) gets the same result, the same refusal, and one audit event each.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertUser, userContext } from "../test/contexts";
import { connectAgent, everythingServer, removeTempDirs, startTestGateway, userWithToken, type Agent, type TestGateway } from "../test/gateway-harness";
import { createTestDb, truncateAll } from "../test/test-db";

type Answer = { id: unknown; result?: unknown; error?: unknown };

describe("direct tools/call", () => {
  const db = createTestDb();
  let tg: TestGateway;
  let agent: Agent;

  /** One raw POST of `body` in the agent's MCP session: the answer's content type and its JSON-RPC message. */
  async function post(body: unknown): Promise<{ type: string | null; answer: Answer }> {
    const res = await fetch(new URL("/mcp", tg.mcpUrl), {
      method: "POST",
      headers: { authorization: `Bearer ${agent.token}`, "mcp-session-id": agent.sessionId, accept: "application/json, text/event-stream", "content-type": "application/json", "mcp-protocol-version": "2025-06-18" },
      body: JSON.stringify(body),
    });
    expect(res.status).toBe(200);
    const json = (await res.json()) as Answer | Answer[];
    return { type: res.headers.get("content-type"), answer: Array.isArray(json) ? json[0]! : json };
  }
  const request = (id: number, params: unknown) => ({ jsonrpc: "2.0", id, method: "tools/call", params });
  const events = (requestIdSuffix: string) => db.auditEvent.findMany({ where: { action: "tool.called", requestId: { endsWith: requestIdSuffix } } });

  beforeAll(async () => {
    await truncateAll(db);
    tg = await startTestGateway();
    const admin = userContext(await insertUser(db, { role: "ADMIN" }));
    const { server } = await tg.gateway.registry.register(admin, everythingServer());
    if (server.status !== "HEALTHY") throw new Error(server.lastError ?? "everything did not start");
    const { token } = await userWithToken(db);
    agent = await connectAgent(new URL("/mcp", tg.mcpUrl), token);
  }, 60_000);

  afterAll(async () => {
    await agent?.close();
    await tg?.close();
    await db.$disconnect();
    await removeTempDirs();
  });

  let nextId = 1000;
  it.each([
    ["a result", { name: "everything__echo", arguments: { message: "hello" } }],
    ["a schema refusal (a tool error)", { name: "everything__echo", arguments: { message: 5 } }],
    ["an unknown tool", { name: "everything__nope", arguments: {} }],
    ["a malformed name", { name: "everything__echo\u0000", arguments: { message: "x" } }],
  ])("%s: the same answer directly and through the SDK, each audited once", async (_what, params) => {
    const [a, b] = [(nextId += 2), nextId + 1];
    const direct = await post(request(a, params));
    const viaSdk = await post([request(b, params)]);
    expect(direct.type).toBe("application/json");
    expect({ ...direct.answer, id: 0 }).toEqual({ ...viaSdk.answer, id: 0 });
    expect(direct.answer.id).toBe(a);
    for (const id of [a, b]) expect(await events(`:${String(id)}`)).toHaveLength(1);
  });
});
