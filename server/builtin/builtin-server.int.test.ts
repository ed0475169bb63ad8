// The gateway's own tools as the built-in server `portcullis`, over real MCP on /mcp and /mcp/code: they are
// rate limited, bounded and refused by tier like upstream tools (settings on their registry rows), audited by
// the pipeline under `portcullis__<tool>`, and the server itself is reserved: one per database, however many
// processes start at once.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RequestContext } from "../context";
import { isGatewayError } from "../errors";
import { insertUser, userContext } from "../test/contexts";
import {
  agentToken,
  connectAgent,
  errorMeta,
  firstText,
  misbehavingServer,
  REPO_ROOT,
  removeTempDirs,
  spawnGatewayProcess,
  startTestGateway,
  stopGatewayProcess,
  tempDir,
  userWithToken,
  type Agent,
  type TestGateway,
} from "../test/gateway-harness";
import { createTestDb, truncateAll } from "../test/test-db";
import { BUILTIN_SLUG } from "./builtin-server";
import { builtinToolDefinitions } from "./builtin-tools";
import { ensureBuiltinServer } from "./ensure-builtin-server";
import { DEFAULT_EXEC_LIMITS } from "../codemode/executor";
import { seedDemo } from "../demo/seed-demo";
import { createLogger } from "../logger";

