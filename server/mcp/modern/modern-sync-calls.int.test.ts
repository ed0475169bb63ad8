// A 2026-07-28 client that did not declare the tasks extension cannot follow a task, so it is never handed one; yet
// what the task context gives every other client still holds for it: an identical call made while the first runs
// (a concurrent retry, on any process) joins the first and is answered with its outcome instead of running again,
// a call approved ahead (request_approval) runs on its grant, and a call past the task threshold runs to its end.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixtureEvents, misbehavingServer, setUpGatewayTest, type GatewayTestEnv, type TestGateway } from "../../test/gateway-harness";
import { insertUser, userContext } from "../../test/contexts";
import { createTestDb } from "../../test/test-db";
import { modernRequest, type ModernAnswer } from "../../test/modern-request";

type Answer = ModernAnswer & { result?: { content?: { type: string; text?: string }[]; structuredContent?: Record<string, unknown> } };

describe("2026 calls of a client without the tasks extension", () => {
  const db = createTestDb();
  let env: GatewayTestEnv;
  let gws: TestGateway[] = [];
  let seq = 0;
  const tag = (label: string) => `${label}-${String(++seq)}`;

  /** A 2026 tools/call with the routing headers and no client capabilities (no tasks extension). */
  const send = (name: string, args: Record<string, unknown>, gw = 0) => modernRequest(new URL("/mcp", gws[gw]!.http.url), "tools/call", { name, arguments: args }, { token: env.token });
  /** The same, answered 200. */
  async function call(name: string, args: Record<string, unknown>, gw = 0): Promise<Answer> {
    const { status, answer } = (await send(name, args, gw)) as { status: number; answer: Answer };
    expect(status, JSON.stringify(answer)).toBe(200);
    return answer;
  }
  const starts = (t: string) => fixtureEvents(env.dir).filter((e) => e.event === "slow.start" && (e.args as { tag?: string }).tag === t).length;
  const text = (a: Answer) => a.result?.content?.[0]?.text;

  beforeAll(async () => {
    env = await setUpGatewayTest(db, "sync26", {
      gateways: 2,
      // A short threshold, and identical calls of one agent session joined within ten seconds.
      tasks: { thresholdMs: 100, sweepIntervalMs: 200, concurrency: 2, dedupeWindowMs: 10_000 },
      approvals: { ttlMs: 60_000, sweepIntervalMs: 200 },
    });
    gws = env.gateways;
    const { server } = await gws[0]!.gateway.registry.register(env.admin, misbehavingServer(env.dir, { slug: "ops", timeoutMs: 60_000 }));
    if (server.status !== "HEALTHY") throw new Error(server.lastError ?? "ops did not start");
    await gws[0]!.gateway.registry.updateTool(env.admin, "ops__slow_write", { riskTier: "HIGH" });
  }, 120_000);
  afterAll(() => env?.close());

  it("an identical call made while the first runs, on either process, joins it: the upstream sees one call, every caller gets its plain result", async () => {
    const t = tag("twins");
    const answers = await Promise.all([0, 1, 0, 1].map((gw) => call("ops__slow_read", { ms: 600, tag: t }, gw)));
    for (const a of answers) {
      expect(a.result).toMatchObject({ resultType: "complete", content: [{ type: "text", text: `slow_read ${t} done` }] });
      expect(a.result).not.toHaveProperty("taskId");
    }
    expect(starts(t)).toBe(1);
  });

  it("a call past the task threshold runs to its end and answers plainly, never with a task", async () => {
    const t = tag("late");
    const a = await call("ops__slow_read", { ms: 500, tag: t });
    expect(a.result).toMatchObject({ resultType: "complete", content: [{ type: "text", text: `slow_read ${t} done` }] });
    expect(await db.task.count({ where: { arguments: { path: ["tag"], equals: t }, NOT: { origin: "claim" } } })).toBe(0);
  });

  it("a HIGH-tier call approved ahead with request_approval runs on its grant; without one it is refused", async () => {
    const t = tag("approved");
    const args = { ms: 10, tag: t };
    const asked = await call("request_approval", { tool: "ops__slow_write", arguments: args, justification: "release notes" });
    const approvalId = asked.result?.structuredContent?.approval_id as string;
    expect(approvalId, text(asked)).toEqual(expect.any(String));
    const approver = await insertUser(db, { role: "APPROVER" });
    await gws[1]!.gateway.approvals.decide(userContext(approver), { userId: approver.id, role: approver.role }, approvalId, { decision: "approve" });
    const ran = await call("ops__slow_write", args);
    expect(ran.result).toMatchObject({ resultType: "complete", content: [{ type: "text", text: `slow_write ${t} done` }] });
    expect(starts(t)).toBe(1);
    expect(await db.approval.findUniqueOrThrow({ where: { id: approvalId } })).toMatchObject({ status: "USED" });
    // The grant is used up: the same call again needs a person, which this client cannot wait for.
    const again = await send("ops__slow_write", args);
    expect([again.status, again.answer.error?.code]).toEqual([400, -32021]);
    expect(starts(t)).toBe(1);
  });
});
