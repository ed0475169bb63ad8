// /metrics and the dashboard against real calls: an SDK agent calls the misbehaving fixture through /mcp (ok,
// a tool error, a disabled tool's refusal, a HIGH-tier call held for an approver) and the scrape's counters,
// histogram and gauges, and the dashboard's numbers, must say exactly that. A second server that refuses to
// start is the unhealthy one.
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { User } from "../db/client";
import { insertUser, userContext } from "../test/contexts";
import {
  misbehavingServer,
  setUpGatewayTest,
  tempDir,
  type Agent,
  type GatewayTestEnv,
  type TestGateway,
} from "../test/gateway-harness";
import { parsePromText, sampleValue, type Sample } from "../test/prom-text";
import { metricsRegistry } from "./metrics";
import { createTestDb } from "../test/test-db";

const OK = "ops__whoami";
const FAIL = "ops__fail";
const DISABLED = "ops__counted";
const HIGH = "ops__slow_write";

describe("metrics and dashboard", () => {
  const db = createTestDb();
  let env: GatewayTestEnv;
  let g: TestGateway;
  let agent: Agent;
  let requester: User;
  let samples: Sample[];
  /** The scrape before this file's calls: the counters are the process's, and other files may have counted. */
  let before: Sample[];
  let approvalId = "";

  const scrape = async () => parsePromText(await g.gateway.metrics().scrape());
  /** What this file's calls added to a counter. */
  const added = (name: string, labels: Record<string, string>) => (sampleValue(samples, name, labels) ?? 0) - (sampleValue(before, name, labels) ?? 0);
  const calls = (tool: string, status: string, decision: string) => added("portcullis_tool_calls_total", { endpoint: "mcp", tool, status, decision });

  beforeAll(async () => {
    env = await setUpGatewayTest(db, "metrics", {
      tasks: { thresholdMs: 5000, sweepIntervalMs: 60_000, concurrency: 1, dedupeWindowMs: 0 },
      approvals: { ttlMs: 60_000, sweepIntervalMs: 60_000 },
    });
    g = env.gateways[0]!;
    await g.gateway.registry.register(env.admin, misbehavingServer(env.dir, { slug: "ops", timeoutMs: 60_000 }));
    await g.gateway.registry.updateTool(env.admin, HIGH, { riskTier: "HIGH" });
    await g.gateway.registry.updateTool(env.admin, DISABLED, { enabled: false });
    const brokenDir = await tempDir("metrics-broken");
    await writeFile(path.join(brokenDir, "refuse-start"), "");
    const broken = await g.gateway.registry.register(env.admin, misbehavingServer(brokenDir, { slug: "broken" }));
    expect(broken.server.status).toBe("DOWN");

    agent = await env.agent();
    requester = (await db.agentSession.findFirstOrThrow({ include: { user: true } })).user;
    // The per-process counters alone (a full scrape would also cache the database gauges for half a second).
    before = parsePromText(await metricsRegistry.metrics());
    const call = (name: string, args: Record<string, unknown> = {}) => agent.client.callTool({ name, arguments: args });
    for (let i = 0; i < 3; i++) expect((await call(OK)).isError ?? false).toBe(false);
    for (let i = 0; i < 2; i++) expect((await call(FAIL)).isError).toBe(true);
    expect((await call(DISABLED, { name: "x" })).isError).toBe(true);
    const held = await call(HIGH, { ms: 10, tag: "metrics" });
    approvalId = (held.structuredContent as { approval_id: string }).approval_id;
    expect(approvalId).toBeTruthy();
    samples = await scrape();
  });

  afterAll(async () => {
    await env?.close();
  });

  it("counts calls by endpoint, tool, status and decision", () => {
    expect(calls(OK, "ok", "allow")).toBe(3);
    expect(calls(FAIL, "error", "allow")).toBe(2);
    expect(calls(DISABLED, "denied", "deny")).toBe(1);
    expect(calls(HIGH, "held", "require_approval")).toBe(1);
  });

  it("has a latency histogram per endpoint and tool", () => {
    const labels = { endpoint: "mcp", tool: OK };
    expect(added("portcullis_tool_call_duration_seconds_count", labels)).toBe(3);
    expect(added("portcullis_tool_call_duration_seconds_bucket", { ...labels, le: "+Inf" })).toBe(3);
    expect(added("portcullis_tool_call_duration_seconds_sum", labels)).toBeGreaterThan(0);
    const buckets = samples
      .filter((s) => s.name === "portcullis_tool_call_duration_seconds_bucket" && s.labels.tool === OK)
      .map((s) => s.value);
    expect(buckets.length).toBeGreaterThan(5);
    expect([...buckets].sort((a, b) => a - b)).toEqual(buckets); // cumulative
  });

  it("reports upstream status from the server rows and this process's circuit state", () => {
    expect(sampleValue(samples, "portcullis_upstream_status", { server: "ops", status: "HEALTHY" })).toBe(1);
    expect(sampleValue(samples, "portcullis_upstream_status", { server: "ops", status: "DOWN" })).toBe(0);
    // The broken server is retried: DOWN between attempts, CONNECTING during one.
    const broken = (status: string) => sampleValue(samples, "portcullis_upstream_status", { server: "broken", status });
    expect(broken("DOWN")! + broken("CONNECTING")!).toBe(1);
    expect(broken("HEALTHY")).toBe(0);
    expect(sampleValue(samples, "portcullis_upstream_up", { server: "ops" })).toBe(1);
    expect(sampleValue(samples, "portcullis_upstream_up", { server: "broken" })).toBe(0);
    expect(
      sampleValue(samples, "portcullis_upstream_circuit_state", { server: "ops", role: "active", state: "closed" }),
    ).toBe(1);
    expect(
      sampleValue(samples, "portcullis_upstream_circuit_state", { server: "ops", role: "active", state: "open" }),
    ).toBe(0);
    expect(sampleValue(samples, "portcullis_metrics_state_up")).toBe(1);
  });

  it("reports the task queue, pending approvals and the audit writer's lag", () => {
    expect(sampleValue(samples, "portcullis_task_queue_depth", { status: "AWAITING_APPROVAL" })).toBe(1);
    expect(sampleValue(samples, "portcullis_task_queue_depth", { status: "PENDING" })).toBe(0);
    expect(sampleValue(samples, "portcullis_task_queue_depth", { status: "RUNNING" })).toBe(0);
    expect(sampleValue(samples, "portcullis_task_oldest_pending_age_seconds")).toBe(0);
    expect(sampleValue(samples, "portcullis_approvals_pending")).toBe(1);
    const age = sampleValue(samples, "portcullis_approval_oldest_pending_age_seconds")!;
    expect(age).toBeGreaterThanOrEqual(0);
    expect(age).toBeLessThan(120);
    expect(sampleValue(samples, "portcullis_audit_write_pending_rows")).toBe(0);
    expect(sampleValue(samples, "portcullis_audit_write_lag_seconds")).toBe(0);
    expect(sampleValue(samples, "portcullis_audit_last_batch_seconds")).toBeGreaterThan(0);
  });

  it("includes the Node.js process metrics", () => {
    expect(sampleValue(samples, "process_cpu_user_seconds_total")).toBeGreaterThan(0);
    expect(sampleValue(samples, "nodejs_heap_size_used_bytes")).toBeGreaterThan(0);
  });

  it("a decided approval leaves the pending gauge on the next scrape", async () => {
    const approver = await insertUser(db, { role: "APPROVER" });
    await g.gateway.approvals.decide(userContext(approver), { userId: approver.id, role: approver.role }, approvalId, {
      decision: "reject",
      comment: "no",
    });
    await new Promise((r) => setTimeout(r, 600)); // past the per-scrape cache
    const after = await scrape();
    expect(sampleValue(after, "portcullis_approvals_pending")).toBe(0);
    expect(sampleValue(after, "portcullis_approval_oldest_pending_age_seconds")).toBe(0);
    expect(sampleValue(after, "portcullis_task_queue_depth", { status: "AWAITING_APPROVAL" })).toBe(0);
  });

  it("the dashboard counts the same calls (approvers and admins: everyone's)", async () => {
    const admin = await db.user.findFirstOrThrow({ where: { role: "ADMIN" } });
    const d = await g.gateway.dashboard({ userId: admin.id, role: "ADMIN" }, { window: 60 });
    expect(d.scope).toBe("all");
    expect(d.totals).toMatchObject({ calls: 7, errors: 2, denials: 1, held: 1 });
    expect(d.totals.errorRate).toBeCloseTo(2 / 7, 5);
    expect(d.totals.p95Ms).not.toBeNull();
    expect(d.totals.callsPerMinute).toBeCloseTo(7 / 60, 2);
    expect(d.series).toHaveLength(60);
    expect(d.series.reduce((n, p) => n + p.calls, 0)).toBe(7);
    expect(d.series.reduce((n, p) => n + p.denials, 0)).toBe(1);
    expect(d.topTools[0]).toMatchObject({ tool: OK, calls: 3, errors: 0 });
    expect(d.topTools.find((t) => t.tool === FAIL)).toMatchObject({ calls: 2, errors: 2 });
    expect(d.topTools.find((t) => t.tool === DISABLED)).toMatchObject({ calls: 1, denials: 1 });
    expect(d.unhealthyServers).toEqual([
      expect.objectContaining({
        slug: "broken",
        name: "Misbehaving fixture",
        lastError: expect.stringMatching(/closed|exit/i) as string,
      }),
    ]);
    expect(["DOWN", "CONNECTING"]).toContain(d.unhealthyServers[0]!.status);
    // The held call's approval was rejected by the test before; no request is pending now.
    expect(d.pendingApprovals).toEqual({ count: 0, oldestAt: null });
  });

  it("a user's dashboard covers their own calls and requests only, without servers' error text", async () => {
    const own = await g.gateway.dashboard({ userId: requester.id, role: "USER" }, { window: 15 });
    expect(own.scope).toBe("mine");
    expect(own.totals).toMatchObject({ calls: 7, errors: 2, denials: 1 });
    expect(own.series).toHaveLength(15);
    expect(own.unhealthyServers).toEqual([expect.objectContaining({ slug: "broken", lastError: null })]);
    const stranger = await insertUser(db, { role: "USER" });
    const none = await g.gateway.dashboard({ userId: stranger.id, role: "USER" }, { window: 60 });
    expect(none.totals).toMatchObject({ calls: 0, errors: 0, denials: 0, errorRate: null, p95Ms: null });
    expect(none.topTools).toEqual([]);
  });
});