describe("the built-in server portcullis", () => {
  const db = createTestDb();
  let tg: TestGateway;
  let admin: RequestContext;
  let ag: Agent;
  let agentSessionId = "";
  let ownerId = "";
  const agents: Agent[] = [];

  const auditOf = (toolName: string) => db.auditEvent.findMany({ where: { action: "tool.called", toolName }, orderBy: { id: "asc" } });

  beforeAll(async () => {
    await truncateAll(db);
    tg = await startTestGateway();
    // As at start-up: the built-in server is made before anything is served.
    await tg.gateway.startUpstreams();
    admin = userContext(await insertUser(db, { role: "ADMIN" }));
    const { user, token } = await userWithToken(db);
    ownerId = user.id;
    agentSessionId = (await db.agentSession.findFirstOrThrow({ where: { userId: user.id } })).id;
    ag = await connectAgent(tg.mcpUrl, token);
    agents.push(ag);
  });

  afterAll(async () => {
    for (const a of agents) await a.close();
    await tg?.close();
    await db.$disconnect();
    await removeTempDirs();
  });

  it("is a registry server with a tool row per built-in tool, at the default tiers", async () => {
    const server = await db.upstreamServer.findUniqueOrThrow({ where: { slug: BUILTIN_SLUG }, include: { tools: { orderBy: { name: "asc" } } } });
    expect(server).toMatchObject({ transport: "BUILTIN", enabled: true });
    expect(server.activeVersionId).not.toBeNull();
    expect(Object.fromEntries(server.tools.map((t) => [t.gatewayName, t.riskTier]))).toEqual({
      portcullis__browse_catalog: "LOW",
      portcullis__cancel_task: "MEDIUM",
      portcullis__execute_code: "MEDIUM",
      portcullis__get_approval_status: "LOW",
      portcullis__get_task_result: "LOW",
      portcullis__get_task_status: "LOW",
      portcullis__list_my_tasks: "LOW",
      portcullis__request_approval: "MEDIUM",
      portcullis__search_tools: "LOW",
    });
    // Listed among the servers, but no endpoint serves it as an upstream.
    expect((await tg.gateway.registry.list()).map((s) => s.slug)).toContain(BUILTIN_SLUG);
    expect(await tg.gateway.registry.resolveServer(BUILTIN_SLUG, 0)).toBeNull();
  });

  it("tools/list – offers the gateway's own tools under their bare names, never portcullis__*", async () => {
    const names = (await ag.client.listTools()).tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(["get_task_status", "get_task_result", "cancel_task", "list_my_tasks", "request_approval", "get_approval_status"]));
    expect(names.filter((n) => n.startsWith(`${BUILTIN_SLUG}__`))).toEqual([]);
    // Like any name this endpoint does not offer: refused, and kept as a security event.
    await expect(ag.client.callTool({ name: "portcullis__request_approval", arguments: {} })).rejects.toThrow(/unknown_tool/);
    expect(await auditOf("portcullis__request_approval")).toMatchObject([{ status: "denied", errorCode: "unknown_tool", category: "security" }]);
  });

  it("a call is audited by the pipeline under portcullis__<tool>, with its endpoint", async () => {
    const result = await ag.client.callTool({ name: "get_task_status", arguments: { task_id: "no-such-task" } });
    expect(errorMeta(result).code).toBe("task_not_found");
    expect(await auditOf("portcullis__get_task_status")).toMatchObject([{ serverSlug: BUILTIN_SLUG, endpoint: "mcp", status: "error", errorCode: "task_not_found", decision: "allow", sessionId: agentSessionId }]);
  });

  it("rate limited: past the tool's rateLimitPerMinute the call is refused rate_limited and audited as a denial", async () => {
    await tg.gateway.registry.updateTool(admin, "portcullis__get_approval_status", { rateLimitPerMinute: 2 });
    const call = () => ag.client.callTool({ name: "get_approval_status", arguments: { approval_id: "nope" } });
    const codes = [];
    for (let i = 0; i < 3; i++) codes.push(errorMeta(await call()).code);
    expect(codes).toEqual(["approval_not_found", "approval_not_found", "rate_limited"]);
    const audit = await auditOf("portcullis__get_approval_status");
    expect(audit.map((e) => [e.status, e.errorCode])).toEqual([
      ["error", "approval_not_found"],
      ["error", "approval_not_found"],
      ["denied", "rate_limited"],
    ]);
    expect(audit[2]).toMatchObject({ decision: "deny", category: "security" });
  });

  it("output-bounded: a listing larger than the output bound is truncated like an upstream answer, and audited as such", async () => {
    // 100 finished tasks of this session, each with a long error message: ~1 MB of status lines.
    const long = "x".repeat(5000);
    await db.task.createMany({
      data: Array.from({ length: 100 }, (_, i) => ({ ownerId, agentSessionId, toolName: "files__read", arguments: {}, argumentsHash: `h${String(i)}`, status: "FAILED" as const, errorCode: "upstream_error", errorMessage: long, finishedAt: new Date() })),
    });
    const result = await ag.client.callTool({ name: "list_my_tasks", arguments: { limit: 100 } });
    expect(result._meta?.["portcullis/truncated"]).toMatchObject({ maxBytes: 100 * 1024 });
    expect(Buffer.byteLength(JSON.stringify(result.content))).toBeLessThanOrEqual(100 * 1024);
    expect(firstText(result)).toMatch(/^Task /);
    expect(await auditOf("portcullis__list_my_tasks")).toMatchObject([{ status: "ok", truncated: true }]);
  });

  it("refused by tier: raised to HIGH, a built-in tool is refused approval_required (nothing can run it later), audited", async () => {
    await tg.gateway.registry.updateTool(admin, "portcullis__cancel_task", { riskTier: "HIGH" });
    const result = await ag.client.callTool({ name: "cancel_task", arguments: { task_id: "whatever" } });
    expect(errorMeta(result).code).toBe("approval_required");
    expect(await auditOf("portcullis__cancel_task")).toMatchObject([{ status: "denied", decision: "require_approval", errorCode: "approval_required" }]);
    expect(await db.approval.count()).toBe(0);
    // Nor can it be approved ahead: request_approval refuses it.
    const ahead = await ag.client.callTool({ name: "request_approval", arguments: { tool: "portcullis__cancel_task", arguments: { task_id: "whatever" }, justification: "clean up" } });
    expect(errorMeta(ahead).code, firstText(ahead)).toBe("unknown_tool");
    expect(await db.approval.count()).toBe(0);
  });

  it("disabled: a built-in tool an admin disabled is not listed and its call is refused tool_disabled", async () => {
    await tg.gateway.registry.updateTool(admin, "portcullis__get_task_result", { enabled: false });
    expect((await ag.client.listTools()).tools.map((t) => t.name)).not.toContain("get_task_result");
    const result = await ag.client.callTool({ name: "get_task_result", arguments: { task_id: "x" } });
    expect(errorMeta(result).code).toBe("tool_disabled");
    expect(await auditOf("portcullis__get_task_result")).toMatchObject([{ status: "denied", errorCode: "tool_disabled" }]);
  });

  it("the session's tool whitelist does not hide the built-in tools: they act on the session's own tasks only", async () => {
    const { user } = await userWithToken(db);
    const narrow = await connectAgent(tg.mcpUrl, await agentToken(db, user, { tools: ["nothing__*"] }));
    agents.push(narrow);
    expect((await narrow.client.listTools()).tools.map((t) => t.name)).toEqual(expect.arrayContaining(["get_task_status", "list_my_tasks"]));
    const mine = await narrow.client.callTool({ name: "list_my_tasks", arguments: {} });
    expect(firstText(mine)).toBe("This session has no tasks.");
  });

  it("/mcp/code – search_tools passes the pipeline too: rate limited under portcullis__search_tools", async () => {
    const code = await connectAgent(new URL("/mcp/code", tg.http.url), ag.token);
    agents.push(code);
    await tg.gateway.registry.updateTool(admin, "portcullis__search_tools", { rateLimitPerMinute: 1 });
    const first = await code.client.callTool({ name: "search_tools", arguments: { query: "anything" } });
    expect(first.isError ?? false, firstText(first)).toBe(false);
    const second = await code.client.callTool({ name: "search_tools", arguments: { query: "anything" } });
    expect(errorMeta(second).code).toBe("rate_limited");
    expect((await auditOf("portcullis__search_tools")).map((e) => [e.endpoint, e.status])).toEqual([
      ["code", "ok"],
      ["code", "denied"],
    ]);
  });

  it("registering a server with the reserved slug is refused slug_reserved; removing or re-launching the built-in one builtin_server", async () => {
    const codeOf = async (p: Promise<unknown>) => {
      const err = await p.then(
        () => undefined,
        (e: unknown) => e,
      );
      if (!isGatewayError(err)) throw new Error(`expected a GatewayError, got ${String(err)}`);
      return [err.code, err.status];
    };
    expect(await codeOf(tg.gateway.registry.register(admin, misbehavingServer(await tempDir("builtin"), { slug: BUILTIN_SLUG })))).toEqual(["slug_reserved", 409]);
    expect(await codeOf(tg.gateway.registry.remove(admin, BUILTIN_SLUG))).toEqual(["builtin_server", 409]);
    expect(await codeOf(tg.gateway.registry.update(admin, BUILTIN_SLUG, { enabled: false }))).toEqual(["builtin_server", 409]);
    // Its own limits are an admin's to set.
    const { server } = await tg.gateway.registry.update(admin, BUILTIN_SLUG, { rateLimitPerMinute: 1000 });
    expect(server).toMatchObject({ transport: "builtin", rateLimitPerMinute: 1000, isolation: null });
    expect(await db.upstreamServer.count({ where: { slug: BUILTIN_SLUG } })).toBe(1);
  });

  it("many concurrent set-ups, and two gateway processes starting at once, make one built-in server with one version", async () => {
    const tools = builtinToolDefinitions({ pollSeconds: 5, limits: DEFAULT_EXEC_LIMITS });
    await db.upstreamServer.updateMany({ where: { slug: BUILTIN_SLUG }, data: { activeVersionId: null } });
    await db.upstreamServer.deleteMany({ where: { slug: BUILTIN_SLUG } });
    const made = await Promise.all(Array.from({ length: 8 }, () => ensureBuiltinServer(db, tools)));
    expect(new Set(made.map((m) => m.serverId)).size).toBe(1);
    expect(made.filter((m) => m.changed)).toHaveLength(1);
    expect(await db.serverVersion.count({ where: { serverId: made[0]!.serverId } })).toBe(1);

    await db.upstreamServer.updateMany({ where: { slug: BUILTIN_SLUG }, data: { activeVersionId: null } });
    await db.upstreamServer.deleteMany({ where: { slug: BUILTIN_SLUG } });
    // Each process sets the built-in server up at start, before it says it is ready.
    const started = await Promise.all([spawnGatewayProcess(), spawnGatewayProcess()]);
    try {
      const servers = await db.upstreamServer.findMany({ where: { slug: BUILTIN_SLUG }, include: { versions: true, tools: true } });
      expect(servers).toHaveLength(1);
      expect(servers[0]!.versions).toHaveLength(1);
      expect(servers[0]!.tools).toHaveLength(9);
    } finally {
      for (const s of started) await stopGatewayProcess(s.child);
    }
  });

  it("the demo servers are still seeded on a database that holds only the built-in server", async () => {
    expect(await db.upstreamServer.findMany({ select: { slug: true } })).toEqual([{ slug: BUILTIN_SLUG }]);
    const seeded = await seedDemo(db, createLogger("silent"), { adminDatabaseUrl: undefined, dataDir: await tempDir("builtin-demo"), root: REPO_ROOT });
    expect(seeded).toEqual(["files"]);
  });
});
