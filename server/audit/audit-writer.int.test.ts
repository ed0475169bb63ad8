// Audit events are group-committed: under concurrent load every call still has its own committed event
// before its answer, and a call whose event cannot be committed is answered with an error.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertUser, userContext } from "../test/contexts";
import {
  connectAgent,
  firstText,
  misbehavingServer,
  removeTempDirs,
  startTestGateway,
  tempDir,
  userWithToken,
  type Agent,
  type TestGateway,
} from "../test/gateway-harness";
import { createTestDb, truncateAll } from "../test/test-db";

describe("audit group commit", () => {
  const db = createTestDb();
  let tg: TestGateway;
  const agents: Agent[] = [];
  const toolCalls = () => db.auditEvent.count({ where: { action: "tool.called" } });

  beforeAll(async () => {
    await truncateAll(db);
    tg = await startTestGateway();
    const admin = userContext(await insertUser(db, { role: "ADMIN" }));
    const { server } = await tg.gateway.registry.register(admin, misbehavingServer(await tempDir("audit-gc"), { slug: "gc" }));
    if (server.status !== "HEALTHY") throw new Error(server.lastError ?? "gc did not start");
    const { token } = await userWithToken(db);
    for (let i = 0; i < 10; i++) agents.push(await connectAgent(tg.mcpUrl, token));
  });

  afterAll(async () => {
    for (const ag of agents) await ag.close();
    await tg?.close();
    await db.$disconnect();
    await removeTempDirs();
  });

  it("50 concurrent calls leave 50 events, each committed before its answer", async () => {
    const before = await toolCalls();
    let answered = 0;
    const shortfalls: number[] = [];
    await Promise.all(
      Array.from({ length: 50 }, async (_, i) => {
        const result = await agents[i % agents.length]!.client.callTool({ name: "gc__counted", arguments: { name: `n${i}` } });
        expect(result.isError ?? false, firstText(result)).toBe(false);
        // Every call answered so far has its event committed already.
        const n = ++answered;
        const committed = (await toolCalls()) - before;
        if (committed < n) shortfalls.push(n - committed);
      }),
    );
    expect(shortfalls).toEqual([]);
    expect((await toolCalls()) - before).toBe(50);
    const rows = await db.auditEvent.findMany({ where: { action: "tool.called" }, orderBy: { id: "desc" }, take: 50 });
    expect(new Set(rows.map((r) => r.requestId)).size).toBe(50);
    expect(rows.every((r) => r.status === "ok" && r.toolName === "gc__counted" && r.endpoint === "mcp")).toBe(true);
    // occurredAt is set by the gateway and read back as the same instant.
    expect(rows.every((r) => Math.abs(r.occurredAt.getTime() - Date.now()) < 60_000)).toBe(true);
  });

  it("a call whose audit event cannot be committed is answered with an error, not its result", async () => {
    // Make every new tool.called row fail its insert, as a full disk or a broken table would.
    await db.$executeRawUnsafe(`ALTER TABLE audit_events ADD CONSTRAINT test_refuse_tool_calls CHECK (action <> 'tool.called') NOT VALID`);
    try {
      const before = await toolCalls();
      await expect(agents[0]!.client.callTool({ name: "gc__counted", arguments: { name: "unaudited" } })).rejects.toThrow(/could not be audited/);
      expect(await toolCalls()).toBe(before);
    } finally {
      await db.$executeRawUnsafe(`ALTER TABLE audit_events DROP CONSTRAINT test_refuse_tool_calls`);
    }
    // The next call is audited again.
    const result = await agents[0]!.client.callTool({ name: "gc__counted", arguments: { name: "again" } });
    expect(result.isError ?? false).toBe(false);
  });
});
