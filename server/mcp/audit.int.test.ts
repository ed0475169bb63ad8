// Every tools/call leaves exactly one `tool.called` audit event, whatever its outcome: success, invalid
// arguments, the upstream's own error, timeout, crash, truncation.
import { redactor } from "../audit/redaction";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RequestContext } from "../context";
import type { User } from "../db/client";
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

type Case = {
  title: string;
  tool: string;
  args: Record<string, unknown>;
  expected: { status: "ok" | "error" | "denied"; errorCode: string | null; decision: string; truncated: boolean };
  minDurationMs?: number;
};

const CASES: Case[] = [
  {
    title: "success",
    tool: "audited__counted",
    args: { name: "jane.roe@example.com" },
    expected: { status: "ok", errorCode: null, decision: "allow", truncated: false },
  },
  {
    title: "invalid arguments",
    tool: "audited__counted",
    args: { count: 99 },
    expected: { status: "denied", errorCode: "invalid_arguments", decision: "deny", truncated: false },
  },
  {
    title: "the upstream's own tool error",
    tool: "audited__fail",
    args: {},
    expected: { status: "error", errorCode: null, decision: "allow", truncated: false },
  },
  {
    title: "timeout",
    tool: "audited__hang",
    args: {},
    expected: { status: "error", errorCode: "upstream_timeout", decision: "allow", truncated: false },
    minDurationMs: 300,
  },
  {
    title: "truncated output",
    tool: "audited__big",
    args: { kb: 200 },
    expected: { status: "ok", errorCode: null, decision: "allow", truncated: true },
  },
  {
    title: "upstream crash",
    tool: "audited__crash",
    args: {},
    expected: { status: "error", errorCode: "upstream_unavailable", decision: "allow", truncated: false },
  },
];

describe("audit of tool calls", () => {
  const db = createTestDb();
  let tg: TestGateway;
  let admin: RequestContext;
  let user: User;
  let ag: Agent;

  const toolCalls = () => db.auditEvent.findMany({ where: { action: "tool.called" }, orderBy: { id: "asc" } });

  beforeAll(async () => {
    await truncateAll(db);
    tg = await startTestGateway();
    admin = userContext(await insertUser(db, { role: "ADMIN" }));
    const dir = await tempDir("audit");
    const { server } = await tg.gateway.registry.register(admin, misbehavingServer(dir, { slug: "audited" }));
    if (server.status !== "HEALTHY") throw new Error(server.lastError ?? "audited did not start");
    await tg.gateway.registry.updateTool(admin, "audited__hang", { timeoutMs: 300 });
    const created = await userWithToken(db);
    user = created.user;
    ag = await connectAgent(tg.mcpUrl, created.token);
  });

  afterAll(async () => {
    await ag?.close();
    await tg?.close();
    await db.$disconnect();
    await removeTempDirs();
  });

  for (const c of CASES) {
    it(`tools/call – ${c.title}: exactly one tool.called row with status ${c.expected.status}${c.expected.errorCode ? ` / ${c.expected.errorCode}` : ""}`, async () => {
      const before = await toolCalls();
      const result = await ag.client.callTool({ name: c.tool, arguments: c.args });
      expect(result.isError ?? false, firstText(result)).toBe(c.expected.status !== "ok");
      const after = await toolCalls();
      expect(after.length - before.length).toBe(1);
      const row = after.at(-1)!;
      expect(row).toMatchObject({
        ...c.expected,
        category: c.expected.status === "denied" ? "security" : "gateway",
        actorType: "user",
        userId: user.id,
        endpoint: "mcp",
        serverSlug: "audited",
        toolName: c.tool,
        upstreamVersion: "1.0.0",
        // The arguments as the redactor leaves them: values kept, personal data replaced by a tag.
        arguments: redactor().value(c.args),
      });
      expect(row.durationMs).toEqual(expect.any(Number));
      expect(row.durationMs!).toBeGreaterThanOrEqual(c.minDurationMs ?? 0);
      expect(row.durationMs!).toBeLessThan(10_000);
      expect(row.requestId).toMatch(/:\d+$/); // the HTTP request id and the JSON-RPC id
      expect(JSON.stringify(row.arguments)).not.toContain("jane.roe@example.com");
    });
  }

  it("concurrent calls each get their own row", async () => {
    const before = (await toolCalls()).length;
    await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        ag.client.callTool({ name: "audited__counted", arguments: { name: `n${i}` } }),
      ),
    );
    const rows = (await toolCalls()).slice(before);
    expect(rows).toHaveLength(8);
    expect(new Set(rows.map((r) => r.requestId)).size).toBe(8);
  });

  it("a console try-it call is audited with endpoint console", async () => {
    const before = (await toolCalls()).length;
    const result = await tg.gateway.tryToolCall(admin, "audited__counted", { name: "console" });
    expect(result.isError ?? false).toBe(false);
    const rows = (await toolCalls()).slice(before);
    expect(rows).toMatchObject([
      {
        endpoint: "console",
        status: "ok",
        toolName: "audited__counted",
        userId: (admin.actor as { userId: string }).userId,
      },
    ]);
  });

});
