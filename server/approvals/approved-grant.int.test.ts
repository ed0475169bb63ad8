// An approved request_approval grant is honoured: the agent works on a gateway in a process of its own, the
// approver decides through another gateway, both on the run's PostgreSQL, with the dedupe window on (as in
// production). The upstream is the misbehaving fixture's slow_write made HIGH tier; its own log says what ran.
import type { ChildProcess } from "node:child_process";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { User } from "../db/client";
import { insertUser, userContext } from "../test/contexts";
import { connectAgent, fixtureEvents, firstText, misbehavingServer, setUpGatewayTest, spawnGatewayProcess, stopGatewayProcess, waitUntil, type Agent, type GatewayTestEnv } from "../test/gateway-harness";
import { createTestDb, testDatabaseUrl } from "../test/test-db";

const TOOL = "ops__slow_write";
const ITERATIONS = 20;

type Held = { task_id: string; status: string; approval_id: string };
type Asked = { approval_id: string; status: string };

describe("an approved request_approval grant", () => {
  const db = createTestDb();
  let env: GatewayTestEnv;
  let child: ChildProcess | undefined;
  let agent: Agent;
  let approver: User;
  let seq = 0;
  const tag = (label: string) => `${label}-${String(++seq)}`;
  const starts = (t: string) => fixtureEvents(env.dir).filter((e) => e.event === "slow.start" && (e.args as { tag?: string }).tag === t).length;
  const call = (args: Record<string, unknown>) => agent.client.callTool({ name: TOOL, arguments: args });
  const approve = (id: string) => env.gateways[0]!.gateway.approvals.decide(userContext(approver), { userId: approver.id, role: approver.role }, id, { decision: "approve" });

  /** request_approval on the agent's process, approved on the other one. */
  async function granted(args: Record<string, unknown>): Promise<string> {
    const asked = (await agent.client.callTool({ name: "request_approval", arguments: { tool: TOOL, arguments: args, justification: "cleanup" } })).structuredContent as Asked;
    expect(asked.status).toBe("PENDING");
    const decided = await approve(asked.approval_id);
    expect(decided).toMatchObject({ kind: "ADVANCE", status: "APPROVED" });
    return asked.approval_id;
  }

  beforeAll(async () => {
    env = await setUpGatewayTest(db, "grant", {
      tasks: { thresholdMs: 5000, dedupeWindowMs: 30_000, sweepIntervalMs: 200 },
      approvals: { ttlMs: 60_000, sweepIntervalMs: 200 },
    });
    const a = env.gateways[0]!.gateway;
    await a.registry.register(env.admin, misbehavingServer(env.dir, { slug: "ops", timeoutMs: 60_000 }));
    await a.registry.updateTool(env.admin, TOOL, { riskTier: "HIGH" });
    approver = await insertUser(db, { role: "APPROVER" });
    let url: string;
    ({ child, url } = await spawnGatewayProcess({ TASK_THRESHOLD_MS: "5000", TASK_DEDUPE_WINDOW_SECONDS: "30", TASK_SWEEP_INTERVAL_MS: "200" }));
    agent = await connectAgent(new URL("/mcp", url), env.token);
    env.agents.push(agent);
  });

  afterAll(async () => {
    await stopGatewayProcess(child);
    await env?.close();
  });

  it(`request_approval ORD-8 → approved → ORD-9 held → ORD-8 twice at once: ORD-8 runs exactly once (${String(ITERATIONS)} times over)`, async () => {
    for (let i = 0; i < ITERATIONS; i++) {
      const ord8 = { ms: 0, tag: tag("ORD-8") };
      const grant = await granted(ord8);
      const ord9 = (await call({ ms: 0, tag: tag("ORD-9") })).structuredContent as Held;
      expect(ord9).toMatchObject({ status: "AWAITING_APPROVAL" });
      const answers = await Promise.all([call(ord8), call(ord8)]);
      const texts = answers.map(firstText);
      expect(texts.filter((t) => t === `slow_write ${ord8.tag} done`), `iteration ${String(i)}: ${JSON.stringify(texts)}`).toHaveLength(1);
      expect(starts(ord8.tag)).toBe(1);
      expect(await db.approval.findUniqueOrThrow({ where: { id: grant } })).toMatchObject({ status: "USED" });
    }
  });

  it("a granted call runs even while the same call waits as a held request", async () => {
    const args = { ms: 0, tag: tag("held-then-granted") };
    const held = (await call(args)).structuredContent as Held;
    expect(held).toMatchObject({ status: "AWAITING_APPROVAL" });
    const grant = await granted(args);
    expect(firstText(await call(args))).toBe(`slow_write ${args.tag} done`);
    expect(starts(args.tag)).toBe(1);
    expect(await db.approval.findUniqueOrThrow({ where: { id: grant } })).toMatchObject({ status: "USED" });
    // The held request is still the approvers' to decide: approved too, it runs as its own task.
    expect(await db.task.findUniqueOrThrow({ where: { id: held.task_id } })).toMatchObject({ status: "AWAITING_APPROVAL" });
  });

  it("the grant covers the same arguments in another key order", async () => {
    const t = tag("order");
    await granted({ tag: t, ms: 0 });
    expect(firstText(await call({ ms: 0, tag: t }))).toBe(`slow_write ${t} done`);
    expect(starts(t)).toBe(1);
  });

  it("a grant locked by an approver's action in flight is waited for, not skipped", async () => {
    const args = { ms: 0, tag: tag("locked") };
    const grant = await granted(args);
    // An approver's decision or withdrawal holds the row (SELECT … FOR UPDATE) until it commits or fails.
    const approverTx = new pg.Client({ connectionString: testDatabaseUrl() });
    await approverTx.connect();
    try {
      await approverTx.query("BEGIN");
      await approverTx.query("SELECT id FROM approvals WHERE id = $1 FOR UPDATE", [grant]);
      const answer = call(args);
      const first = await Promise.race([
        answer.then(() => "answered" as const),
        // Read outside the approver's transaction: inside one, pg_stat_activity is a snapshot taken at first use.
        waitUntil("the call to wait for the approval row", async () => {
          const [row] = await db.$queryRaw<{ n: number }[]>`
            SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE '%UPDATE approvals SET status = ''USED''%'`;
          return row!.n > 0 ? ("waiting" as const) : undefined;
        }),
      ]);
      expect(first).toBe("waiting");
      await approverTx.query("ROLLBACK"); // the approver's action failed (for instance: already decided)
      expect(firstText(await answer)).toBe(`slow_write ${args.tag} done`);
      expect(starts(args.tag)).toBe(1);
    } finally {
      await approverTx.end();
    }
  });

  it("identical calls racing on two processes are held as one request; identical request_approval calls make one grant", async () => {
    const onA = await Promise.all([0, 1, 2, 3].map(() => env.agent(0)));
    const agents = [agent, agent, agent, agent, ...onA];
    const args = { ms: 0, tag: tag("racing-hold") };
    const held = await Promise.all(agents.map((ag) => ag.client.callTool({ name: TOOL, arguments: args })));
    const ids = new Set(held.map((r) => (r.structuredContent as Held).approval_id));
    expect(ids.size, JSON.stringify(held.map(firstText))).toBe(1);
    expect(await db.approval.count({ where: { kind: "CALL", toolName: TOOL, arguments: { path: ["tag"], equals: args.tag } } })).toBe(1);

    const ahead = { ms: 0, tag: tag("racing-ask") };
    const asked = await Promise.all(
      agents.map((ag) => ag.client.callTool({ name: "request_approval", arguments: { tool: TOOL, arguments: ahead, justification: "cleanup" } })),
    );
    expect(new Set(asked.map((r) => (r.structuredContent as Asked).approval_id)).size).toBe(1);
    expect(await db.approval.count({ where: { kind: "ADVANCE", toolName: TOOL, arguments: { path: ["tag"], equals: ahead.tag } } })).toBe(1);
    expect(starts(args.tag) + starts(ahead.tag)).toBe(0);
  });

  it("a retry with the idempotency key of an approved call gets its result: no second approval, no second run", async () => {
    const args = { ms: 0, tag: tag("keyed") };
    await granted(args);
    const meta = { idempotencyKey: `key-${args.tag}` };
    expect(firstText(await agent.client.callTool({ name: TOOL, arguments: args, _meta: meta }))).toBe(`slow_write ${args.tag} done`);
    const retry = await agent.client.callTool({ name: TOOL, arguments: args, _meta: meta });
    expect(firstText(retry)).toBe(`slow_write ${args.tag} done`);
    expect(retry._meta?.["portcullis/task"]).toMatchObject({ replay: true });
    expect(starts(args.tag)).toBe(1);
    expect(await db.approval.count({ where: { kind: "CALL", toolName: TOOL, arguments: { path: ["tag"], equals: args.tag } } })).toBe(0);
  });
});
