// What a JSON-RPC error tells the agent when a handler threw something that is not an MCP error of ours. The SDK's
// Protocol answers any thrown error with its message, so a database fault would reach the agent as Prisma's or
// node-postgres's text (the statement, the table, the server's address). A database that is down or restarting is
// said so ("retry shortly"); any other database error is an internal error; the cause is logged, never sent.
// Our own errors (McpError, GatewayError) and errors with a numeric JSON-RPC code (the SDK's own checks, an
// upstream's relayed) pass as they are.
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { isDatabaseUnavailable } from "../db/database-unavailable";
import { GatewayError } from "../errors";
import type { Logger } from "../logger";

export const DATABASE_UNAVAILABLE_MESSAGE = "The gateway's database is unavailable; retry shortly.";

/** Prisma's client errors and PostgreSQL's (node-postgres DatabaseError: a five-character SQLSTATE and a severity). */
function isDatabaseError(err: unknown, depth = 0): boolean {
  if (!err || typeof err !== "object" || depth > 6) return false;
  const e = err as { name?: unknown; code?: unknown; severity?: unknown; cause?: unknown };
  if (typeof e.name === "string" && e.name.startsWith("PrismaClient")) return true;
  if (typeof e.code === "string" && /^[0-9A-Z]{5}$/.test(e.code) && typeof e.severity === "string") return true;
  return isDatabaseError(e.cause, depth + 1);
}

/** The error as the agent may see it: itself, or a plain McpError in place of a database fault. */
export function publicError(err: unknown, log?: Logger): unknown {
  // Our own errors say what happened in words meant for the caller, whatever their cause.
  if (err instanceof McpError || err instanceof GatewayError) return err;
  if (isDatabaseUnavailable(err)) {
    log?.warn({ err }, "an MCP request met the database unavailable");
    return new McpError(ErrorCode.InternalError, DATABASE_UNAVAILABLE_MESSAGE);
  }
  if (isDatabaseError(err)) {
    log?.error({ err }, "an MCP request failed in the database");
    return new McpError(ErrorCode.InternalError, "Internal error");
  }
  return err;
}

/** The server, each request handler registered from now on answering database faults through publicError. */
export function answeringPublicErrors(server: Server, log?: Logger): Server {
  const register = server.setRequestHandler.bind(server);
  server.setRequestHandler = ((schema: Parameters<Server["setRequestHandler"]>[0], handler: (...args: unknown[]) => unknown) =>
    register(schema, (async (...args: unknown[]) => {
      try {
        return await handler(...args);
      } catch (err) {
        throw publicError(err, log);
      }
    }) as never)) as Server["setRequestHandler"];
  return server;
}
