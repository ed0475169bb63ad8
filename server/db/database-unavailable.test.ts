import { describe, expect, it } from "vitest";
import { isDatabaseUnavailable } from "./database-unavailable";

const withCode = (code: string, message = "x") => Object.assign(new Error(message), { code });

describe("isDatabaseUnavailable", () => {
  it.each([
    ["refused connection (pg)", withCode("ECONNREFUSED")],
    ["reset connection", withCode("ECONNRESET")],
    ["admin shutdown (57P01)", withCode("57P01", "terminating connection due to administrator command")],
    ["cannot connect now (57P03)", withCode("57P03", "the database system is starting up")],
    ["connection failure (08006)", withCode("08006")],
    ["too many connections (53300)", withCode("53300")],
    ["Prisma can't reach (P1001)", withCode("P1001")],
    ["Prisma pool timeout (P2024)", withCode("P2024")],
    ["Prisma initialization error code", Object.assign(new Error("x"), { errorCode: "P1001" })],
    ["pg's terminated message", new Error("Connection terminated unexpectedly")],
    ["pg's client after its connection ended", new Error("Client has encountered a connection error and is not queryable")],
    ["pg's closed client", new Error("Client was closed and is not queryable")],
    ["Prisma's adapter on a closed connection", new Error("Error in PostgreSQL connection: Error { kind: Closed, cause: None }")],
    ["nested in cause", new Error("query failed", { cause: withCode("ECONNREFUSED") })],
    ["inside an AggregateError", new AggregateError([withCode("ECONNREFUSED")], "connect failed")],
    [
      "Prisma's driver adapter error for an admin shutdown (PostgreSQL's SQLSTATE under meta)",
      Object.assign(new Error("Invalid `prisma.agentSession.findUnique()` invocation: Database error. Code: `57P01`."), {
        code: "P2010",
        meta: { driverAdapterError: { name: "DriverAdapterError", cause: { originalCode: "57P01", kind: "postgres", code: "57P01", severity: "FATAL" } } },
      }),
    ],
  ])("%s: unavailable", (_, err) => expect(isDatabaseUnavailable(err)).toBe(true));

  it.each([
    ["a unique violation (23505)", withCode("23505")],
    ["bad input (22P02)", withCode("22P02")],
    ["a plain bug", new TypeError("x is undefined")],
    ["an upstream's closed MCP connection", new Error("MCP error -32000: Connection closed")],
    ["a string", "ECONNREFUSED"],
    ["null", null],
    ["a cause cycle", (() => { const a: { cause?: unknown } = {}; a.cause = a; return a; })()],
  ])("%s: not unavailable", (_, err) => expect(isDatabaseUnavailable(err)).toBe(false));
});
