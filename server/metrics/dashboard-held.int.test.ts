// The dashboard's Denials count refusals only: a HIGH-tier call held for an approver (on /mcp, /mcp/s/<server>
// and from a code-mode program) is counted as held, never as a denial, and the audit search's status filters
// (what the dashboard links to) find the same rows.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  misbehavingServer,
  setUpGatewayTest,
  connectAgent,
  type GatewayTestEnv,
  type TestGateway,
} from "../test/gateway-harness";
import { createTestDb } from "../test/test-db";
import { ZAuditQuery } from "../../lib/audit-schemas";

const HIGH = "ops__slow_write";
const DISABLED = "ops__counted";

describe("dashboard denials and held calls", () => {
  const db = createTestDb();
  let env: GatewayTestEnv;
  let g: TestGateway;

  beforeAll(async () => {
    env = await setUpGatewayTest(db, "dashboard-held", {
      tasks: { thresholdMs: 5000, sweepIntervalMs: 60_000, concurrency: 1, dedupeWindowMs: 0 },
      approvals: { ttlMs: 60_000, sweepIntervalMs: 60_000 },
    });
    g = env.gateways[0]!;
    await g.gateway.registry.register(env.admin, misbehavingServer(env.dir, { slug: "ops", timeoutMs: 60_000 }));
    await g.gateway.registry.updateTool(env.admin, HIGH, { riskTier: "HIGH" });
    await g.gateway.registry.updateTool(env.admin, DISABLED, { enabled: false });

    const aggregate = await env.agent();
    const held = await aggregate.client.callTool({ name: HIGH, arguments: { ms: 1, tag: "aggregate" } });
    expect(held.structuredContent).toMatchObject({ approval_status: "PENDING" });
    expect((await aggregate.client.callTool({ name: DISABLED, arguments: { name: "x" } })).isError).toBe(true);

    const transparent = await connectAgent(new URL("/mcp/s/ops", g.mcpUrl), env.token);
    env.agents.push(transparent);
    const heldThere = await transparent.client.callTool({
      name: "slow_write",
      arguments: { ms: 1, tag: "transparent" },
    });
    expect(heldThere.structuredContent).toMatchObject({ approval_status: "PENDING" });

    const code = await connectAgent(new URL("/mcp/code", g.mcpUrl), env.token);
    env.agents.push(code);
    const run = await code.client.callTool({
      name: "execute_code",
      arguments: { code: `try { await tools.ops.slow_write({ ms: 1, tag: "code" }); } catch (e) { return e.code; }` },
    });
    expect(JSON.stringify(run.content)).toContain("approval_required");
  });

  afterAll(async () => {
    await env?.close();
  });

  it("counts the three held calls as held and only the refused call as a denial", async () => {
    const admin = await db.user.findFirstOrThrow({ where: { role: "ADMIN" } });
    const d = await g.gateway.dashboard({ userId: admin.id, role: "ADMIN" }, { window: 15 });
    expect(d.totals).toMatchObject({ denials: 1, held: 3 });
    expect(d.series.reduce((n, p) => n + p.denials, 0)).toBe(1);
    expect(d.series.reduce((n, p) => n + p.held, 0)).toBe(3);
    expect(d.topTools.find((t) => t.tool === HIGH)).toMatchObject({ denials: 0 });
    expect(d.pendingApprovals.count).toBe(3);
  });

  it("the audit search's status filters find the same rows the dashboard counted", async () => {
    // The query strings the dashboard's Denials and Held bars link to, parsed as GET /api/v1/audit parses them.
    const denied = await g.gateway.audit.search(ZAuditQuery.parse({ action: "tool.called", status: "denied" }));
    const held = await g.gateway.audit.search(ZAuditQuery.parse({ action: "tool.called", status: "held" }));
    expect(denied.items.map((e) => e.toolName)).toEqual([DISABLED]);
    expect(held.items.map((e) => e.toolName).sort()).toEqual([HIGH, HIGH, HIGH]);
  });
});
