// A call's event in two steps (AUDIT_OUTCOME=after_answer, the default): its request record is committed while
// the upstream runs and the answer waits for it; the outcome completes the same row after the answer. Proved on
// a gateway process killed with SIGKILL under load: every answered call has its record, once; the records of
// calls the dead process left open are marked `interrupted` by the next process, while a live process's
// running call is left alone.
import type { ChildProcess } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectAgent, firstText, misbehavingServer, setUpGatewayTest, spawnGatewayProcess, startTestGateway, tempDir, waitUntil, type Agent, type GatewayTestEnv } from "../test/gateway-harness";
import { createTestDb, testDatabaseUrl } from "../test/test-db";
import { holdAuditOwner, sweepInterruptedCalls } from "./audit-owner";
import { createAuditWriter, pgSink, prismaSink } from "./audit-writer";
import { auditRow } from "../test/audit-row";

/** A request record as the pipeline hands it to `begin` (no decision or duration yet). */
const record = (name: string) => auditRow(name, { status: "started", decision: null, durationMs: null });

describe("audit record before the answer, outcome after it", () => {
  const db = createTestDb();
  let env: GatewayTestEnv;
  const children: ChildProcess[] = [];
  const byName = (prefix: string) =>
    db.auditEvent.findMany({ where: { action: "tool.called", arguments: { path: ["name"], string_starts_with: prefix } }, orderBy: { id: "asc" } });
  const hangRows = (mcpSessionIds: string[]) => db.auditEvent.findMany({ where: { action: "tool.called", toolName: "out__hang", mcpSessionId: { in: mcpSessionIds } } });

  beforeAll(async () => {
    env = await setUpGatewayTest(db, "audit-outcome", { env: { AUDIT_OUTCOME: "after_answer" } });
    const { server } = await env.gateways[0]!.gateway.registry.register(env.admin, misbehavingServer(env.dir, { slug: "out" }));
    if (server.status !== "HEALTHY") throw new Error(server.lastError ?? "out did not start");
  });

  afterAll(async () => {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill("SIGKILL");
    await env?.close();
  });

  it("a record and its outcome in one batch are one row; only an open record's outcome may change a row; a closed owner's open record is swept", async () => {
    const url = testDatabaseUrl();
    const writer = createAuditWriter(pgSink(url), { owner: holdAuditOwner(url, () => undefined) });
    // x's insert is under way when a's record and outcome queue: they go in the next batch together.
    const x = writer.begin!(record("unit-x"));
    const a = writer.begin!(record("unit-a"));
    await Promise.all([x.committed, a.committed, a.end(auditRow("unit-a", { durationMs: 5 }))]);
    const [xr] = await byName("unit-x");
    const [ar, ...more] = await byName("unit-a");
    expect(more).toEqual([]);
    expect(ar).toMatchObject({ status: "ok", decision: "allow", durationMs: 5 });
    expect(xr).toMatchObject({ status: "started", decision: null, durationMs: null, details: { owner: expect.stringMatching(/^audit-/) as unknown } });
    await expect(db.$executeRawUnsafe(`UPDATE audit_events SET status = 'error' WHERE id = $1`, ar!.id)).rejects.toThrow(/append-only/);
    await expect(db.$executeRawUnsafe(`UPDATE audit_events SET status = 'ok', arguments = '{}' WHERE id = $1`, xr!.id)).rejects.toThrow(/append-only/);
    // Its owner is alive: not swept. Closed (its lock released): swept.
    await sweepInterruptedCalls(prismaSink(db), "another-process");
    expect((await byName("unit-x"))[0]!.status).toBe("started");
    await writer.close();
    await sweepInterruptedCalls(prismaSink(db), "another-process");
    expect((await byName("unit-x"))[0]).toMatchObject({ status: "interrupted", errorCode: "interrupted" });
  });

  it("the request's record is committed while the upstream runs (status started), and the outcome completes the same row", async () => {
    const agent = await env.agent();
    // `hang` never answers: whatever is in the log was committed before any answer.
    const pending = agent.client.callTool({ name: "out__hang", arguments: {} }).catch(() => undefined);
    const [record] = await waitUntil("the request's record", async () => {
      const rows = await hangRows([agent.sessionId]);
      return rows.length > 0 && rows;
    });
    expect(record).toMatchObject({ status: "started", toolName: "out__hang", endpoint: "mcp", mcpSessionId: agent.sessionId, decision: null, durationMs: null });
    void pending;

    const result = await agent.client.callTool({ name: "out__counted", arguments: { name: "split-1" } });
    expect(result.isError ?? false, firstText(result)).toBe(false);
    const [done] = await waitUntil("the outcome", async () => {
      const rows = await byName("split-1");
      return rows[0]?.status === "ok" && rows;
    });
    expect(await byName("split-1")).toHaveLength(1);
    expect(done).toMatchObject({ status: "ok", decision: "allow", toolName: "out__counted" });
    expect(done!.durationMs).not.toBeNull();
    expect(done!.resultBytes).toBeGreaterThan(0);
  });

  it("a clean shutdown writes the outcomes of answered calls", async () => {
    const gw = await startTestGateway({ env: { AUDIT_OUTCOME: "after_answer" } });
    const agent = await connectAgent(gw.mcpUrl, env.token);
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => agent.client.callTool({ name: "out__counted", arguments: { name: `shutdown-${String(i)}` } })));
    expect(results.every((r) => !r.isError)).toBe(true);
    await agent.close();
    await gw.close();
    const rows = await byName("shutdown-");
    expect(rows).toHaveLength(10);
    expect(rows.map((r) => r.status)).toEqual(Array<string>(10).fill("ok"));
  });

  it("SIGKILL under load: every answered call has its record, once; the dead process's open records become interrupted, a live process's stay started", async () => {
    // A call in flight on this (live) process: the next process's sweep must not touch its record.
    const live = await env.agent();
    void live.client.callTool({ name: "out__hang", arguments: {} }).catch(() => undefined);
    await waitUntil("the live call's record", async () => (await hangRows([live.sessionId])).length === 1);

    // Identical calls are not deduplicated there: each hanging call is a call of its own.
    const dataDir = await tempDir("audit-outcome-data");
    const first = await spawnGatewayProcess({ DATA_DIR: dataDir, TASK_THRESHOLD_MS: "600000", TASK_DEDUPE_WINDOW_SECONDS: "0" });
    children.push(first.child);
    const agents: Agent[] = await Promise.all(Array.from({ length: 5 }, () => connectAgent(new URL("/mcp", first.url), env.token)));
    const answered = new Set<string>();
    const names = Array.from({ length: 40 }, (_, i) => `kill-${String(i).padStart(2, "0")}`);
    const calls = names.map((name, i) =>
      agents[i % agents.length]!.client.callTool({ name: "out__counted", arguments: { name } }).then(
        (r) => {
          if (!r.isError) answered.add(name);
        },
        () => undefined, // cut off by the kill
      ),
    );
    // Calls the kill will certainly catch in flight.
    const hanging = agents.map((a) => a.client.callTool({ name: "out__hang", arguments: {} }).catch(() => undefined));
    const sessions = agents.map((a) => a.sessionId);
    await waitUntil("every hanging call's record and some answers", async () => answered.size >= 10 && (await hangRows(sessions)).length === agents.length);
    const exited = new Promise((resolve) => first.child.once("exit", resolve));
    first.child.kill("SIGKILL");
    await exited;
    const answeredAtKill = new Set(answered);
    await Promise.all([...calls, ...hanging]);
    await Promise.all(agents.map((a) => a.close().catch(() => undefined)));

    // Every answered call has its record (ok, or interrupted if its outcome died with the process); none twice.
    const before = await byName("kill-");
    const counts = new Map<string, number>();
    for (const r of before) counts.set((r.arguments as { name: string }).name, (counts.get((r.arguments as { name: string }).name) ?? 0) + 1);
    expect([...counts.values()].every((n) => n === 1)).toBe(true);
    for (const name of answeredAtKill) expect(counts.get(name), name).toBe(1);
    // The hanging calls' records are all there: still started, or already interrupted if this file's own gateway
    // (a live process, which sweeps too) saw the dead process's lock go before this look (CI, under load).
    const open = await hangRows(sessions);
    expect(open).toHaveLength(agents.length);
    expect(open.filter((r) => r.status !== "started" && r.status !== "interrupted")).toEqual([]);

    // The next process marks the dead one's open records interrupted at start.
    // (Its sweep runs again every TASK_SWEEP_INTERVAL_MS, should the dead process's lock outlive it a moment.)
    const second = await spawnGatewayProcess({ DATA_DIR: dataDir, TASK_THRESHOLD_MS: "600000", TASK_DEDUPE_WINDOW_SECONDS: "0", TASK_SWEEP_INTERVAL_MS: "200" });
    children.push(second.child);
    const swept = await waitUntil("the dead process's records to be swept", async () => {
      const rows = await hangRows(sessions);
      return rows.every((r) => r.status === "interrupted") && rows;
    });
    expect(swept.every((r) => r.errorCode === "interrupted")).toBe(true);
    const after = await byName("kill-");
    expect(after.map((r) => r.id)).toEqual(before.map((r) => r.id));
    expect(after.every((r) => r.status === "ok" || r.status === "interrupted")).toBe(true);
    expect(after.filter((r) => answeredAtKill.has((r.arguments as { name: string }).name)).every((r) => r.status === "ok" || r.status === "interrupted")).toBe(true);
    // The live process's call is still running, and its record says so.
    expect((await hangRows([live.sessionId])).map((r) => r.status)).toEqual(["started"]);
  });
});
