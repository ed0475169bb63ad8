import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { CallToolRequestSchema, ListToolsRequestSchema, McpError, ErrorCode } from "@modelcontextprotocol/sdk/types.js";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { Prisma } from "../db/client";
import { GatewayError } from "../errors";
import { answeringPublicErrors, DATABASE_UNAVAILABLE_MESSAGE, publicError } from "./public-error";

const known = (code: string, message: string) => new Prisma.PrismaClientKnownRequestError(message, { code, clientVersion: "7" });

describe("publicError", () => {
  it.each([
    ["Prisma cannot reach the server", known("P1001", "Can't reach database server at `/tmp/pg/.s.PGSQL.5432`"), DATABASE_UNAVAILABLE_MESSAGE],
    ["PostgreSQL shutting down", Object.assign(new pg.DatabaseError("terminating connection due to administrator command", 0, "error"), { code: "57P01", severity: "FATAL" }), DATABASE_UNAVAILABLE_MESSAGE],
    ["a connection reset under Prisma", Object.assign(new Error("Invalid `prisma.auditEvent.create()` invocation"), { cause: Object.assign(new Error("read ECONNRESET"), { code: "ECONNRESET" }) }), DATABASE_UNAVAILABLE_MESSAGE],
    ["a unique violation naming the table", known("P2002", "Unique constraint failed on the fields: (`agentSessionId`,`toolName`) in table tasks"), "Internal error"],
    ["PostgreSQL's own error text", Object.assign(new pg.DatabaseError('relation "audit_events" does not exist', 0, "error"), { code: "42P01", severity: "ERROR" }), "Internal error"],
    ["a validation error showing the query", new Prisma.PrismaClientValidationError("Invalid `db.tool.findMany()` invocation: { where: { secret: … } }", { clientVersion: "7" }), "Internal error"],
  ])("answers %s without the database's text", (_label, err, message) => {
    const out = publicError(err);
    expect(out).toBeInstanceOf(McpError);
    expect(out).toMatchObject({ code: ErrorCode.InternalError, message: `MCP error -32603: ${message}` });
  });

  it("passes MCP errors and other errors as they are", () => {
    const ours = new McpError(ErrorCode.InvalidParams, "[unknown_tool] Unknown tool x");
    expect(publicError(ours)).toBe(ours);
    const withheld = new GatewayError("database_unavailable", "The call could not be audited, so its result is withheld.", undefined, { cause: known("P2002", "Unique constraint failed") });
    expect(publicError(withheld)).toBe(withheld);
    const upstream = Object.assign(new Error("The upstream refused"), { code: -32001 });
    expect(publicError(upstream)).toBe(upstream);
  });
});

describe("answeringPublicErrors", () => {
  it("answers a handler's database fault with the public text over a real MCP connection, and leaves our errors alone", async () => {
    const server = answeringPublicErrors(new Server({ name: "t", version: "1" }, { capabilities: { tools: {} } }));
    server.setRequestHandler(ListToolsRequestSchema, () => {
      throw known("P2002", "Unique constraint failed on the fields: (`secretColumn`) in table tasks");
    });
    server.setRequestHandler(CallToolRequestSchema, () => {
      throw new McpError(ErrorCode.InvalidParams, "[unknown_tool] Unknown tool x");
    });
    const [a, b] = InMemoryTransport.createLinkedPair();
    const client = new Client({ name: "c", version: "1" });
    await Promise.all([server.connect(a), client.connect(b)]);
    try {
      const listed = await client.listTools().then(() => undefined, (e: unknown) => e);
      expect(listed).toMatchObject({ code: ErrorCode.InternalError });
      expect(String((listed as Error).message)).not.toContain("secretColumn");
      const called = await client.callTool({ name: "x", arguments: {} }).then(() => undefined, (e: unknown) => e);
      expect(called).toMatchObject({ code: ErrorCode.InvalidParams });
      expect(String((called as Error).message)).toContain("unknown_tool");
    } finally {
      await client.close();
    }
  });
});
