// A tool name that cannot name any tool (NUL and other control characters, look-alikes, over-long) is refused
// with invalid_tool_name on /mcp, /mcp/s/<server>, /mcp/code (direct and from a program) and the console's
// REST call, before it is looked up; every refusal leaves one security audit event holding the name escaped.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RequestContext } from "../context";
import { isGatewayError } from "../errors";
import { insertUser, userContext } from "../test/contexts";
import { connectAgent, errorMeta, firstText, misbehavingServer, removeTempDirs, startTestGateway, tempDir, userWithToken, type Agent, type TestGateway } from "../test/gateway-harness";
import { createTestDb, truncateAll } from "../test/test-db";

const MALFORMED: [string, string, string][] = [
  ["a NUL byte", "named__counted\u0000", "named__counted\\u0000"],
  ["a bell character", "named__count\u0007ed", "named__count\\u0007ed"],
  ["a newline that could forge a log line", "named__counted\nINFO forged", "named__counted\\u000aINFO forged"],
  ["a lone surrogate", "named__counted\ud800", "named__counted\\ud800"],
  ["a Cyrillic look-alike", "n\u0430med__counted", "n\\u0430med__counted"],
  ["a trailing space", "named__counted ", "named__counted "],
];

describe("invalid_tool_name", () => {
  const db = createTestDb();
  let tg: TestGateway;
  let admin: RequestContext;
  const agents: Agent[] = [];
  let aggregate: Agent;
  let transparent: Agent;
  let code: Agent;

  const refusals = (target: string) => db.auditEvent.findMany({ where: { action: "tool.called", errorCode: "invalid_tool_name", toolName: target } });
  const upstreamCalls = () => db.auditEvent.count({ where: { action: "tool.called", toolName: "named__counted", status: "ok" } });

  beforeAll(async () => {
    await truncateAll(db);
    tg = await startTestGateway();
    admin = userContext(await insertUser(db, { role: "ADMIN" }));
    const { server } = await tg.gateway.registry.register(admin, misbehavingServer(await tempDir("invalid-name"), { slug: "named" }));
    if (server.status !== "HEALTHY") throw new Error(server.lastError ?? "named did not start");
    const { token } = await userWithToken(db);
    for (const path of ["/mcp", "/mcp/s/named", "/mcp/code"]) agents.push(await connectAgent(new URL(path, tg.mcpUrl), token));
    [aggregate, transparent, code] = agents as [Agent, Agent, Agent];
  }, 60_000);

  afterAll(async () => {
    for (const ag of agents) await ag.close();
    await tg?.close();
    await db.$disconnect();
    await removeTempDirs();
  });

  it.each(MALFORMED)("POST /mcp tools/call – %s: a tool error invalid_tool_name and one security event with the name escaped", async (_label, name, shown) => {
    const before = await upstreamCalls();
    const result = await aggregate.client.callTool({ name, arguments: { name: "x" } });
    expect(result.isError).toBe(true);
    expect(errorMeta(result).code, firstText(result)).toBe("invalid_tool_name");
    expect(firstText(result)).toContain(shown);
    const rows = await refusals(shown);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: "denied", decision: "deny", category: "security", endpoint: "mcp", arguments: { keys: ["name"] } });
    expect(await upstreamCalls()).toBe(before);
  });

  it("POST /mcp tools/call – an over-long name is refused with its length, and stored cut", async () => {
    const name = `named__${"x".repeat(5000)}`;
    const result = await aggregate.client.callTool({ name, arguments: {} });
    expect(errorMeta(result).code).toBe("invalid_tool_name");
    expect(firstText(result)).toMatch(/is 5007 characters long; a tool name has at most 193/);
    const [row] = await db.auditEvent.findMany({ where: { errorCode: "invalid_tool_name", toolName: { startsWith: "named__xxx" } } });
    expect(row?.toolName?.length).toBe(194);
  });

  it("a well-formed name that names nothing is still unknown_tool, not invalid_tool_name", async () => {
    await expect(aggregate.client.callTool({ name: "named__no_such_tool", arguments: {} })).rejects.toThrow(/unknown_tool/);
  });

  // The agent's SDK prefixes the code to what the gateway sends: the gateway must not send it prefixed already.
  it.each([
    ["/mcp", 0, "named__no_such_tool", "Unknown tool named__no_such_tool. List the tools to see what you can call."],
    ["/mcp/s/named", 1, "no_such_tool", "Unknown tool no_such_tool. List the tools to see what you can call."],
    ["/mcp/code", 2, "named__no_such_tool", "This endpoint offers search_tools and execute_code; call named__no_such_tool from a program: await tools.<server>.<tool>(args)."],
  ] as const)("POST %s tools/call – an unknown tool's error carries the MCP error prefix once", async (_path, index, name, reason) => {
    const err = await agents[index]!.client.callTool({ name, arguments: {} }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).message).toBe(`MCP error -32602: [unknown_tool] ${reason}`);
  });

  it("POST /mcp/s/named tools/call – a NUL in the name is refused before the upstream session sees it", async () => {
    const result = await transparent.client.callTool({ name: "counted\u0000", arguments: {} });
    expect(errorMeta(result).code).toBe("invalid_tool_name");
    expect(await refusals("counted\\u0000")).toMatchObject([{ endpoint: "mcp/s/named", serverSlug: "named", category: "security" }]);
  });

  it("POST /mcp/code – a direct call and a program's inner call with a control character are refused and audited", async () => {
    const direct = await code.client.callTool({ name: "execute_code\u0000", arguments: {} });
    expect(errorMeta(direct).code).toBe("invalid_tool_name");
    expect(await refusals("execute_code\\u0000")).toMatchObject([{ endpoint: "mcp/code", category: "security" }]);

    const ran = await code.client.callTool({
      name: "execute_code",
      arguments: { code: `try { await tools.named["count\\u0001ed"]({}); return "ran"; } catch (e) { return { name: e.name, message: e.message }; }` },
    });
    expect(ran.isError ?? false, firstText(ran)).toBe(false);
    expect((ran.structuredContent as { result: unknown }).result).toMatchObject({ name: "InvalidToolName", message: expect.stringContaining("named__count\\u0001ed") as unknown });
    expect(await refusals("named__count\\u0001ed")).toMatchObject([{ endpoint: "code", category: "security", status: "denied" }]);
  });

  it("request_approval naming a tool with a control character is refused invalid_tool_name before the lookup", async () => {
    // A BEL, not a NUL: request_approval is a built-in tool whose arguments pass the schema step first, which
    // refuses a NUL in any argument as unstorable (invalid_arguments) before the tool looks at the name.
    const result = await aggregate.client.callTool({ name: "request_approval", arguments: { tool: "named__counted\u0007", arguments: {}, justification: "cleanup" } });
    expect(errorMeta(result).code, firstText(result)).toBe("invalid_tool_name");
    expect(firstText(result)).toContain("named__counted\\u0007");
    expect(await db.approval.count()).toBe(0);
  });

  it("POST /api/v1/tools/{name}/call (console) – 400 invalid_tool_name, audited", async () => {
    const err = await tg.gateway.tryToolCall(admin, "named__counted\u0000", {}).then(
      () => undefined,
      (e: unknown) => e,
    );
    if (!isGatewayError(err)) throw new Error(`expected a GatewayError, got ${String(err)}`);
    expect({ code: err.code, status: err.status }).toEqual({ code: "invalid_tool_name", status: 400 });
    expect(await refusals("named__counted\\u0000")).toEqual(expect.arrayContaining([expect.objectContaining({ endpoint: "console" })]));
  });
});
