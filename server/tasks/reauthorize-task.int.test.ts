// Queued work is re-authorized when it runs, over real MCP: the misbehaving fixture as the upstream (its log
// says whether a call ever reached it), graphile-worker on the run's PostgreSQL with two gateways of ONE worker
// slot each, held by "blocker" tasks of another user that wait upstream until each case has made its change;
// releasing them frees the slots and the queued task is claimed by either gateway. Each crash case kills a gateway
// process of its own while the upstream runs the call, makes its change, and the task is swept and retried here.
import type { ChildProcess } from "node:child_process";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RequestContext } from "../context";
import type { User } from "../db/client";
import {
  busHears,
  connectAgent,
  firstText,
  fixtureEvents,
  misbehavingServer,
  setUpGatewayTest,
  spawnGatewayProcess,
  userWithToken,
  waitUntil,
  type Agent,
  type GatewayTestEnv,
  type TestGateway,
} from "../test/gateway-harness";
import { createTestDb } from "../test/test-db";
import { insertUser, userContext } from "../test/contexts";

type Accepted = { task_id: string; status: string; approval_id?: string };
const FINAL = ["SUCCEEDED", "FAILED", "CANCELED", "EXPIRED"];

describe("queued work is re-authorized when it runs", () => {
  const db = createTestDb();
  let env: GatewayTestEnv;
  let a: TestGateway;
  let admin: RequestContext;
  let blockerAgent: Agent;
  let dir = "";
  let seq = 0;
  const tag = (label: string) => `${label}-${String(++seq)}`;
  const starts = (t: string) => fixtureEvents(dir).filter((e) => e.event === "slow.start" && (e.args as { tag?: string }).tag === t).length;
  const call = async (ag: Agent, name: string, args: Record<string, unknown>) => {
    const result = await ag.client.callTool({ name, arguments: args });
    if (result.isError || !result.structuredContent) throw new Error(`${name} was not queued: ${firstText(result)}`);
    return result.structuredContent as Accepted;
  };
  const final = (id: string) =>
    waitUntil(`task ${id} to end`, async () => {
      const row = await db.task.findUniqueOrThrow({ where: { id } });
      return FINAL.includes(row.status) ? row : undefined;
    }, 20_000);
  const denials = (taskId: string) => db.auditEvent.count({ where: { taskId, decision: "deny" } });

  /** Holds every worker slot (one per gateway) with tasks of another user that wait for a file; release() creates it. */
  async function holdWorker(): Promise<{ release(): Promise<void> }> {
    const file = path.join(dir, `${tag("release")}`);
    const tags = env.gateways.map(() => tag("blocker"));
    for (const t of tags) await call(blockerAgent, "slow__slow_read", { ms: 0, until: file, tag: t });
    await waitUntil("the blockers to run upstream", () => tags.every((t) => starts(t) === 1));
    return { release: () => writeFile(file, "") };
  }

  type Victim = { user: User; sessionId: string };
  /** A fresh user holding everything, its agent session (id) and an MCP client on the gateway. */
  async function victim(): Promise<Victim & { agent: Agent }> {
    const { user, token } = await userWithToken(db);
    const session = await db.agentSession.findFirstOrThrow({ where: { userId: user.id } });
    // Its grant was written straight to the table: drop the gateway's policy snapshot as a policy change would.
    await busHears(db, a.gateway, [{ kind: "policy" }]);
    const agent = await connectAgent(a.mcpUrl, token);
    env.agents.push(agent);
    return { user, sessionId: session.id, agent };
  }

  beforeAll(async () => {
    env = await setUpGatewayTest(db, "reauthorize", { gateways: 2, tasks: { thresholdMs: 300, sweepIntervalMs: 600_000, concurrency: 1 } });
    a = env.gateways[0]!;
    ({ admin, dir } = env);
    await a.gateway.registry.register(admin, misbehavingServer(dir, { slug: "slow", timeoutMs: 90_000 }));
    await a.gateway.registry.updateTool(admin, "slow__slow_read", { async: true, riskTier: "LOW" });
    await a.gateway.registry.updateTool(admin, "slow__slow_write", { async: true, riskTier: "MEDIUM" });
    blockerAgent = await env.agent(0);
  });

  afterAll(async () => {
    await env?.close();
  });

  type Case = {
    name: string;
    /** The change to the victim's session, its user or the task's `tool`, made before the task runs; its undo, if any. */
    change(v: Victim & { tool: string }): Promise<(() => Promise<void>) | undefined>;
    /** The re-authorization step that refuses the task when a worker claims it. */
    step: string;
    /** Revoking a session or disabling a user ends its PENDING tasks at once, before any worker looks. */
    atOnce?: boolean;
  };
  const cases: Case[] = [
    {
      name: "session revoked",
      step: "session",
      atOnce: true,
      change: async ({ sessionId }) => void (await a.gateway.sessions.revoke(admin, sessionId)),
    },
    {
      name: "session expired",
      step: "session",
      change: async ({ sessionId }) => void (await db.agentSession.update({ where: { id: sessionId }, data: { expiresAt: new Date(Date.now() - 1000) } })),
    },
    {
      name: "user disabled",
      step: "session",
      atOnce: true,
      change: async ({ user }) => void (await a.gateway.users.update(admin, user.id, { disabled: true })),
    },
    {
      name: "grant removed",
      step: "whitelist",
      change: async ({ user }) => {
        const grant = await db.grant.findFirstOrThrow({ where: { userId: user.id, kind: "TOOL" } });
        await a.gateway.policy.deleteGrant(admin, grant.id);
        return undefined;
      },
    },
    {
      name: "tool disabled",
      step: "tool",
      change: async ({ tool }) => {
        await a.gateway.registry.updateTool(admin, tool, { enabled: false });
        return async () => void (await a.gateway.registry.updateTool(admin, tool, { enabled: true }));
      },
    },
    {
      name: "tier raised to HIGH",
      step: "tier",
      change: async ({ tool }) => {
        const before = await db.tool.findFirstOrThrow({ where: { gatewayName: tool } });
        await a.gateway.registry.updateTool(admin, tool, { riskTier: "HIGH" });
        return async () => void (await a.gateway.registry.updateTool(admin, tool, { riskTier: before.riskTier }));
      },
    },
  ];

  it.each(cases)("$name between submit and run: the upstream never sees it, CANCELED authorization_revoked, one audit denial", async (c) => {
    const worker = await holdWorker();
    const v = await victim();
    const t = tag(c.name.replace(/\W+/g, "-"));
    const accepted = await call(v.agent, "slow__slow_write", { ms: 10, tag: t });
    expect(accepted.status).toBe("PENDING");
    let undo: (() => Promise<void>) | undefined;
    try {
      undo = await c.change({ ...v, tool: "slow__slow_write" });
      if (c.atOnce) {
        const now = await db.task.findUniqueOrThrow({ where: { id: accepted.task_id } });
        expect(now).toMatchObject({ status: "CANCELED", errorCode: "authorization_revoked" });
      }
      await worker.release();
      const row = await final(accepted.task_id);
      expect(row).toMatchObject({ status: "CANCELED", errorCode: "authorization_revoked" });
      // The slot is free again and the task ended: had it been run, its start would be logged by now.
      expect(starts(t)).toBe(0);
      expect(await denials(accepted.task_id)).toBe(1);
      expect(await db.auditEvent.count({ where: { taskId: accepted.task_id, action: "task.started" } })).toBe(0);
    } finally {
      await worker.release();
      await undo?.();
    }
  });

  it("revoking a session while two gateways' workers claim its tasks: each task either ran once or ended revoked, never both", async () => {
    const v = await victim();
    const worker = await holdWorker();
    const tags = Array.from({ length: 10 }, () => tag("race"));
    const ids: string[] = [];
    try {
      for (const t of tags) ids.push((await call(v.agent, "slow__slow_write", { ms: 5, tag: t })).task_id);
    } finally {
      // Both workers start claiming while the revocation commits: the row's conditional update decides each task.
      await Promise.all([worker.release(), a.gateway.sessions.revoke(admin, v.sessionId)]);
    }
    for (const [i, id] of ids.entries()) {
      const row = await final(id);
      expect(["SUCCEEDED", "CANCELED"]).toContain(row.status);
      expect(starts(tags[i]!)).toBe(row.status === "SUCCEEDED" ? 1 : 0);
      expect(await denials(id)).toBe(row.status === "CANCELED" ? 1 : 0);
      if (row.status === "CANCELED") expect(row.errorCode).toBe("authorization_revoked");
    }
  });

  describe("a HIGH-tier task runs only with an approval bound to its arguments", () => {
    const approve = async (id: string) => {
      const approver = await insertUser(db, { role: "APPROVER" });
      await a.gateway.approvals.decide(userContext(approver), { userId: approver.id, role: approver.role }, id, { decision: "approve" });
    };
    beforeAll(async () => void (await a.gateway.registry.updateTool(admin, "slow__slow_write", { riskTier: "HIGH" })));
    afterAll(async () => void (await a.gateway.registry.updateTool(admin, "slow__slow_write", { riskTier: "MEDIUM" })));

    it("an approved call still runs (regression)", async () => {
      const v = await victim();
      const t = tag("approved");
      const held = await call(v.agent, "slow__slow_write", { ms: 10, tag: t });
      expect(held.status).toBe("AWAITING_APPROVAL");
      await approve(held.approval_id!);
      expect(await final(held.task_id)).toMatchObject({ status: "SUCCEEDED" });
      expect(starts(t)).toBe(1);
      expect(await denials(held.task_id)).toBe(0);
    });

    it("a task whose arguments no longer match its approval is refused", async () => {
      const v = await victim();
      const worker = await holdWorker();
      const bound = tag("bound");
      const swapped = tag("swapped");
      try {
        const held = await call(v.agent, "slow__slow_write", { ms: 10, tag: bound });
        await approve(held.approval_id!);
        // Approved for one set of arguments; the row now carries another, which the approval does not cover.
        await db.task.update({ where: { id: held.task_id }, data: { arguments: { ms: 10, tag: swapped } } });
        await worker.release();
        expect(await final(held.task_id)).toMatchObject({ status: "CANCELED", errorCode: "authorization_revoked" });
        expect(starts(bound) + starts(swapped)).toBe(0);
        expect(await denials(held.task_id)).toBe(1);
      } finally {
        await worker.release();
      }
    });
  });

  describe("between a crash and its retry", () => {
    // Read-only, so retryable; inline on its gateway process (threshold adoption), so a crash leaves it RUNNING on a dead runner.
    const tool = "slow__slow_read";
    let child: ChildProcess | undefined;
    beforeAll(async () => void (await a.gateway.registry.updateTool(admin, tool, { async: false })));
    afterAll(async () => {
      if (child && child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
      await a.gateway.registry.updateTool(admin, tool, { async: true });
    });

    /**
     * `tag`'s call on a gateway process of its own (a crash is the death of a runner, so one per case; they are
     * not started together: six at once ran the test database out of connections), killed while the upstream runs the call.
     */
    async function crashWhileRunning(v: { agent: Agent }, t: string): Promise<string> {
      let url: string;
      ({ child, url } = await spawnGatewayProcess({ TASK_THRESHOLD_MS: "200", TASK_SWEEP_INTERVAL_MS: "600000" }));
      const onChild = await connectAgent(new URL("/mcp", url), v.agent.token);
      const file = path.join(dir, `${t}-release`);
      const accepted = await call(onChild, tool, { ms: 0, until: file, tag: t });
      expect(accepted.status).toBe("RUNNING");
      await waitUntil("the call to run upstream", () => starts(t) === 1);
      const exited = new Promise((resolve) => child!.once("exit", resolve));
      child.kill("SIGKILL");
      await exited;
      await onChild.close().catch(() => undefined);
      // A retry that got through would finish at once: a second start in the log, the task SUCCEEDED.
      await writeFile(file, "");
      return accepted.task_id;
    }

    it.each(cases)("$name between a crash and its retry: the upstream never sees the retry, CANCELED authorization_revoked, one audit denial", async (c) => {
      const v = await victim();
      const t = tag(`crash-${c.name.replace(/\W+/g, "-")}`);
      const taskId = await crashWhileRunning(v, t);
      const undo = await c.change({ ...v, tool });
      try {
        // The dead runner's lock went with its connection; sweep until this process requeues the task.
        await waitUntil("the task to be recovered", async () => {
          await a.gateway.taskEngine.sweep();
          return (await db.task.findUniqueOrThrow({ where: { id: taskId } })).status !== "RUNNING";
        }, 20_000);
        const row = await final(taskId);
        // Claimed again (its second start) and refused by re-authorization, by the step that checks this change.
        expect(row).toMatchObject({ status: "CANCELED", errorCode: "authorization_revoked", attempts: 2 });
        expect(starts(t)).toBe(1);
        expect(await denials(taskId)).toBe(1);
        const canceled = await db.taskEvent.findFirstOrThrow({ where: { taskId, type: "canceled" } });
        expect(canceled.data).toMatchObject({ step: c.step });
      } finally {
        await undo?.();
      }
    });
  });
});
