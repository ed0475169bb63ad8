// One audit event for every gateway request and every admin change: each kind of request below is made once
// through a real SDK agent (or the admin API), and exactly one event of its action appears — committed before
// the answer, so counted at once, without waiting.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RequestContext } from "../context";
import { everythingServer, misbehavingServer, setUpGatewayTest, waitUntil, type Agent, type GatewayTestEnv, type TestGateway } from "../test/gateway-harness";
import { insertUser } from "../test/contexts";
import { createTestDb } from "../test/test-db";

describe("audit completeness", () => {
  const db = createTestDb();
  let env: GatewayTestEnv;
  let gw: TestGateway;
  let admin: RequestContext;
  let agent: Agent;

  const count = (action: string) => db.auditEvent.count({ where: { action } });
  /** Runs `fn` and expects exactly `n` new events of `action`. */
  async function expectEvents(action: string, fn: () => Promise<unknown>, n = 1) {
    const before = await count(action);
    await fn();
    expect(await count(action), action).toBe(before + n);
  }

  beforeAll(async () => {
    env = await setUpGatewayTest(db, "completeness", { tasks: { thresholdMs: 0, sweepIntervalMs: 200 } });
    gw = env.gateways[0]!;
    admin = env.admin;
    await gw.gateway.registry.register(admin, misbehavingServer(env.dir, { slug: "ops" }));
    await gw.gateway.registry.register(admin, everythingServer());
    await gw.gateway.registry.updateTool(admin, "ops__slow_write", { riskTier: "HIGH" });
    agent = await env.agent(0);
  });

  afterAll(async () => {
    await env?.close();
  });

  it("records each kind of agent request once", async () => {
    await expectEvents("tools.listed", () => agent.client.listTools());
    await expectEvents("prompts.listed", () => agent.client.listPrompts());
    await expectEvents("resources.listed", () => agent.client.listResources());
    await expectEvents("resource_templates.listed", () => agent.client.listResourceTemplates());
    const { resources } = await agent.client.listResources();
    await expectEvents("resource.read", () => agent.client.readResource({ uri: resources[0]!.uri }));
    const { prompts } = await agent.client.listPrompts();
    const simple = prompts.find((p) => !p.arguments?.some((a) => a.required))!;
    await expectEvents("prompt.fetched", () => agent.client.getPrompt({ name: simple.name }));
    await expectEvents("tool.called", () => agent.client.callTool({ name: "ops__whoami", arguments: {} }));
    // A denial (unknown tool) and an error answer are events too, with their status.
    await expectEvents("tool.called", () => agent.client.callTool({ name: "ops__nope", arguments: {} }).catch(() => undefined));
    const denied = await db.auditEvent.findFirstOrThrow({ where: { action: "tool.called" }, orderBy: { id: "desc" } });
    expect(denied).toMatchObject({ status: "denied", errorCode: "unknown_tool", category: "security" });
    await expectEvents("tool.called", () => agent.client.callTool({ name: "ops__fail", arguments: {} }));
    // The gateway's own tools.
    await expectEvents("tool.called", () => agent.client.callTool({ name: "list_my_tasks", arguments: {} }));
  });

  it("records each approval step and task transition of a held call, linked by ids", async () => {
    const approver = await insertUser(db, { role: "APPROVER" });
    const viewer = { userId: approver.id, role: approver.role };
    const ctx = { actor: { type: "user" as const, userId: approver.id, email: approver.email, role: approver.role }, requestId: "decide-1", via: "session" as const };
    let held: { approval_id: string; task_id: string } | undefined;
    await expectEvents("approval.requested", async () => {
      held = (await agent.client.callTool({ name: "ops__slow_write", arguments: { ms: 1, tag: "audit" }, _meta: { intent: "clean the staging rows" } })).structuredContent as typeof held;
    });
    const call = await db.auditEvent.findFirstOrThrow({ where: { action: "tool.called", approvalId: held!.approval_id } });
    expect(call).toMatchObject({ status: "held", decision: "require_approval", taskId: held!.task_id, intent: "clean the staging rows", arguments: { ms: 1, tag: "audit" } });
    await expectEvents("approval.approved", () => gw.gateway.approvals.decide(ctx, viewer, held!.approval_id, { decision: "approve", comment: "ok" }));
    const before = await count("task.succeeded");
    await waitUntil("the approved task to finish", async () => (await count("task.succeeded")) === before + 1);
    const done = await db.auditEvent.findFirstOrThrow({ where: { action: "task.succeeded", taskId: held!.task_id } });
    expect(done.toolName).toBe("ops__slow_write");
    expect(await db.auditEvent.count({ where: { action: "task.started", taskId: held!.task_id } })).toBe(1);
    // Canceling a held call: one task.canceled event, with the agent's user as the actor.
    const second = (await agent.client.callTool({ name: "ops__slow_write", arguments: { ms: 1, tag: "cancel-me" } })).structuredContent as { task_id: string };
    await expectEvents("task.canceled", () => agent.client.callTool({ name: "cancel_task", arguments: { task_id: second.task_id } }));
    await expectEvents("approval.revealed", () => gw.gateway.approvals.reveal(ctx, viewer, held!.approval_id));
  });

  it("records admin changes: servers, tools, policies, grants, tokens, users, sessions", async () => {
    const user = await insertUser(db, { role: "USER" });
    await expectEvents("tool.updated", () => gw.gateway.registry.updateTool(admin, "ops__whoami", { timeoutMs: 5000 }));
    await expectEvents("user.created", () => gw.gateway.users.create(admin, { email: `new-${String(Date.now())}@example.test`, role: "USER" }));
    await expectEvents("api_token.created", () => gw.gateway.tokens.create(admin, user.id, { name: "ci" }));
    const actions = (await db.auditEvent.findMany({ where: { category: "admin" }, select: { action: true }, distinct: ["action"] })).map((e) => e.action);
    expect(actions).toEqual(expect.arrayContaining(["server.registered", "tool.updated", "user.created", "api_token.created"]));
    await expectEvents("policy.grant_created", () => gw.gateway.policy.createGrant(admin, { kind: "tool", pattern: "ops__*", userId: user.id }));
  });
});
