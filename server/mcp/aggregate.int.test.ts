// /mcp over real HTTP with the MCP SDK client: sessions in PostgreSQL, aggregated tools from real upstreams
// (server-memory, server-filesystem, the demo orders server) and the endpoint's HTTP-level answers.
import { APPROVAL_TOOL_NAMES } from "../approvals/approval-tools";
import { TASK_TOOL_NAMES } from "../tasks/task-tools";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RequestContext } from "../context";
import { ensureDemoDatabase } from "../demo/orders-db";
import { insertUser, userContext } from "../test/contexts";
import {
  connectAgent,
  everythingServer,
  filesystemServer,
  firstText,
  memoryServer,
  ordersServer,
  removeTempDirs,
  startTestGateway,
  tempDir,
  userWithToken,
  type Agent,
  type TestGateway,
} from "../test/gateway-harness";
import { createTestDb, testDatabaseUrl, truncateAll } from "../test/test-db";

const INIT = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
};
const LIST = { jsonrpc: "2.0", id: 2, method: "tools/list", params: {} };

describe("/mcp aggregate endpoint over Streamable HTTP", () => {
  const db = createTestDb();
  let a: TestGateway;
  let b: TestGateway | undefined;
  let admin: RequestContext;
  let token = "";
  let folder = "";
  const agents: Agent[] = [];

  async function agent(gateway: TestGateway = a, sessionId?: string): Promise<Agent> {
    const ag = await connectAgent(gateway.mcpUrl, token, sessionId ? { sessionId } : {});
    agents.push(ag);
    return ag;
  }

  function post(body: unknown, headers: Record<string, string> = {}): Promise<Response> {
    return fetch(a.mcpUrl, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        authorization: `Bearer ${token}`,
        ...headers,
      },
      body: typeof body === "string" ? body : JSON.stringify(body),
    });
  }

  beforeAll(async () => {
    await truncateAll(db);
    const demoUrl = await ensureDemoDatabase(testDatabaseUrl());
    a = await startTestGateway();
    admin = userContext(await insertUser(db, { role: "ADMIN" }));
    token = (await userWithToken(db)).token;
    folder = await tempDir("mcp-fs");
    const memoryFile = path.join(await tempDir("mcp-memory"), "memory.jsonl");
    for (const input of [
      memoryServer(memoryFile),
      filesystemServer(folder),
      ordersServer(demoUrl, 30),
      everythingServer(),
    ]) {
      const { server } = await a.gateway.registry.register(admin, input);
      if (server.status !== "HEALTHY") throw new Error(`${server.slug} is ${server.status}: ${server.lastError ?? ""}`);
    }
    // write_file is destructive (HIGH by default, which waits for an approval): this file tests the routing.
    await a.gateway.policy.bulkTier(admin, { tools: ["files__write_file"], riskTier: "MEDIUM" });
    // A disabled server's tools are not offered.
    await a.gateway.registry.update(admin, "everything", { enabled: false });
  });

  afterAll(async () => {
    for (const ag of agents) await ag.close();
    await b?.close();
    await a?.close();
    await db.$disconnect();
    await removeTempDirs();
  });

  it("initialize – answers with an Mcp-Session-Id and stores the session in PostgreSQL", async () => {
    const ag = await agent();
    expect(ag.sessionId).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(ag.client.getServerVersion()).toMatchObject({ name: "portcullis" });
    expect(ag.client.getServerCapabilities()?.tools).toEqual({ listChanged: true });
    const row = await db.mcpSession.findUniqueOrThrow({ where: { id: ag.sessionId } });
    expect(row).toMatchObject({
      endpoint: "mcp",
      closedAt: null,
      clientInfo: { name: "test-agent", version: "1.0.0" },
    });
    expect(row.protocolVersion).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it("tools/list – aggregates the tools of every enabled server under <server>__<tool>", async () => {
    const ag = await agent();
    const { tools } = await ag.client.listTools();
    const names = tools.map((t) => t.name);
    expect(names).toEqual(
      expect.arrayContaining([
        "memory__create_entities",
        "memory__read_graph",
        "files__write_file",
        "files__read_text_file",
        "orders__export_orders",
        "orders__query_orders",
      ]),
    );
    expect(names.filter((n) => n.startsWith("everything__"))).toEqual([]);
    const expected = await db.tool.findMany({
      where: { removedAt: null, enabled: true, server: { enabled: true, transport: { not: "BUILTIN" } } },
      select: { gatewayName: true },
    });
    // Every upstream tool, plus the gateway's own task tools (the built-in server's rows) under their bare names.
    expect([...names].sort()).toEqual([...expected.map((t) => t.gatewayName), ...TASK_TOOL_NAMES, ...APPROVAL_TOOL_NAMES].sort());
    // Definitions pass through unchanged apart from the name.
    const exportOrders = tools.find((t) => t.name === "orders__export_orders");
    expect(exportOrders?.inputSchema).toMatchObject({ properties: { format: { enum: ["csv", "jsonl"] } } });
    expect(exportOrders?.annotations).toMatchObject({ readOnlyHint: true });
  });

  it("tools/call – server-memory: create_entities, then read_graph sees the entity", async () => {
    const ag = await agent();
    const created = await ag.client.callTool({
      name: "memory__create_entities",
      arguments: { entities: [{ name: "Portcullis", entityType: "project", observations: ["an MCP gateway"] }] },
    });
    expect(created.isError ?? false).toBe(false);
    const graph = await ag.client.callTool({ name: "memory__read_graph", arguments: {} });
    expect(graph.isError ?? false).toBe(false);
    expect(firstText(graph)).toContain("Portcullis");
    expect(firstText(graph)).toContain("an MCP gateway");
  });

  it("tools/call – server-filesystem: write_file, then read_text_file returns the content", async () => {
    const ag = await agent();
    const file = path.join(folder, "note.txt");
    const written = await ag.client.callTool({
      name: "files__write_file",
      arguments: { path: file, content: "hello through the gateway\n" },
    });
    expect(written.isError ?? false, firstText(written)).toBe(false);
    expect(await readFile(file, "utf8")).toBe("hello through the gateway\n");
    const read = await ag.client.callTool({ name: "files__read_text_file", arguments: { path: file } });
    expect(firstText(read)).toBe("hello through the gateway\n");
    // Outside the allowed folder the upstream itself refuses: its error reaches the agent as a tool error.
    const outside = await ag.client.callTool({ name: "files__read_text_file", arguments: { path: "/etc/hostname" } });
    expect(outside.isError).toBe(true);
  });

  it("tools/call – progress from the orders server's export_orders reaches the client's onprogress", async () => {
    const ag = await agent();
    const progress: { progress: number; total?: number | undefined; message?: string | undefined }[] = [];
    const result = await ag.client.callTool(
      { name: "orders__export_orders", arguments: { format: "csv" } },
      undefined,
      {
        onprogress: (p) => progress.push(p),
      },
    );
    expect(result.isError ?? false, firstText(result)).toBe(false);
    expect(firstText(result).split("\n")[0]).toBe("id,customer_name,customer_email,status,total_cents,currency");
    // A notification that arrives in the same chunk as the result is dropped: the SDK handles notifications a
    // microtask after responses (shared/protocol.js _onnotification), by when the request is complete. So the
    // last step(s) may be missing; what arrives is 1, 2, 3, … in order.
    const steps = progress.map((p) => p.progress);
    expect(steps.length).toBeGreaterThanOrEqual(5);
    expect(steps).toEqual(Array.from({ length: steps.length }, (_, i) => i + 1));
    expect(progress[0]).toEqual({ progress: 1, total: 10, message: "exported 10%" });
  });

  it("a session started on gateway A continues on gateway B (same database, another process's pool)", async () => {
    const first = await agent(a);
    b = await startTestGateway();
    await b.gateway.startUpstreams();
    const onB = await agent(b, first.sessionId);
    const { tools } = await onB.client.listTools();
    expect(tools.map((t) => t.name)).toContain("memory__read_graph");
    // B runs its own server-memory process on the same memory file: it sees what A's created.
    const graph = await onB.client.callTool({ name: "memory__read_graph", arguments: {} });
    expect(firstText(graph)).toContain("Portcullis");
    const audit = await db.auditEvent.findFirst({
      where: { action: "tool.called", toolName: "memory__read_graph" },
      orderBy: { id: "desc" },
    });
    expect(audit).toMatchObject({ status: "ok", endpoint: "mcp" });
  });

  it("DELETE /mcp – ends the session; the id then answers 404", async () => {
    const ag = await agent();
    await ag.transport.terminateSession();
    expect((await db.mcpSession.findUniqueOrThrow({ where: { id: ag.sessionId } })).closedAt).not.toBeNull();
    const res = await post(LIST, { "mcp-session-id": ag.sessionId });
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ error: { code: -32001 } });
    const again = await fetch(a.mcpUrl, {
      method: "DELETE",
      headers: { authorization: `Bearer ${token}`, "mcp-session-id": ag.sessionId },
    });
    expect(again.status).toBe(404);
  });

  it("POST /mcp – 401 with a Bearer challenge without a token, with a malformed one, and with an unknown one", async () => {
    for (const authorization of [
      undefined,
      "Bearer nonsense",
      `Bearer pct_${"A".repeat(32)}`,
      `Basic ${btoa("a:b")}`,
    ]) {
      const res = await fetch(a.mcpUrl, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          ...(authorization && { authorization }),
        },
        body: JSON.stringify(INIT),
      });
      expect(res.status, String(authorization)).toBe(401);
      expect(res.headers.get("www-authenticate")).toMatch(/^Bearer realm=/);
      expect(await res.json()).toMatchObject({ jsonrpc: "2.0", error: { code: -32001 } });
    }
    expect(await db.mcpSession.count({ where: { clientInfo: { equals: { name: "raw", version: "1" } } } })).toBe(0);
  });

  it("POST /mcp – 404 for an unknown session id, and for another user's session", async () => {
    const unknown = await post(LIST, { "mcp-session-id": "no-such-session-id-000000000000" });
    expect(unknown.status).toBe(404);
    const mine = await agent();
    const other = await userWithToken(db);
    const theirs = await post(LIST, { "mcp-session-id": mine.sessionId, authorization: `Bearer ${other.token}` });
    expect(theirs.status).toBe(404);
  });

  it("POST /mcp – a plain JSON answer unless the request asks for progress, then an SSE stream", async () => {
    const ag = await agent();
    const headers = { "mcp-session-id": ag.sessionId, "mcp-protocol-version": "2025-06-18" };
    const plain = await post(LIST, headers);
    expect(plain.status).toBe(200);
    expect(plain.headers.get("content-type")).toContain("application/json");
    expect(((await plain.json()) as { result: { tools: unknown[] } }).result.tools.length).toBeGreaterThan(0);
    const withProgress = await post({ ...LIST, params: { _meta: { progressToken: "p1" } } }, headers);
    expect(withProgress.status).toBe(200);
    expect(withProgress.headers.get("content-type")).toContain("text/event-stream");
    expect(await withProgress.text()).toContain('"tools"');
  });

  it("POST /mcp – 400 when a non-initialize request has no session id", async () => {
    const res = await post(LIST);
    expect(res.status).toBe(400);
    const { error } = (await res.json()) as { error: { code: number; message: string } };
    expect(error.code).toBe(-32000);
    expect(error.message).toContain("Mcp-Session-Id");
  });

  it("POST /mcp – 413 for a body over 1 MB", async () => {
    const ag = await agent();
    const huge = {
      jsonrpc: "2.0",
      id: 3,
      method: "tools/call",
      params: { name: "memory__read_graph", arguments: { pad: "x".repeat(1_100_000) } },
    };
    const res = await post(huge, { "mcp-session-id": ag.sessionId });
    expect(res.status).toBe(413);
    const { error } = (await res.json()) as { error: { code: number; message: string } };
    expect(error).toEqual({ code: -32000, message: "Request too large: at most 1048576 bytes" });
  });

  it("POST /mcp – 400 with JSON-RPC -32700 for invalid JSON", async () => {
    const res = await post('{"jsonrpc": "2.0", "id": 1, "method": ', {});
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      jsonrpc: "2.0",
      id: null,
      error: { code: -32700, message: "Parse error: Invalid JSON" },
    });
  });

  it("tools/call – an unknown tool is a JSON-RPC error naming it, not a hang", async () => {
    const ag = await agent();
    await expect(ag.client.callTool({ name: "memory__no_such_tool", arguments: {} })).rejects.toThrow(
      /Unknown tool memory__no_such_tool/,
    );
  });
});
