// Code mode over real MCP: an SDK agent on /mcp/code sees only the code-mode tools, finds upstream tools with
// search_tools and calls them from programs run by execute_code; every inner call passes the gateway pipeline
// (whitelist, tier, audit under the execution's request id) against real stdio upstreams.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TASK_TOOL_NAMES } from "../tasks/task-tools";
import { agentToken, connectAgent, everythingServer, firstText, misbehavingServer, setUpGatewayTest, type Agent, type GatewayTestEnv } from "../test/gateway-harness";
import { createTestDb } from "../test/test-db";
import { parsePromText, sampleValue } from "../test/prom-text";

type Run = { result?: unknown; error?: { name: string; message: string; approvalId?: string }; logs: string[]; toolCalls: number; workspaceOps?: number; durationMs: number; truncated?: boolean };

describe("code mode (/mcp/code)", () => {
  const db = createTestDb();
  let env: GatewayTestEnv;
  let agent: Agent;
  let codeUrl: URL;
  let workersBefore: number | undefined;
  const codeModeWorkers = async () => sampleValue(parsePromText(await env.gateways[0]!.gateway.metrics().scrape()), "portcullis_code_mode_workers");

  const run = async (ag: Agent, code: string, extra: Record<string, unknown> = {}) => {
    const r = await ag.client.callTool({ name: "execute_code", arguments: { code, ...extra } });
    return { raw: r, run: r.structuredContent as Run };
  };

  beforeAll(async () => {
    env = await setUpGatewayTest(db, "codemode");
    const g = env.gateways[0]!.gateway;
    await g.registry.register(env.admin, everythingServer());
    await g.registry.register(env.admin, misbehavingServer(env.dir, { slug: "ops" }));
    await g.registry.updateTool(env.admin, "ops__slow_write", { riskTier: "HIGH" });
    // Started as `portcullis start` starts it: code mode's workers are not made until code mode is needed (D185).
    await g.startUpstreams();
    workersBefore = await codeModeWorkers();
    codeUrl = new URL("/mcp/code", env.gateways[0]!.mcpUrl);
    agent = await connectAgent(codeUrl, env.token);
    env.agents.push(agent);
  }, 60_000);

  afterAll(async () => {
    await env.close();
  });

  it("makes code mode's workers when the first code-mode session opens, not at start (D185)", async () => {
    expect(workersBefore).toBe(0);
    expect(await codeModeWorkers()).toBe(2);
  });

  it("lists only search_tools, browse_catalog, execute_code, the approval and the task tools, whatever the upstreams offer", async () => {
    const names = (await agent.client.listTools()).tools.map((t) => t.name).sort();
    expect(names).toEqual(["browse_catalog", "execute_code", "get_approval_status", "request_approval", "search_tools", ...TASK_TOOL_NAMES].sort());
    // The same agent on /mcp sees the upstream tools themselves.
    const direct = await env.agent();
    expect((await direct.client.listTools()).tools.length).toBeGreaterThan(names.length + 10);
  });

  it("search_tools ranks the session's tools, one compact line each, and gives TypeScript declarations in full detail", async () => {
    const summary = firstText(await agent.client.callTool({ name: "search_tools", arguments: { query: "sum of two numbers", limit: 3 } })).split("\n");
    expect(summary[0]).toMatch(/^tools\.everything\["get-sum"\]\(\{a: number, b: number\}\) — /);
    const names = firstText(await agent.client.callTool({ name: "search_tools", arguments: { query: "sum", detail: "name", limit: 1 } }));
    expect(names).toBe('tools.everything["get-sum"]');
    const full = firstText(await agent.client.callTool({ name: "search_tools", arguments: { query: "weather structured content", detail: "full", limit: 1 } }));
    expect(full).toMatch(/temperature: number/);
    expect(full).toMatch(/"New York" \| "Chicago" \| "Los Angeles"/);
    const none = firstText(await agent.client.callTool({ name: "search_tools", arguments: { query: "zzzqqq" } }));
    expect(none).toMatch(/No tool you may call matches/);
  });

  it("runs a program that calls tools: structured results for tools with an output schema, the CallToolResult otherwise", async () => {
    const { raw, run: r } = await run(
      agent,
      `const w = await tools.everything["get-structured-content"]({ location: "Chicago" });
       const s = await tools.everything["get-sum"]({ a: 2, b: 3 });
       console.log("weather", w.conditions);
       return { temperature: w.temperature, sum: s.content[0].text };`,
    );
    expect(raw.isError ?? false, firstText(raw)).toBe(false);
    expect(r.result).toMatchObject({ temperature: 36 });
    expect(String((r.result as { sum: string }).sum)).toContain("5");
    expect(r.logs).toEqual(["weather Light rain / drizzle"]);
    expect(r.toolCalls).toBe(2);
  });

  it("counts a program's tool calls apart from its workspace operations", async () => {
    const { raw, run: r } = await run(
      agent,
      `const a = await tools.everything["get-sum"]({ a: 1, b: 2 });
       const b = await tools.everything["get-sum"]({ a: 3, b: 4 });
       await workspace.set("counted/sums", [a.content[0].text, b.content[0].text]);
       return "saved";`,
    );
    expect(raw.isError ?? false, firstText(raw)).toBe(false);
    expect(r.toolCalls).toBe(2);
    expect(r.workspaceOps).toBe(1);
  });

  it("audits every inner call through the pipeline under the execution's request id", async () => {
    await run(agent, `return (await tools.everything["get-sum"]({ a: 40, b: 2 })).content[0].text;`);
    const exec = await db.auditEvent.findFirstOrThrow({ where: { action: "tool.called", toolName: "portcullis__execute_code" }, orderBy: { id: "desc" } });
    const inner = await db.auditEvent.findMany({ where: { requestId: exec.requestId, toolName: "everything__get-sum" } });
    expect(inner).toHaveLength(1);
    expect(inner[0]).toMatchObject({ endpoint: "code", status: "ok", decision: "allow" });
  });

  it("runs Promise.all over tools in parallel", async () => {
    const { run: r } = await run(agent, `const t = Date.now(); await Promise.all([1,2,3,4,5].map((i) => tools.ops.slow_read({ ms: 400, tag: "par" + i }))); return Date.now() - t;`);
    expect(r.error).toBeUndefined();
    expect(r.result as number).toBeLessThan(5 * 400 * 0.6);
  });

  it("a HIGH-tier tool throws ApprovalRequired carrying the approval id; the program may return it", async () => {
    const { run: r } = await run(agent, `try { await tools.ops.slow_write({ ms: 10, tag: "held" }); return "ran"; } catch (e) { return { name: e.name, approvalId: e.approvalId }; }`);
    const held = r.result as { name: string; approvalId: string };
    expect(held.name).toBe("ApprovalRequired");
    const approval = await db.approval.findUniqueOrThrow({ where: { id: held.approvalId } });
    expect(approval).toMatchObject({ status: "PENDING", toolName: "ops__slow_write" });
  });

  it("least privilege holds inside programs: tools off the session's whitelist are neither found nor callable", async () => {
    const user = (await db.agentSession.findFirstOrThrow({ include: { user: true } })).user;
    const narrow = await connectAgent(codeUrl, await agentToken(db, user, { tools: ["everything__get-sum"] }));
    env.agents.push(narrow);
    const search = async (query: string) => firstText(await narrow.client.callTool({ name: "search_tools", arguments: { query, detail: "name", limit: 50 } }));
    expect(await search("echo a message")).toMatch(/No tool you may call matches/);
    expect(await search("sum numbers")).toBe('tools.everything["get-sum"]');
    const { run: r } = await run(narrow, `return await tools.everything.echo({ message: "hi" });`);
    expect(r.error).toMatchObject({ name: "ToolCallRefused" });
    expect(r.error!.message).toMatch(/not allowed|whitelist/i);
  });

  it("refuses a direct call of an upstream tool on /mcp/code, naming the way to call it", async () => {
    const err = await agent.client.callTool({ name: "everything__echo", arguments: { message: "x" } }).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(err?.message).toMatch(/unknown_tool.*execute_code/s);
  });

  it("a runaway program is ended at its time limit and the endpoint carries on", async () => {
    const { raw, run: r } = await run(agent, `while (true) {}`, { timeoutMs: 300 });
    expect(raw.isError).toBe(true);
    expect(r.error?.name).toMatch(/Timeout/);
    const { run: ok } = await run(agent, `return 1 + 1;`);
    expect(ok.result).toBe(2);
  });

  it("keeps state in the user's workspace across runs and sessions, bounded", async () => {
    const { run: first } = await run(agent, `await workspace.set("report/q3", { rows: 42 }); return await workspace.list("report/");`);
    expect(first.result).toEqual(["report/q3"]);
    const other = await connectAgent(codeUrl, env.token); // another MCP session of the same user
    env.agents.push(other);
    const { run: second } = await run(other, `return (await workspace.get("report/q3")).rows;`);
    expect(second.result).toBe(42);
    const { run: bad } = await run(agent, `await workspace.set("bad key!", 1);`);
    expect(bad.error).toMatchObject({ name: "WorkspaceError" });
    const { run: big } = await run(agent, `await workspace.set("big", "x".repeat(70000));`);
    expect(big.error?.message).toMatch(/at most 65536 bytes/);
  });

  it("saves a skill and runs it in a later program with its input", async () => {
    const skill = "const s = await tools.everything['get-sum']({ a: input.a, b: input.b }); return { text: s.content[0].text, doubled: (input.a + input.b) * 2 };";
    const { run: saved } = await run(agent, `return await skills.save("double_sum", ${JSON.stringify(skill)}, "Twice a + b");`);
    expect(saved.error).toBeUndefined();
    const { run: used } = await run(agent, `return await skills.run("double_sum", { a: 20, b: 1 });`);
    expect(used.error).toBeUndefined();
    expect(used.result).toMatchObject({ doubled: 42 });
    expect((used.result as { text: string }).text).toContain("21");
    const { run: listed } = await run(agent, `return (await skills.list()).map((s) => s.name);`);
    expect(listed.result).toEqual(["double_sum"]);
    const { run: missing } = await run(agent, `return await skills.run("nope", {});`);
    expect(missing.error).toMatchObject({ name: "WorkspaceError" });
  });

  it("privacy: personal data in what returns becomes stable placeholders, restored when a later program passes them to a tool", async () => {
    const { run: first } = await run(agent, `const r = await tools.everything.echo({ message: "write to jane.doe@example.com" }); console.log(r.content[0].text); return r.content[0].text;`, { privacy: true });
    expect(first.result).toBe("Echo: write to [[email_1]]");
    expect(first.logs).toEqual(["Echo: write to [[email_1]]"]);
    expect(JSON.stringify(first)).not.toContain("jane.doe");
    // The model passes the placeholder on: the tool gets the address, the model sees the placeholder again.
    const { run: second } = await run(agent, `const r = await tools.everything.echo({ message: "[[email_1]]" }); return { sawAddress: r.content[0].text.includes("jane.doe@example.com"), text: r.content[0].text };`, { privacy: true });
    expect(second.result).toEqual({ sawAddress: true, text: "Echo: [[email_1]]" });
    // Without the option, values pass as they are; and the vault is not a key a program can list.
    const { run: plain } = await run(agent, `return [(await tools.everything.echo({ message: "jane.doe@example.com" })).content[0].text, await workspace.list("")];`);
    expect((plain.result as [string, string[]])[0]).toBe("Echo: jane.doe@example.com");
    expect((plain.result as [string, string[]])[1].some((k) => k.startsWith("$"))).toBe(false);
  });

  it("rejects bad arguments with a clear JSON-RPC error", async () => {
    const err = await agent.client.callTool({ name: "execute_code", arguments: { code: "" } }).then(
      () => undefined,
      (e: unknown) => e as Error & { code?: number },
    );
    expect(err?.code).toBe(-32602);
    expect(err?.message).toMatch(/code/);
  });
});
