// Claim before acting: many agents of one agent session send the same call at once (with one idempotency key,
// or identical within the dedupe window) to two in-process gateways and a gateway in a process of its own.
// The upstream is the misbehaving fixture's slow_write, held until the test creates a file (`until`), so every
// call is in flight together; the fixture's own log counts how often it really ran.
import type { ChildProcess } from "node:child_process";
import { CreateTaskResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectAgent, fixtureEvents, firstText, misbehavingServer, setUpGatewayTest, spawnGatewayProcess, stopGatewayProcess, waitUntil, type Agent, type GatewayTestEnv } from "../test/gateway-harness";
import { readState } from "../metrics/gateway-metrics";
import { createTestDb } from "../test/test-db";

const TOOL = "claim__slow_write";
const CALLERS_PER_GATEWAY = 4;

type TaskMeta = { taskId: string; status: string; replay?: boolean };
type CallResult = Awaited<ReturnType<Agent["client"]["callTool"]>>;

describe("claiming a call before it runs", () => {
  const db = createTestDb();
  let env: GatewayTestEnv;
  let child: ChildProcess | undefined;
  let childUrl = "";
  let dir = "";
  let seq = 0;
  const tag = (label: string) => `${label}-${String(++seq)}`;
  const starts = (t: string) => fixtureEvents(dir).filter((e) => e.event === "slow.start" && (e.args as { tag?: string }).tag === t).length;
  const cancels = (t: string) => fixtureEvents(dir).filter((e) => e.event === "cancelled" && (e.args as { tag?: string }).tag === t).length;
  /** The claim rows (call_claims) of the calls tagged `t`. */
  const claimsOf = (t: string) => db.callClaim.count({ where: { toolName: TOOL, arguments: { contains: `"tag":"${t}"` } } });
  const taskOf = (result: { _meta?: Record<string, unknown> }) => result._meta?.["portcullis/task"] as TaskMeta | undefined;

  /** Agents of the one agent session on every gateway: two in this process, one in a process of its own. */
  async function callers(): Promise<Agent[]> {
    const urls = [env.gateways[0]!.mcpUrl, env.gateways[1]!.mcpUrl, new URL("/mcp", childUrl)];
    const agents: Agent[] = [];
    for (const url of urls) for (let i = 0; i < CALLERS_PER_GATEWAY; i++) agents.push(await connectAgent(url, env.token));
    env.agents.push(...agents);
    return agents;
  }

  /**
   * Sends the calls together and releases the upstream once every call but the one that runs has its answer
   * (a call may wait for its result until the release), or as soon as the upstream has started it twice.
   */
  async function together(agents: Agent[], t: string, send: (ag: Agent, release: string) => Promise<CallResult>): Promise<CallResult[]> {
    const release = path.join(dir, `${t}.release`);
    let answered = 0;
    const calls = agents.map((ag) => send(ag, release).finally(() => answered++));
    await waitUntil("all but one call to be answered", () => answered >= agents.length - 1 || starts(t) > 1);
    await writeFile(release, "");
    return Promise.all(calls);
  }

  const finished = (taskId: string) =>
    waitUntil(`task ${taskId} to finish`, async () => {
      const row = await db.task.findUnique({ where: { id: taskId } });
      return row && row.finishedAt ? row : undefined;
    }, 20_000);

  beforeAll(async () => {
    // Every process answers in time for a minute, so the call that runs is answered with its own result however
    // long the others take to be answered with its task (with 300 ms, a loaded machine promoted it first).
    env = await setUpGatewayTest(db, "claim", { gateways: 2, tasks: { thresholdMs: 60_000, dedupeWindowMs: 30_000, sweepIntervalMs: 200 } });
    dir = env.dir;
    await env.gateways[0]!.gateway.registry.register(env.admin, misbehavingServer(dir, { slug: "claim", timeoutMs: 60_000 }));
    // So does the other process: its calls stay plain calls (see the last test).
    ({ child, url: childUrl } = await spawnGatewayProcess({ TASK_THRESHOLD_MS: "60000", TASK_DEDUPE_WINDOW_SECONDS: "30", TASK_SWEEP_INTERVAL_MS: "200" }));
  });

  afterAll(async () => {
    await stopGatewayProcess(child);
    await env?.close();
  });

  it("concurrent calls with one idempotency key on three gateways run the tool once, and all answer with its task", async () => {
    const agents = await callers();
    const t = tag("key");
    const answers = await together(agents, t, (ag, until) => ag.client.callTool({ name: TOOL, arguments: { ms: 0, tag: t, until }, _meta: { idempotencyKey: `key-${t}` } }));
    const ids = new Set(answers.map((r) => taskOf(r)?.taskId));
    expect(ids.size, JSON.stringify(answers.map(firstText))).toBe(1);
    const [taskId] = [...ids] as [string];
    expect(answers.filter((r) => taskOf(r)?.replay === true)).toHaveLength(agents.length - 1);
    const row = await finished(taskId);
    expect(row).toMatchObject({ status: "SUCCEEDED", origin: "idempotent" });
    expect(starts(t)).toBe(1);
    expect(cancels(t)).toBe(0);
    expect(await db.task.count({ where: { idempotencyKey: `key-${t}` } })).toBe(1);
    // Every answer is audited with the task, and none as an upstream fault (the losers never reached it).
    const audits = await waitUntil("every call's audit event", async () => {
      const rows = await db.auditEvent.findMany({ where: { action: "tool.called", taskId } });
      return rows.length === agents.length ? rows : undefined;
    });
    expect(audits.map((a) => a.errorCode).filter(Boolean)).toEqual([]);
  });

  it("concurrent identical calls without a key (the dedupe window) run the tool once: the first answers with its result, the rest with its task", async () => {
    const agents = await callers();
    const t = tag("dedupe");
    const answers = await together(agents, t, (ag, until) => ag.client.callTool({ name: TOOL, arguments: { ms: 0, tag: t, until } }));
    // The call that ran is answered with its plain result (its claim is settled after the answer, D101); every
    // other call is answered with the one task its claim became.
    const plain = answers.filter((r) => !taskOf(r));
    expect(plain.map(firstText)).toEqual([`slow_write ${t} done`]);
    const ids = new Set(answers.filter((r) => taskOf(r)).map((r) => taskOf(r)?.taskId));
    expect(ids.size, JSON.stringify(answers.map(firstText))).toBe(1);
    const [taskId] = [...ids] as [string];
    const row = await finished(taskId);
    expect(row.status).toBe("SUCCEEDED");
    // The task holds the outcome the first call was answered with.
    expect((row.result as { content: { text: string }[] }).content[0]!.text).toBe(`slow_write ${t} done`);
    expect(starts(t)).toBe(1);
    expect(cancels(t)).toBe(0);
    expect(await db.task.count({ where: { argumentsHash: row.argumentsHash } })).toBe(1);
    // The claim it was made of is deleted once the task has ended.
    await waitUntil("the claim to be released", async () => (await claimsOf(t)) === 0);
  });

  it("MCP-task requests and ordinary calls of one call racing on three gateways run the tool once, and share one task", async () => {
    const agents = await callers();
    const t = tag("mixed");
    const answers = await together(agents, t, async (ag, until) => {
      const params = { name: TOOL, arguments: { ms: 0, tag: t, until } };
      // Every other caller asks for an MCP task (queued, place-claim.ts); the rest call plainly (call_claims).
      if (agents.indexOf(ag) % 2 === 0) return ag.client.callTool(params);
      const created = await ag.client.request({ method: "tools/call", params: { ...params, task: { ttl: 60_000 } } }, CreateTaskResultSchema);
      return { content: [], _meta: { "portcullis/task": { taskId: created.task.taskId, status: created.task.status } } };
    });
    const ids = new Set(answers.filter((r) => taskOf(r)).map((r) => taskOf(r)?.taskId));
    expect(ids.size, JSON.stringify(answers)).toBe(1);
    const row = await finished([...ids][0]!);
    expect(row.status).toBe("SUCCEEDED");
    expect((row.result as { content: { text: string }[] }).content[0]!.text).toBe(`slow_write ${t} done`);
    expect(starts(t)).toBe(1);
    // Whichever came first, every plain answer is that one run's.
    for (const r of answers.filter((r) => !taskOf(r))) expect(firstText(r)).toBe(`slow_write ${t} done`);
    // The same call once more, within the window: answered with the task's result, not run; whichever claim was
    // left (a queued task's is released by nobody) is gone once an identical call has met it.
    const again = await agents[0]!.client.callTool({ name: TOOL, arguments: { ms: 0, tag: t, until: path.join(dir, `${t}.release`) } });
    expect(firstText(again)).toBe(`slow_write ${t} done`);
    expect(taskOf(again)).toMatchObject({ taskId: row.id, replay: true });
    expect(starts(t)).toBe(1);
    expect(await claimsOf(t)).toBe(0);
  });

  it("rounds of quick identical calls racing on three gateways: never two runs of one call at once, every call answered with its outcome, no claim left", async () => {
    const agents = await callers();
    for (let round = 0; round < 8; round++) {
      const t = tag("race");
      // Quick calls: the first is answered and its claim settled while the others are still claiming, joining or
      // finding it gone (then they run anew, after it): every interleaving of join and settle is exercised.
      const answers = await Promise.all(agents.map((ag) => ag.client.callTool({ name: TOOL, arguments: { ms: 5, tag: t } })));
      for (const r of answers) {
        const handed = taskOf(r);
        if (!handed) expect(firstText(r)).toBe(`slow_write ${t} done`);
        else {
          const row = await finished(handed.taskId);
          expect(row.status).toBe("SUCCEEDED");
          expect((row.result as { content: { text: string }[] }).content[0]!.text).toBe(`slow_write ${t} done`);
        }
      }
      // The upstream's log, in order: a run of this call starts only once the one before it has ended.
      let running = 0;
      for (const e of fixtureEvents(dir).filter((e) => (e.args as { tag?: string } | undefined)?.tag === t)) {
        running += e.event === "slow.start" ? 1 : -1;
        expect(running, `round ${String(round)}`).toBeLessThanOrEqual(1);
      }
      expect(starts(t)).toBeGreaterThanOrEqual(1);
      expect(starts(t)).toBeLessThanOrEqual(answers.filter((r) => !taskOf(r)).length);
      await waitUntil("every claim to be settled", async () => (await claimsOf(t)) === 0);
    }
  });

  it("a call answered in time keeps no task, unless an identical call was answered with it meanwhile", async () => {
    const [onChild, onA] = [await connectAgent(new URL("/mcp", childUrl), env.token), await connectAgent(env.gateways[0]!.mcpUrl, env.token)];
    env.agents.push(onChild, onA);
    const t = tag("in-time");
    const release = path.join(dir, `${t}.release`);
    const args = { ms: 0, tag: t, until: release };
    const first = onChild.client.callTool({ name: TOOL, arguments: args });
    await waitUntil("the upstream to start the call", () => starts(t) === 1);
    // The same call again, with the keys in another order: the same call.
    const again = await onA.client.callTool({ name: TOOL, arguments: { until: release, tag: t, ms: 0 } });
    const handed = taskOf(again);
    expect(handed).toMatchObject({ status: "RUNNING", replay: true });
    await writeFile(release, "");
    expect(firstText(await first)).toBe(`slow_write ${t} done`);
    const row = await finished(handed!.taskId);
    expect(row).toMatchObject({ status: "SUCCEEDED", origin: "threshold" });
    expect(starts(t)).toBe(1);

    // Alone, a call answered in time leaves no row behind.
    const q = tag("alone");
    const quick = await onChild.client.callTool({ name: TOOL, arguments: { ms: 0, tag: q } });
    expect(firstText(quick)).toBe(`slow_write ${q} done`);
    expect(taskOf(quick)).toBeUndefined();
    // Its claim is deleted after the answer (D101), and it never was a task.
    await waitUntil("the claim to be deleted", async () => (await claimsOf(q)) === 0);
    expect(await db.task.count({ where: { toolName: TOOL, arguments: { path: ["tag"], equals: q } } })).toBe(0);
  });

  it("a call the agent cancels is audited as canceled, not as an upstream timeout", async () => {
    const ag = await connectAgent(new URL("/mcp", childUrl), env.token);
    env.agents.push(ag);
    const t = tag("cancel");
    const controller = new AbortController();
    const pending = ag.client.callTool({ name: TOOL, arguments: { ms: 0, tag: t, until: path.join(dir, `${t}.never`) } }, undefined, { signal: controller.signal });
    await waitUntil("the upstream to start the call", () => starts(t) === 1);
    controller.abort(new Error("the agent changed its mind"));
    await expect(pending).rejects.toThrow();
    await waitUntil("the upstream to hear the cancellation", () => cancels(t) === 1);
    // Its outcome: the process answers once the call's record is committed and completes it after.
    const audit = await waitUntil("the call's audit event", async () =>
      (await db.auditEvent.findMany({ where: { action: "tool.called", toolName: TOOL, status: { not: "started" } } })).find((e) => (e.arguments as { tag?: string } | null)?.tag === t),
    );
    expect(audit).toMatchObject({ status: "error", errorCode: "canceled" });
    await waitUntil("the claim to be deleted", async () => (await claimsOf(t)) === 0);
    expect(await db.task.count({ where: { toolName: TOOL, arguments: { path: ["tag"], equals: t } } })).toBe(0);
  });

  // Last: it kills the other process.
  it("the claim of a call whose process died is removed by another process's sweep, not recovered as a task", async () => {
    const ag = await connectAgent(new URL("/mcp", childUrl), env.token);
    env.agents.push(ag);
    const t = tag("orphan");
    void ag.client.callTool({ name: TOOL, arguments: { ms: 0, tag: t, until: path.join(dir, `${t}.never`) } }).catch(() => undefined);
    await waitUntil("the upstream to start the call", () => starts(t) === 1);
    expect(await claimsOf(t)).toBe(1);
    // Not a task: nothing of it is in tasks, and /metrics does not count it in the queue.
    expect(await db.task.count({ where: { toolName: TOOL, arguments: { path: ["tag"], equals: t } } })).toBe(0);
    expect((await readState(db, 5000)).tasks.RUNNING ?? 0).toBe(await db.task.count({ where: { status: "RUNNING" } }));
    const exited = new Promise((resolve) => child!.once("exit", resolve));
    child!.kill("SIGKILL");
    await exited;
    await waitUntil("the claim to be removed", async () => (await claimsOf(t)) === 0);
    expect(await db.task.count({ where: { toolName: TOOL, arguments: { path: ["tag"], equals: t } } })).toBe(0);
  });
});
