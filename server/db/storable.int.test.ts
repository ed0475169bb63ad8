// Json columns written from what clients and upstreams send (an MCP session's client info, a stored SSE event)
// take NUL and lone surrogates on the run's real PostgreSQL: made storable instead of failing the write.
import { randomUUID } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { recordAudit } from "../audit/record-audit";
import { systemContext } from "../context";
import { createMcpSession } from "../mcp/mcp-sessions";
import { createStreamEventStore } from "../mcp/stream-events";
import { insertUser } from "../test/contexts";
import { createTestDb } from "../test/test-db";

describe("storable Json columns", () => {
  const db = createTestDb();
  afterAll(() => db.$disconnect());

  it("an MCP session whose client info and capability keys carry NUL and lone surrogates is stored", async () => {
    const user = await insertUser(db, { role: "USER" });
    const id = randomUUID();
    await createMcpSession(db, {
      id,
      userId: user.id,
      agentSessionId: null as unknown as string,
      endpoint: "mcp",
      protocolVersion: "2025-06-18",
      clientInfo: { name: "evil\u0000client", version: "\ud800" },
      capabilities: { "x\u0000": {} },
    });
    const row = await db.mcpSession.findUniqueOrThrow({ where: { id } });
    expect(row.clientInfo).toEqual({ name: "evil\u2400client", version: "\ufffd" });
    expect(row.capabilities).toEqual({ "x\u2400": {} });
  });

  it("an admin or security event (recordAudit) with NUL and lone surrogates in its text and details is stored, flagged", async () => {
    const requestId = randomUUID();
    await recordAudit(db, systemContext("test", requestId), { action: "auth.login_failed", category: "security", status: "denied", targetId: "t\u0000", reason: "bad \ud800", details: { email: "a\u0000@example.test", "k\udc00": 1 } });
    const row = await db.auditEvent.findFirstOrThrow({ where: { requestId } });
    expect(row).toMatchObject({ targetId: "t\u2400", reason: "bad \ufffd" });
    expect(row.details).toMatchObject({ "k\ufffd": 1, sanitized: expect.arrayContaining(["targetId", "details"]) as unknown });
  });

  it("an SSE event echoing NUL and lone surrogates is stored for resumption, exactly as it was sent", async () => {
    const store = createStreamEventStore(db, "s-1");
    const message = { jsonrpc: "2.0" as const, id: 1, error: { code: -32602, message: "Unknown tool: a\u0000\udc00" } };
    const id = await store.storeEvent("stream-1", message);
    const row = await db.mcpStreamEvent.findUniqueOrThrow({ where: { id: BigInt(id) } });
    // Kept as its JSON text (jsonb refuses those escapes), so a resumed client gets the very answer (D37).
    expect(JSON.parse((row.message as { $json: string }).$json)).toEqual(message);
  });
});
