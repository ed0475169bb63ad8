// Human approval over real MCP: SDK agents against two gateways on the run's PostgreSQL, the misbehaving
// fixture's slow_write (made HIGH tier) as the upstream, which logs every start, so "never ran" and "ran
// exactly once" are read from what the upstream saw. Approvers decide through the gateway's own API.
import type { ChildProcess } from "node:child_process";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { CreateTaskResultSchema, GetTaskResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RequestContext } from "../context";
import type { User } from "../db/client";
import { isGatewayError } from "../errors";
import { insertUser, userContext } from "../test/contexts";
import { agentToken, connectAgent, errorMeta, fixtureEvents, firstText, misbehavingServer, setUpGatewayTest, spawnGatewayProcess, waitUntil, type Agent, type GatewayTestEnv, type TestGateway } from "../test/gateway-harness";
import { createTestDb } from "../test/test-db";
import { verifyWebhookSignature } from "../tasks/webhooks";

type Held = { task_id: string; status: string; approval_id: string; approval_status: string; expires_at: string };
type ApprovalStatus = { approval_id: string | null; status: string; tool: string; comment: string | null; task_id: string | null };
type TaskStatus = { status: string; error_code: string | null; error_message: string | null; retry_after_seconds: number | null };

const TOOL = "ops__slow_write";
const WEBHOOK_SECRET = "approver-webhook-secret-0123456789";

