// A task's row and its audit events read right. Its times are in order: created_at is when the call was made,
// started_at when it began running, so created_at <= started_at <= finished_at for every way a call becomes a
// task (adopted after the threshold, claimed under an idempotency key, queued for a worker). Its events name
// the agent and the session, as its call's event does.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { firstText, misbehavingServer, setUpGatewayTest, waitUntil, type Agent, type GatewayTestEnv } from "../test/gateway-harness";
import { createTestDb } from "../test/test-db";

type Accepted = { task_id: string; status: string };

describe("task rows and events", () => {
  const db = createTestDb();
  let env: GatewayTestEnv;
  let agent: Agent;

  const call = async (name: string, args: Record<string, unknown>, meta?: Record<string, unknown>) => {
    const before = new Date();
    const result = await agent.client.callTool({ name, arguments: args, ...(meta && { _meta: meta }) });
    return { before, answered: new Date(), accepted: result.structuredContent as Accepted, text: firstText(result) };
  };
  const row = (id: string) => db.task.findUniqueOrThrow({ where: { id } });
  const taskOfKey = async (key: string) => (await db.task.findFirstOrThrow({ where: { idempotencyKey: key } })).id;
  const cancel = (id: string) => agent.client.callTool({ name: "cancel_task", arguments: { task_id: id } });

  beforeAll(async () => {
    // No dedupe window: a call that outlives the threshold without a key is adopted, not claimed first.
    env = await setUpGatewayTest(db, "task-times", { tasks: { thresholdMs: 200, dedupeWindowMs: 0, sweepIntervalMs: 60_000 } });
    await env.gateways[0]!.gateway.registry.register(env.admin, misbehavingServer(env.dir, { slug: "slow", timeoutMs: 60_000 }));
    agent = await env.agent();
  });

  afterAll(async () => {
    await env?.close();
  });

  it("a call adopted as a task after the threshold was created when it was made, not when it was adopted", async () => {
    const { before, answered, accepted, text } = await call("slow__hang", {});
    expect(accepted?.status, text).toBe("RUNNING");
    const t = await row(accepted.task_id);
    expect(t.origin).toBe("threshold");
    expect(t.startedAt).not.toBeNull();
    expect(t.createdAt.getTime()).toBeLessThanOrEqual(t.startedAt!.getTime());
    expect(t.createdAt.getTime()).toBeGreaterThanOrEqual(before.getTime());
    expect(t.startedAt!.getTime()).toBeLessThanOrEqual(answered.getTime());
    await cancel(accepted.task_id);
  });

  it("a keyed call claimed before it runs starts no earlier than it was created", async () => {
    const { accepted, text } = await call("slow__hang", {}, { idempotencyKey: "times-key" });
    expect(accepted?.status, text).toBe("RUNNING");
    const t = await row(accepted.task_id);
    expect(t.origin).toBe("idempotent");
    expect(t.createdAt.getTime()).toBeLessThanOrEqual(t.startedAt!.getTime());
    await cancel(accepted.task_id);
  });

  it("a task's end and its audit event commit together: an end whose event cannot be written is not committed either", async () => {
    // The database refuses the end's event of one call (by its key's arguments): the end must not commit alone.
    await db.$executeRawUnsafe(`CREATE FUNCTION refuse_marked_end() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.action = 'task.succeeded' AND NEW.arguments::text LIKE '%refuse-this-end%' THEN
          RAISE EXCEPTION 'audit refused for the test' USING ERRCODE = 'insufficient_privilege';
        END IF;
        RETURN NEW;
      END $$`);
    await db.$executeRawUnsafe(`CREATE TRIGGER refuse_marked_end BEFORE INSERT ON audit_events FOR EACH ROW EXECUTE FUNCTION refuse_marked_end()`);
    try {
      const refused = await call("slow__counted", { name: "refuse-this-end" }, { idempotencyKey: "atomic-end-1" });
      await call("slow__counted", { name: "kept-end" }, { idempotencyKey: "atomic-end-2" });
      await waitUntil("the kept call's task succeeds", async () => (await row(await taskOfKey("atomic-end-2"))).status === "SUCCEEDED");
      // The success whose event was refused never committed: the task ended FAILED instead, with that end's event.
      const refusedTask = await waitUntil("the refused end's task settles", async () => {
        const t = await row(await taskOfKey("atomic-end-1"));
        return t.status !== "RUNNING" && t;
      });
      expect(refusedTask.status, refused.text).toBe("FAILED");
      const ends = (id: string, action: string) => db.auditEvent.count({ where: { taskId: id, action } });
      expect(await ends(refusedTask.id, "task.succeeded")).toBe(0);
      expect(await ends(refusedTask.id, "task.failed")).toBe(1);
      expect(await ends(await taskOfKey("atomic-end-2"), "task.succeeded")).toBe(1);
    } finally {
      await db.$executeRawUnsafe("DROP TRIGGER refuse_marked_end ON audit_events");
      await db.$executeRawUnsafe("DROP FUNCTION refuse_marked_end()");
    }
  });

  it("a task's transitions, its cancellation included, are audited with the agent's name and session", async () => {
    const { accepted } = await call("slow__hang", {});
    await cancel(accepted.task_id);
    const session = await db.agentSession.findUniqueOrThrow({ where: { id: (await row(accepted.task_id)).agentSessionId! } });
    const events = await db.auditEvent.findMany({ where: { taskId: accepted.task_id }, orderBy: { id: "asc" } });
    expect(events.map((e) => e.action)).toEqual(expect.arrayContaining(["tool.called", "task.started", "task.canceled"]));
    for (const e of events) expect({ action: e.action, agentId: e.agentId, sessionId: e.sessionId }).toEqual({ action: e.action, agentId: session.agentId, sessionId: session.id });
  });

  it("a queued call starts when a worker takes it, after it was created", async () => {
    await env.gateways[0]!.gateway.registry.updateTool(env.admin, "slow__slow_read", { async: true });
    const { accepted } = await call("slow__slow_read", { ms: 1, tag: "queued" });
    expect(accepted.status).toBe("PENDING");
    const t = await waitUntil("the queued task to finish", async () => {
      const r = await row(accepted.task_id);
      return r.finishedAt ? r : undefined;
    });
    expect(t.createdAt.getTime()).toBeLessThanOrEqual(t.startedAt!.getTime());
    expect(t.startedAt!.getTime()).toBeLessThanOrEqual(t.finishedAt!.getTime());
  });
});