describe("human approval", () => {
  const db = createTestDb();
  let env: GatewayTestEnv;
  let a: TestGateway;
  let admin: RequestContext;
  let agent: Agent;
  let requester: User;
  let approverA: User;
  let approverB: User;
  let dir = "";
  let seq = 0;
  const tag = (label: string) => `${label}-${String(++seq)}`;
  const hooks: { headers: http.IncomingHttpHeaders; body: string }[] = [];
  let receiver: http.Server;

  const call = (ag: Agent, name: string, args: Record<string, unknown>) => ag.client.callTool({ name, arguments: args });
  const starts = (t: string) => fixtureEvents(dir).filter((e) => e.event === "slow.start" && (e.args as { tag?: string }).tag === t).length;
  const held = async (ag: Agent, t: string, extra: Record<string, unknown> = {}) => {
    const result = await call(ag, TOOL, { ms: 10, tag: t, ...extra });
    expect(result.isError ?? false, firstText(result)).toBe(false);
    return result.structuredContent as Held;
  };
  const approvalStatus = async (ag: Agent, id: string) => (await call(ag, "get_approval_status", { approval_id: id })).structuredContent as ApprovalStatus;
  const taskStatus = async (ag: Agent, id: string) => (await call(ag, "get_task_status", { task_id: id })).structuredContent as TaskStatus;
  const settled = (ag: Agent, id: string) =>
    waitUntil(`task ${id} to finish`, async () => {
      const s = await taskStatus(ag, id);
      return s.retry_after_seconds === null ? s : undefined;
    }, 20_000);
  const as = (u: User) => ({ ctx: userContext(u), viewer: { userId: u.id, role: u.role } });
  const decide = (u: User, id: string, decision: "approve" | "reject", comment?: string, standingMinutes?: number) =>
    a.gateway.approvals.decide(as(u).ctx, as(u).viewer, id, { decision, ...(comment && { comment }), ...(standingMinutes && { standingMinutes }) });
  const rejection = async (p: Promise<unknown>) => {
    const err = await p.then(
      () => undefined,
      (e: unknown) => e,
    );
    if (!isGatewayError(err)) throw new Error(`expected a GatewayError, got ${String(err)}`);
    return err;
  };

  beforeAll(async () => {
    receiver = http.createServer((req, res) => {
      let body = "";
      req.on("data", (c: Buffer) => (body += c.toString()));
      req.on("end", () => {
        hooks.push({ headers: req.headers, body });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    const webhookUrl = `http://127.0.0.1:${String((receiver.address() as AddressInfo).port)}/approvals`;
    env = await setUpGatewayTest(db, "approvals", {
      gateways: 2,
      tasks: { thresholdMs: 5000, sweepIntervalMs: 200, concurrency: 2, dedupeWindowMs: 0 },
      approvals: { ttlMs: 60_000, sweepIntervalMs: 200, webhookUrl, webhookSecret: WEBHOOK_SECRET },
      // The receiver is on loopback, which webhooks may reach only when an admin allows it.
      env: { OUTBOUND_ALLOWED_HOSTS: "127.0.0.1" },
    });
    a = env.gateways[0]!;
    ({ admin, dir } = env);
    await a.gateway.registry.register(admin, misbehavingServer(dir, { slug: "ops", timeoutMs: 60_000 }));
    await a.gateway.registry.updateTool(admin, TOOL, { riskTier: "HIGH" });
    agent = await env.agent(0);
    requester = (await db.agentSession.findFirstOrThrow({ include: { user: true } })).user;
    approverA = await insertUser(db, { role: "APPROVER" });
    approverB = await insertUser(db, { role: "APPROVER" });
  });

  afterAll(async () => {
    await env?.close();
    await new Promise((resolve) => receiver?.close(resolve));
  });

  it("offers request_approval and get_approval_status on /mcp and /mcp/s/<slug>", async () => {
    const names = (await agent.client.listTools()).tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(["request_approval", "get_approval_status", TOOL]));
    const one = await connectAgent(new URL("/mcp/s/ops", a.mcpUrl), agent.token);
    env.agents.push(one);
    expect((await one.client.listTools()).tools.map((t) => t.name)).toEqual(expect.arrayContaining(["request_approval", "get_approval_status", "slow_write"]));
  });

  it("holds a HIGH-tier call, answers at once with the approval and task ids, and runs exactly the approved arguments once approved", async () => {
    const t = tag("approve");
    const h = await held(agent, t, { steps: 2 });
    expect(h).toMatchObject({ status: "AWAITING_APPROVAL", approval_status: "PENDING" });
    expect(starts(t)).toBe(0);
    const row = await db.approval.findUniqueOrThrow({ where: { id: h.approval_id } });
    expect(row).toMatchObject({ kind: "CALL", requesterId: requester.id, toolName: TOOL, taskId: h.task_id, arguments: { ms: 10, tag: t, steps: 2 } });
    expect(row.reason).toMatch(/high-risk/);
    const audit = await db.auditEvent.findFirstOrThrow({ where: { action: "tool.called", approvalId: h.approval_id } });
    expect(audit).toMatchObject({ status: "held", decision: "require_approval", taskId: h.task_id, category: "gateway" });
    expect((await taskStatus(agent, h.task_id)).status).toBe("AWAITING_APPROVAL");

    // The queue shows it to approvers, not to other users; the requester sees their own.
    const queue = await a.gateway.approvals.list(as(approverA).viewer, { status: ["PENDING"], limit: 50 });
    const item = queue.items.find((i) => i.id === h.approval_id);
    expect(item).toMatchObject({ tool: TOOL, requesterEmail: requester.email, canDecide: true, taskStatus: "AWAITING_APPROVAL" });
    const stranger = await insertUser(db, { role: "USER" });
    expect((await a.gateway.approvals.list(as(stranger).viewer, { status: undefined, limit: 50 })).items).toHaveLength(0);

    const decided = await decide(approverA, h.approval_id, "approve", "looks right");
    expect(decided).toMatchObject({ status: "USED", decisionComment: "looks right", decisions: [{ approverEmail: approverA.email, decision: "approve" }] });
    const done = await settled(agent, h.task_id);
    expect(done.status).toBe("SUCCEEDED");
    expect(firstText(await call(agent, "get_task_result", { task_id: h.task_id }))).toBe(`slow_write ${t} done`);
    expect(starts(t)).toBe(1);
    expect((await db.task.findUniqueOrThrow({ where: { id: h.task_id } })).arguments).toEqual({ ms: 10, tag: t, steps: 2 });
    expect(await db.auditEvent.count({ where: { approvalId: h.approval_id, action: "approval.approved" } })).toBe(1);
    await expect(rejection(decide(approverB, h.approval_id, "approve"))).resolves.toMatchObject({ code: "conflict" });
  });

  it("a repeated call while waiting gets the same request instead of a second one", async () => {
    const t = tag("repeat");
    const first = await held(agent, t);
    const again = await call(agent, TOOL, { ms: 10, tag: t });
    expect(again.structuredContent).toMatchObject({ approval_id: first.approval_id, task_id: first.task_id });
    expect(firstText(again)).toMatch(/already waiting/);
    await decide(approverA, first.approval_id, "reject", "cleanup");
  });

  it("rejected: the task ends CANCELED with the approver's reason and the tool never runs", async () => {
    const t = tag("reject");
    const h = await held(agent, t);
    await decide(approverB, h.approval_id, "reject", "not during the freeze");
    const done = await settled(agent, h.task_id);
    expect(done).toMatchObject({ status: "CANCELED", error_code: "approval_rejected" });
    expect(done.error_message).toContain("not during the freeze");
    expect(starts(t)).toBe(0);
    expect((await approvalStatus(agent, h.approval_id)).status).toBe("REJECTED");

    // Who rejected is the events' actor, in the clear (the Who column); no text the gateway composed carries an
    // address for redaction to mask beside it.
    expect(done.error_message).toBe("Rejected by an approver: not during the freeze");
    const events = await db.auditEvent.findMany({ where: { OR: [{ approvalId: h.approval_id }, { taskId: h.task_id }], action: { in: ["approval.rejected", "task.canceled"] } } });
    expect(events.map((e) => ({ action: e.action, userId: e.userId, reason: e.reason })).sort((x, y) => x.action.localeCompare(y.action))).toEqual([
      { action: "approval.rejected", userId: approverB.id, reason: "not during the freeze" },
      { action: "task.canceled", userId: approverB.id, reason: "Rejected by an approver: not during the freeze" },
    ]);
  });

  it("an agent canceling its held call withdraws the request from the approvers' queue", async () => {
    const h = await held(agent, tag("withdrawn"));
    expect((await call(agent, "cancel_task", { task_id: h.task_id })).structuredContent).toMatchObject({ status: "CANCELED" });
    expect((await approvalStatus(agent, h.approval_id)).status).toBe("CANCELED");
    expect((await rejection(decide(approverA, h.approval_id, "approve"))).code).toBe("conflict");
  });

  it("unanswered: the request and its task expire after the configured time", async () => {
    const t = tag("expire");
    const h = await held(agent, t);
    await db.approval.update({ where: { id: h.approval_id }, data: { expiresAt: new Date(Date.now() + 300) } });
    const done = await settled(agent, h.task_id);
    expect(done).toMatchObject({ status: "EXPIRED", error_code: "approval_expired" });
    expect((await approvalStatus(agent, h.approval_id)).status).toBe("EXPIRED");
    await expect(rejection(decide(approverA, h.approval_id, "approve"))).resolves.toMatchObject({ code: "conflict" });
    expect(starts(t)).toBe(0);
    // The expiry commits the statuses first and audits after them: wait for the event, then there is exactly one.
    await waitUntil("the expiry to be audited", async () => (await db.auditEvent.count({ where: { approvalId: h.approval_id, action: "approval.expired" } })) > 0);
    expect(await db.auditEvent.count({ where: { approvalId: h.approval_id, action: "approval.expired" } })).toBe(1);

    // Decided after its time but before a sweep got to it: expired all the same, never run.
    const late = await held(agent, tag("late"));
    await db.approval.update({ where: { id: late.approval_id }, data: { expiresAt: new Date(Date.now() - 1) } });
    expect(await rejection(decide(approverA, late.approval_id, "approve"))).toMatchObject({ code: "conflict", message: expect.stringMatching(/expired/) as string });
    expect((await settled(agent, late.task_id)).status).toBe("EXPIRED");
    expect(await db.approvalDecision.count({ where: { approvalId: late.approval_id } })).toBe(0);
  });

  it("an approver cannot decide their own request; another approver can", async () => {
    await a.gateway.policy.createGrant(admin, { kind: "tool", pattern: TOOL, userId: approverA.id });
    const own = await connectAgent(a.mcpUrl, await agentToken(db, approverA, { tools: [TOOL] }));
    env.agents.push(own);
    const t = tag("self");
    const h = await held(own, t);
    const err = await rejection(decide(approverA, h.approval_id, "approve"));
    expect(err.code).toBe("forbidden");
    expect(err.message).toMatch(/own request/);
    expect((await a.gateway.approvals.get(as(approverA).viewer, h.approval_id)).canDecide).toBe(false);
    await decide(approverB, h.approval_id, "approve");
    expect((await settled(own, h.task_id)).status).toBe("SUCCEEDED");
    // A plain user may not decide at all.
    const user = await insertUser(db, { role: "USER" });
    const h2 = await held(agent, tag("user-decides"));
    expect((await rejection(decide(user, h2.approval_id, "approve"))).code).toBe("not_found");
    await decide(approverA, h2.approval_id, "reject", "cleanup");
  });

  it("two approvers racing on one request: exactly one decision wins", async () => {
    for (let round = 0; round < 3; round++) {
      const t = tag("race");
      const h = await held(agent, t);
      const outcomes = await Promise.allSettled([decide(approverA, h.approval_id, "approve", "A"), decide(approverB, h.approval_id, "reject", "B")]);
      const won = outcomes.filter((o) => o.status === "fulfilled");
      const lost = outcomes.filter((o) => o.status === "rejected");
      expect(won).toHaveLength(1);
      expect(lost).toHaveLength(1);
      expect(isGatewayError(lost[0]!.reason) && lost[0]!.reason.code).toBe("conflict");
      expect(await db.approvalDecision.count({ where: { approvalId: h.approval_id } })).toBe(1);
      const done = await settled(agent, h.task_id);
      expect(done.status).toBe(won[0]!.value.status === "USED" ? "SUCCEEDED" : "CANCELED");
      expect(starts(t)).toBe(done.status === "SUCCEEDED" ? 1 : 0);
    }
  });

  it("a tool set to need a second approver runs only after two different approvers say yes", async () => {
    await a.gateway.registry.updateTool(admin, TOOL, { requiredApprovals: 2 });
    try {
      const t = tag("two");
      const h = await held(agent, t);
      const first = await decide(approverA, h.approval_id, "approve");
      expect(first).toMatchObject({ status: "PENDING", requiredApprovals: 2, canDecide: false });
      expect((await rejection(decide(approverA, h.approval_id, "approve"))).code).toBe("conflict");
      expect((await taskStatus(agent, h.task_id)).status).toBe("AWAITING_APPROVAL");
      expect(await db.auditEvent.count({ where: { approvalId: h.approval_id, action: "approval.approved_first" } })).toBe(1);
      expect((await decide(approverB, h.approval_id, "approve")).status).toBe("USED");
      expect((await settled(agent, h.task_id)).status).toBe("SUCCEEDED");
      expect(starts(t)).toBe(1);
    } finally {
      await a.gateway.registry.updateTool(admin, TOOL, { requiredApprovals: 1 });
    }
  });

  it("request_approval: an approved grant runs exactly those arguments once, from that session only", async () => {
    const t = tag("advance");
    const args = { ms: 10, tag: t };
    const asked = await call(agent, "request_approval", { tool: TOOL, arguments: args, justification: "nightly cleanup of test rows" });
    const grant = asked.structuredContent as ApprovalStatus;
    expect(grant).toMatchObject({ status: "PENDING", tool: TOOL });
    const row = await db.approval.findUniqueOrThrow({ where: { id: grant.approval_id! } });
    expect(row).toMatchObject({ kind: "ADVANCE", justification: "nightly cleanup of test rows", taskId: null });
    await decide(approverA, grant.approval_id!, "approve", "ok once");
    expect(await approvalStatus(agent, grant.approval_id!)).toMatchObject({ status: "APPROVED", comment: "ok once" });

    // Other arguments: not covered, held as a new request.
    const other = await held(agent, `${t}-other`);
    expect(other.approval_id).not.toBe(grant.approval_id);
    // Another session with the same arguments: not covered either.
    const second = await connectAgent(a.mcpUrl, await agentToken(db, requester));
    env.agents.push(second);
    expect((await call(second, TOOL, args)).structuredContent).toMatchObject({ status: "AWAITING_APPROVAL" });
    // The session's exact call runs now, directly.
    expect(firstText(await call(agent, TOOL, args))).toBe(`slow_write ${t} done`);
    expect((await approvalStatus(agent, grant.approval_id!)).status).toBe("USED");
    // The same call again: the grant is spent, so it is held, not run.
    expect((await call(agent, TOOL, args)).structuredContent).toMatchObject({ status: "AWAITING_APPROVAL" });
    expect(starts(t)).toBe(1);
    expect(await db.auditEvent.count({ where: { action: "tool.called", approvalId: grant.approval_id!, status: "ok" } })).toBe(1);
  });

  it("request_approval runs the call's own checks and refuses what the session could not do anyway", async () => {
    const notListed = await call(agent, "request_approval", { tool: "ops__nope", arguments: {}, justification: "x" });
    expect(errorMeta(notListed).code).toBe("unknown_tool");
    const badArgs = await call(agent, "request_approval", { tool: TOOL, arguments: { ms: "soon" }, justification: "x" });
    expect(errorMeta(badArgs).code).toBe("invalid_arguments");
    const narrow = await connectAgent(a.mcpUrl, await agentToken(db, requester, { tools: ["ops__slow_read"] }));
    env.agents.push(narrow);
    expect(errorMeta(await call(narrow, "request_approval", { tool: TOOL, arguments: { ms: 1 }, justification: "x" })).code).toBe("tool_not_allowed");
    const lowRisk = await call(agent, "request_approval", { tool: "ops__slow_read", arguments: { ms: 1 }, justification: "x" });
    expect(lowRisk.structuredContent).toMatchObject({ status: "NOT_REQUIRED", approval_id: null });
    const foreign = await held(agent, tag("foreign"));
    expect(errorMeta(await call(narrow, "get_approval_status", { approval_id: foreign.approval_id })).code).toBe("approval_not_found");
    expect(errorMeta(await call(agent, "request_approval", { tool: TOOL, arguments: [], justification: "x" })).code).toBe("invalid_arguments");
    await decide(approverA, foreign.approval_id, "reject", "cleanup");
  });

  it("a standing approval lets one session call the tool without asking, until it is withdrawn", async () => {
    const h = await held(agent, tag("standing"));
    await decide(approverA, h.approval_id, "approve", "batch job", 10);
    expect((await settled(agent, h.task_id)).status).toBe("SUCCEEDED");
    const t = tag("standing-next");
    expect(firstText(await call(agent, TOOL, { ms: 10, tag: t }))).toBe(`slow_write ${t} done`);
    const standing = await db.approval.findFirstOrThrow({ where: { kind: "STANDING", agentSessionId: (await db.approval.findUniqueOrThrow({ where: { id: h.approval_id } })).agentSessionId } });
    expect(standing.standingUntil!.getTime()).toBeGreaterThan(Date.now() + 9 * 60_000);
    await a.gateway.approvals.revoke(as(approverA).ctx, as(approverA).viewer, standing.id);
    expect((await call(agent, TOOL, { ms: 10, tag: tag("standing-after") })).structuredContent).toMatchObject({ status: "AWAITING_APPROVAL" });
  });

  it("revoking the agent session withdraws its held calls and unused grants: nothing runs once approved", async () => {
    const token = await agentToken(db, requester, { tools: [TOOL, "request_approval"] });
    const doomed = await connectAgent(a.mcpUrl, token);
    const t = tag("revoked");
    const h = await held(doomed, t);
    const grant = (await call(doomed, "request_approval", { tool: TOOL, arguments: { ms: 1, tag: `${t}-grant` }, justification: "later" })).structuredContent as ApprovalStatus;
    await decide(approverA, grant.approval_id!, "approve");
    const session = await db.agentSession.findFirstOrThrow({ where: { approvals: { some: { id: h.approval_id } } } });
    await doomed.close();
    await a.gateway.sessions.revoke(userContext(requester), session.id);
    expect(await db.approval.findUniqueOrThrow({ where: { id: h.approval_id } })).toMatchObject({ status: "CANCELED", decisionComment: "The agent session was revoked." });
    expect(await db.approval.findUniqueOrThrow({ where: { id: grant.approval_id! } })).toMatchObject({ status: "CANCELED" });
    expect(await db.task.findUniqueOrThrow({ where: { id: h.task_id } })).toMatchObject({ status: "CANCELED", errorCode: "authorization_revoked" });
    expect((await rejection(decide(approverA, h.approval_id, "approve"))).code).toBe("conflict");
    expect(starts(t)).toBe(0);
  });

  it("a client using MCP tasks gets a task that stays working (awaiting approval) until the decision", async () => {
    const t = tag("native");
    const created = await agent.client.request({ method: "tools/call", params: { name: TOOL, arguments: { ms: 10, tag: t }, task: { ttl: 60_000 } } }, CreateTaskResultSchema);
    expect(created.task).toMatchObject({ status: "working", statusMessage: "awaiting approval" });
    const approval = await db.approval.findFirstOrThrow({ where: { taskId: created.task.taskId } });
    await decide(approverB, approval.id, "approve");
    await waitUntil("the MCP task to complete", async () => (await agent.client.request({ method: "tasks/get", params: { taskId: created.task.taskId } }, GetTaskResultSchema)).status === "completed");
    expect(starts(t)).toBe(1);
  });

  it("notifies the approvers' webhook of each new request, HMAC-signed", async () => {
    const h = await held(agent, tag("hook"));
    const hook = await waitUntil("the approvers' webhook", () => hooks.find((x) => x.body.includes(h.approval_id)));
    const signature = String(hook.headers["x-portcullis-signature"]);
    expect(verifyWebhookSignature(WEBHOOK_SECRET, signature, hook.body)).toBe(true);
    expect(verifyWebhookSignature("another-secret-0123456789abcdef", signature, hook.body)).toBe(false);
    expect(JSON.parse(hook.body)).toMatchObject({ event: "approval.requested", approval: { id: h.approval_id, tool: TOOL } });
    await decide(approverA, h.approval_id, "reject", "cleanup");
  });

  it("shows approvers redacted arguments and audits a reveal of the full ones", async () => {
    const h = await held(agent, tag("redact"), { note: "mail jane.doe@example.com, card 4111 1111 1111 1111" });
    const shown = await a.gateway.approvals.get(as(approverA).viewer, h.approval_id);
    expect(JSON.stringify(shown.arguments)).not.toContain("jane.doe@example.com");
    expect(JSON.stringify(shown.arguments)).not.toContain("4111 1111 1111 1111");
    const full = await a.gateway.approvals.reveal(as(approverA).ctx, as(approverA).viewer, h.approval_id);
    expect(full.arguments.note).toBe("mail jane.doe@example.com, card 4111 1111 1111 1111");
    expect(await db.auditEvent.count({ where: { approvalId: h.approval_id, action: "approval.revealed", userId: approverA.id } })).toBe(1);
    await decide(approverA, h.approval_id, "reject", "cleanup");
  });

  describe("when the gateway process that took the request is killed", () => {
    let child: ChildProcess | undefined;
    afterAll(() => {
      if (child && child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    });

    it("the request survives: approved afterwards, it runs on another process", async () => {
      let url: string;
      ({ child, url } = await spawnGatewayProcess({ TASK_SWEEP_INTERVAL_MS: "200" }));
      const onChild = await connectAgent(new URL("/mcp", url), agent.token);
      const t = tag("restart");
      const h = await held(onChild, t);
      const exited = new Promise((resolve) => child!.once("exit", resolve));
      child.kill("SIGKILL");
      await exited;
      await onChild.close().catch(() => undefined);

      await decide(approverA, h.approval_id, "approve", "after the crash");
      expect((await settled(agent, h.task_id)).status).toBe("SUCCEEDED");
      expect(starts(t)).toBe(1);
    });
  });
});
