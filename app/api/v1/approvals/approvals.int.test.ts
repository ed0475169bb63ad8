// The approvals REST API over HTTP on the real app: HIGH-tier calls made by real agents (the SDK client on the
// app's /mcp, the real fixture upstream) are held as approval requests; approvers list, filter and page them,
// decide them (once), reveal the full arguments (audited), withdraw standing approvals, and follow new requests
// live on the Server-Sent Events stream.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TApproval, TApprovalDetail, TApprovalPage, TApprovalReveal } from "@/lib/approval-schemas";
import type { TCreatedSession, TGrant, TPolicyTool } from "@/lib/policy-schemas";
import type { TServerWithTools, TToolSummary } from "@/lib/schemas";
import {
  connectAgent,
  firstText,
  misbehavingServer,
  removeTempDirs,
  tempDir,
  userWithApiToken,
  waitUntil,
  type Agent,
} from "@/server/test/gateway-harness";
import { createTestDb, testDatabaseUrl, truncateAll } from "@/server/test/test-db";
import { apiRequest, type ApiErrorBody, type ApiResponse } from "@/scripts/test-support/api-request";
import { nextEvent } from "@/scripts/test-support/sse-events";
import { startApp, stopAllApps } from "@/scripts/test-support/start-app";
import { makeTempDir, removeTempDirs as removeDataDirs } from "@/scripts/test-support/temp-dir";

function expectError(res: ApiResponse, status: number, code: string) {
  expect({ status: res.status, code: (res.body as ApiErrorBody | undefined)?.error?.code }, res.text).toEqual({
    status,
    code,
  });
}

type Held = { task_id: string; status: string; approval_id: string; approval_status: string; expires_at: string };

const ids = (page: TApprovalPage) => page.items.map((a) => a.id);

describe("REST API: approvals", () => {
  const db = createTestDb();
  let base = "";
  const admin = { token: "", id: "", email: "" };
  const approver = { token: "", id: "", email: "" };
  const second = { token: "", id: "", email: "" };
  const user = { token: "", id: "", email: "" };
  /** The admin's agent (every shop tool) and the user's (shop__counted only). */
  let adminAgent: Agent;
  let userAgent: Agent;
  const agents: Agent[] = [];

  const list = (token: string, query = "") => apiRequest<TApprovalPage>(base, `/api/v1/approvals${query}`, { token });
  const detail = (token: string, id: string) => apiRequest<TApprovalDetail>(base, `/api/v1/approvals/${id}`, { token });
  const decide = (token: string, id: string, body: unknown) =>
    apiRequest<TApprovalDetail>(base, `/api/v1/approvals/${id}/decision`, { token, body });

  async function agentOf(token: string, agentId: string, tools: string[]): Promise<Agent> {
    const s = await apiRequest<TCreatedSession>(base, "/api/v1/sessions", { token, body: { agentId, tools } });
    if (s.status !== 201) throw new Error(`POST /api/v1/sessions: ${s.text}`);
    const agent = await connectAgent(new URL("/mcp", base), s.body.token);
    agents.push(agent);
    return agent;
  }

  /** A HIGH-tier call, held: the agent is answered at once with the task and the approval request. */
  async function held(
    agent: Agent,
    name: string,
    args: Record<string, unknown>,
    meta?: Record<string, unknown>,
  ): Promise<Held> {
    const res = await agent.client.callTool({ name, arguments: args, ...(meta && { _meta: meta }) });
    expect(res.isError ?? false, firstText(res)).toBe(false);
    const handle = res.structuredContent as Held;
    expect(handle).toMatchObject({
      status: "AWAITING_APPROVAL",
      approval_status: "PENDING",
      task_id: expect.any(String) as string,
      approval_id: expect.any(String) as string,
    });
    return handle;
  }

  const taskStatus = async (agent: Agent, taskId: string) =>
    (await agent.client.callTool({ name: "get_task_status", arguments: { task_id: taskId } })).structuredContent as {
      status: string;
      error_code?: string | null;
      error_message?: string | null;
    };

  /** Requests made in beforeAll, oldest first. */
  let first: Held; // admin, shop__counted, with personal data and a secret
  let secondReq: Held; // user, shop__counted
  let third: Held; // admin, shop__whoami (needs two approvers)

  beforeAll(async () => {
    await truncateAll(db);
    for (const [who, role] of [
      [admin, "ADMIN"],
      [approver, "APPROVER"],
      [second, "APPROVER"],
      [user, "USER"],
    ] as const) {
      const u = await userWithApiToken(db, role);
      Object.assign(who, { token: u.token, id: u.user.id, email: u.user.email });
    }
    const app = await startApp({
      env: { DATABASE_URL: testDatabaseUrl(), DATA_DIR: await makeTempDir("approvals-api"), PORTCULLIS_NO_DEMO: "1" },
    });
    base = app.baseUrl;
    const server = await apiRequest<TServerWithTools>(base, "/api/v1/servers", {
      token: admin.token,
      body: misbehavingServer(await tempDir("approvals-api"), { slug: "shop" }),
    });
    if (server.status !== 201 || server.body.server.status !== "HEALTHY")
      throw new Error(`POST /api/v1/servers: ${server.text}`);
    const grant = await apiRequest<TGrant>(base, "/api/v1/grants", {
      token: admin.token,
      body: { kind: "tool", pattern: "shop__counted", userId: user.id },
    });
    if (grant.status !== 201) throw new Error(`POST /api/v1/grants: ${grant.text}`);
    const two = await apiRequest<TToolSummary>(base, "/api/v1/tools/shop__whoami", {
      token: admin.token,
      method: "PATCH",
      body: { requiredApprovals: 2 },
    });
    expect(two.body.requiredApprovals, two.text).toBe(2);
    // The bulk tier change answers once every process has heard it (and the tool change before it).
    const tiers = await apiRequest<{ items: TPolicyTool[] }>(base, "/api/v1/policy/tiers", {
      token: admin.token,
      body: { tools: ["shop__counted", "shop__whoami", "shop__big"], riskTier: "HIGH" },
    });
    if (tiers.status !== 200) throw new Error(`POST /api/v1/policy/tiers: ${tiers.text}`);

    adminAgent = await agentOf(admin.token, "ops-bot", ["shop__*"]);
    userAgent = await agentOf(user.token, "user-bot", ["shop__counted"]);
    first = await held(
      adminAgent,
      "shop__counted",
      { name: "Ann <ann@example.com>", count: 3, api_key: "k-123456", note: "call +44 20 7946 0958" },
      { intent: "Count Ann's orders for the quarterly report" },
    );
    secondReq = await held(userAgent, "shop__counted", { name: "bob" });
    third = await held(adminAgent, "shop__whoami", {});
    // Distinct creation times one second apart, in the order made, for the ordering checks (calls made in the
    // same millisecond would tie).
    const madeAt = Date.now() - 60_000;
    for (const [i, h] of [first, secondReq, third].entries()) {
      await db.approval.update({ where: { id: h.approval_id }, data: { createdAt: new Date(madeAt + i * 1000) } });
    }
  });

  afterAll(async () => {
    for (const a of agents) await a.close();
    await stopAllApps();
    await removeDataDirs();
    await removeTempDirs();
    await db.$disconnect();
  });

  it("401 without a token on every route; the event stream is for approvers (403 for a USER)", async () => {
    expectError(await apiRequest(base, "/api/v1/approvals"), 401, "unauthenticated");
    expectError(await apiRequest(base, `/api/v1/approvals/${first.approval_id}`), 401, "unauthenticated");
    for (const action of ["decision", "reveal", "revoke"]) {
      expectError(
        await apiRequest(base, `/api/v1/approvals/${first.approval_id}/${action}`, {
          method: "POST",
          body: { decision: "approve" },
        }),
        401,
        "unauthenticated",
      );
    }
    expectError(await apiRequest(base, "/api/v1/approvals/events"), 401, "unauthenticated");
    expectError(await apiRequest(base, "/api/v1/approvals/events", { token: user.token }), 403, "forbidden");
  });

  it("a held call: the task waits AWAITING_APPROVAL and the same call again is not a second request", async () => {
    expect(await taskStatus(adminAgent, first.task_id)).toMatchObject({ status: "AWAITING_APPROVAL" });
    const again = await held(userAgent, "shop__counted", { name: "bob" });
    expect(again).toMatchObject({ approval_id: secondReq.approval_id, task_id: secondReq.task_id });
  });

  it("GET /api/v1/approvals – approvers see every pending request oldest first, with requester, agent, reason and redacted arguments", async () => {
    const res = await list(approver.token, "?status=PENDING");
    expect(res.status, res.text).toBe(200);
    expect(ids(res.body)).toEqual([first.approval_id, secondReq.approval_id, third.approval_id]);
    const [a, b, c] = res.body.items;
    expect(a).toMatchObject({
      kind: "CALL",
      status: "PENDING",
      tool: "shop__counted",
      riskTier: "HIGH",
      requesterId: admin.id,
      requesterEmail: admin.email,
      agentId: "ops-bot",
      justification: "Count Ann's orders for the quarterly report",
      taskId: first.task_id,
      taskStatus: "AWAITING_APPROVAL",
      requiredApprovals: 1,
      decisions: [],
      canDecide: true,
      expiresAt: first.expires_at,
    });
    expect(a!.reason).toMatch(/high-risk/);
    expect(a!.agentSessionPrefix).toMatch(/^pcs_/);
    // Personal data and secrets are masked in the queue.
    // (Hash mode, the default: each value becomes a tag with an HMAC prefix, equal values alike.)
    expect(a!.arguments).toEqual({
      name: expect.stringMatching(/^Ann <\[email:[0-9a-f]{10}\]>$/) as string,
      count: 3,
      api_key: expect.stringMatching(/^\[redacted:[0-9a-f]{10}\]$/) as string,
      note: expect.stringMatching(/^call \[phone_intl:[0-9a-f]{10}\]$/) as string,
    });
    expect(JSON.stringify(res.body)).not.toContain("ann@example.com");
    expect(b).toMatchObject({
      requesterEmail: user.email,
      agentId: "user-bot",
      arguments: { name: "bob" },
      canDecide: true,
    });
    expect(c).toMatchObject({ tool: "shop__whoami", requiredApprovals: 2 });
    // History order (any status list but PENDING alone) is newest first.
    expect(ids((await list(approver.token)).body)).toEqual([
      third.approval_id,
      secondReq.approval_id,
      first.approval_id,
    ]);
  });

  it("GET /api/v1/approvals – a user sees only their own requests; an admin's mine=1 only theirs", async () => {
    expect(ids((await list(user.token)).body)).toEqual([secondReq.approval_id]);
    expect((await list(user.token)).body.items[0]!.canDecide).toBe(false);
    expect(ids((await list(admin.token, "?mine=1")).body)).toEqual([third.approval_id, first.approval_id]);
    expect((await list(approver.token, "?mine=1")).body.items).toEqual([]);
    // The admin may not decide their own requests, only the user's.
    const all = (await list(admin.token, "?status=PENDING")).body.items;
    expect(all.map((a) => [a.id, a.canDecide])).toEqual([
      [first.approval_id, false],
      [secondReq.approval_id, true],
      [third.approval_id, false],
    ]);
  });

  it("GET /api/v1/approvals – filters by tool, requester, kind and dates; 422 for bad filters", async () => {
    expect(ids((await list(approver.token, "?tool=shop__whoami")).body)).toEqual([third.approval_id]);
    expect(
      ids((await list(approver.token, `?requester=${encodeURIComponent(user.email.toUpperCase())}`)).body),
    ).toEqual([secondReq.approval_id]);
    expect((await list(approver.token, "?kind=STANDING")).body.items).toEqual([]);
    const later = new Date(Date.now() + 60_000).toISOString();
    const earlier = new Date(Date.now() - 600_000).toISOString();
    expect((await list(approver.token, `?from=${encodeURIComponent(later)}`)).body.items).toEqual([]);
    expect(
      ids(
        (
          await list(
            approver.token,
            `?from=${encodeURIComponent(earlier)}&to=${encodeURIComponent(later)}&status=pending`,
          )
        ).body,
      ),
    ).toHaveLength(3);
    expect((await list(approver.token, `?to=${encodeURIComponent(earlier)}`)).body.items).toEqual([]);

    const bad = await apiRequest<ApiErrorBody>(base, "/api/v1/approvals?status=PENDING,MAYBE", {
      token: approver.token,
    });
    expectError(bad, 422, "validation_failed");
    expect(bad.body.error.details).toEqual([
      expect.objectContaining({ path: "status", message: expect.stringMatching(/unknown status MAYBE/) as string }),
    ]);
    expectError(await list(approver.token, "?from=yesterday"), 422, "validation_failed");
    expectError(await list(approver.token, "?kind=SOMETIMES"), 422, "validation_failed");
    expectError(await list(approver.token, "?limit=0"), 422, "validation_failed");
  });

  it("GET /api/v1/approvals?limit=&cursor= – pages through every request once", async () => {
    const p1 = await list(approver.token, "?status=PENDING&limit=2");
    expect(ids(p1.body)).toEqual([first.approval_id, secondReq.approval_id]);
    expect(p1.body.nextCursor).toBe(secondReq.approval_id);
    const p2 = await list(approver.token, `?status=PENDING&limit=2&cursor=${p1.body.nextCursor}`);
    expect(ids(p2.body)).toEqual([third.approval_id]);
    expect(p2.body.nextCursor).toBeNull();
  });

  it("GET /api/v1/approvals/{id} – the detail with the tool's input schema; 404 for another user's request and for an unknown id", async () => {
    const res = await detail(approver.token, first.approval_id);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({
      id: first.approval_id,
      tool: "shop__counted",
      canDecide: true,
      arguments: { api_key: expect.stringMatching(/^\[redacted:[0-9a-f]{10}\]$/) as string },
    });
    expect(res.body.inputSchema).toMatchObject({
      type: "object",
      required: ["name"],
      properties: { name: { type: "string" }, count: { type: "integer" } },
    });
    expect((await detail(admin.token, first.approval_id)).body.canDecide).toBe(false);
    expect((await detail(user.token, secondReq.approval_id)).body.requesterId).toBe(user.id);
    expectError(await detail(user.token, first.approval_id), 404, "not_found");
    expectError(await detail(approver.token, "no-such-approval"), 404, "not_found");
  });

  it("POST /api/v1/approvals/{id}/decision – 400 unreadable JSON, 422 for a bad body; nothing is decided", async () => {
    const path = `/api/v1/approvals/${first.approval_id}/decision`;
    expectError(await apiRequest(base, path, { token: approver.token, body: "{not json" }), 400, "invalid_json");
    expectError(await decide(approver.token, first.approval_id, { decision: "maybe" }), 422, "validation_failed");
    const standingReject = await apiRequest<ApiErrorBody>(base, path, {
      token: approver.token,
      body: { decision: "reject", comment: "no", standingMinutes: 15 },
    });
    expectError(standingReject, 422, "validation_failed");
    expect(standingReject.body.error.details).toEqual([
      expect.objectContaining({
        path: "standingMinutes",
        message: expect.stringMatching(/only with approve/) as string,
      }),
    ]);
    expectError(
      await decide(approver.token, first.approval_id, { decision: "approve", standingMinutes: 0 }),
      422,
      "validation_failed",
    );
    expectError(
      await decide(approver.token, first.approval_id, { decision: "approve", comment: "x".repeat(2001) }),
      422,
      "validation_failed",
    );
    expect((await detail(approver.token, first.approval_id)).body).toMatchObject({ status: "PENDING", decisions: [] });
  });

  it("POST /api/v1/approvals/{id}/decision – 403 for a USER, 403 for one's own request, 404 for an unknown id", async () => {
    expectError(await decide(user.token, secondReq.approval_id, { decision: "approve" }), 403, "forbidden");
    const own = await decide(admin.token, first.approval_id, { decision: "approve" });
    expectError(own, 403, "forbidden");
    expect((own.body as unknown as ApiErrorBody).error.message).toMatch(/your own request/);
    expectError(await decide(approver.token, "no-such-approval", { decision: "approve" }), 404, "not_found");
    expect((await detail(approver.token, first.approval_id)).body.status).toBe("PENDING");
  });

  it("POST /api/v1/approvals/{id}/reveal – the full arguments for approvers, audited as approval.revealed; 403 for a USER, 404 unknown", async () => {
    const res = await apiRequest<TApprovalReveal>(base, `/api/v1/approvals/${first.approval_id}/reveal`, {
      token: approver.token,
      method: "POST",
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.arguments).toEqual({
      name: "Ann <ann@example.com>",
      count: 3,
      api_key: "k-123456",
      note: "call +44 20 7946 0958",
    });
    const event = await waitUntil(
      "the approval.revealed audit event",
      async () =>
        (await db.auditEvent.findFirst({ where: { action: "approval.revealed", approvalId: first.approval_id } })) ??
        undefined,
    );
    expect(event).toMatchObject({
      userId: approver.id,
      category: "security",
      toolName: "shop__counted",
      decision: "allow",
    });
    // The audit row itself keeps only the argument names.
    expect(JSON.stringify(event.arguments)).not.toContain("ann@example.com");
    expectError(
      await apiRequest(base, `/api/v1/approvals/${secondReq.approval_id}/reveal`, {
        token: user.token,
        method: "POST",
      }),
      403,
      "forbidden",
    );
    expectError(
      await apiRequest(base, "/api/v1/approvals/no-such-approval/reveal", { token: approver.token, method: "POST" }),
      404,
      "not_found",
    );
  });

  it("POST /api/v1/approvals/{id}/decision – approve: 200, the task runs and the agent gets the real result; a second decision → 409", async () => {
    const res = await decide(approver.token, first.approval_id, {
      decision: "approve",
      comment: "  fine for the report  ",
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({
      status: "USED",
      decisionComment: "fine for the report",
      decidedAt: expect.any(String) as string,
      canDecide: false,
      decisions: [
        { approverId: approver.id, approverEmail: approver.email, decision: "approve", comment: "fine for the report" },
      ],
    });
    const done = await waitUntil("the approved task to finish", async () => {
      const s = await taskStatus(adminAgent, first.task_id);
      return s.status === "SUCCEEDED" || s.status === "FAILED" ? s : undefined;
    });
    expect(done.status).toBe("SUCCEEDED");
    const result = await adminAgent.client.callTool({ name: "get_task_result", arguments: { task_id: first.task_id } });
    expect(firstText(result)).toBe("counted ok (v1)");

    const again = await decide(second.token, first.approval_id, { decision: "reject", comment: "too late" });
    expectError(again, 409, "conflict");
    expect((again.body as unknown as ApiErrorBody).error.message).toMatch(/already been decided \(USED\)/);
    expect((await detail(approver.token, first.approval_id)).body.taskStatus).toBe("SUCCEEDED");
  });

  it("POST /api/v1/approvals/{id}/decision – reject: the agent's task ends CANCELED with the approver's reason", async () => {
    const res = await decide(approver.token, secondReq.approval_id, {
      decision: "reject",
      comment: "Not during the freeze",
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({
      status: "REJECTED",
      decisionComment: "Not during the freeze",
      taskStatus: "CANCELED",
    });
    const s = await taskStatus(userAgent, secondReq.task_id);
    expect(s).toMatchObject({ status: "CANCELED", error_code: "approval_rejected" });
    expect(s.error_message).toBe("Rejected by an approver: Not during the freeze");
    expectError(await decide(approver.token, secondReq.approval_id, { decision: "approve" }), 409, "conflict");
    // The user sees how their request ended.
    expect((await detail(user.token, secondReq.approval_id)).body).toMatchObject({
      status: "REJECTED",
      decisions: [{ approverEmail: approver.email, decision: "reject" }],
    });
  });

  it("a tool that needs a second approver: the first approval leaves it pending, the same approver again → 409, another approver completes it", async () => {
    const one = await decide(approver.token, third.approval_id, { decision: "approve", comment: "first" });
    expect(one.status, one.text).toBe(200);
    expect(one.body).toMatchObject({ status: "PENDING", canDecide: false, decisions: [{ approverId: approver.id }] });
    expect((await detail(second.token, third.approval_id)).body.canDecide).toBe(true);
    const again = await decide(approver.token, third.approval_id, { decision: "approve" });
    expectError(again, 409, "conflict");
    expect((again.body as unknown as ApiErrorBody).error.message).toMatch(/already approved/);
    expect(await taskStatus(adminAgent, third.task_id)).toMatchObject({ status: "AWAITING_APPROVAL" });
    const two = await decide(second.token, third.approval_id, { decision: "approve", comment: "second" });
    expect(two.body).toMatchObject({
      status: "USED",
      decisions: [{ approverId: approver.id }, { approverId: second.id, comment: "second" }],
    });
    await waitUntil(
      "the doubly approved task to succeed",
      async () => (await taskStatus(adminAgent, third.task_id)).status === "SUCCEEDED",
    );
  });

  it("history: status filters list the decided requests newest first", async () => {
    expect(ids((await list(approver.token, "?status=USED,REJECTED")).body)).toEqual([
      third.approval_id,
      secondReq.approval_id,
      first.approval_id,
    ]);
    expect(ids((await list(approver.token, "?status=REJECTED")).body)).toEqual([secondReq.approval_id]);
    expect((await list(approver.token, "?status=PENDING")).body.items).toEqual([]);
  });

  it("approve with standingMinutes: the tool runs for that session without asking again until the approval is revoked (then 409 to revoke again)", async () => {
    const h = await held(adminAgent, "shop__big", { kb: 1 });
    const res = await decide(approver.token, h.approval_id, { decision: "approve", standingMinutes: 15 });
    expect(res.status, res.text).toBe(200);
    const standing = (await list(approver.token, "?kind=STANDING&status=APPROVED")).body.items;
    expect(standing).toHaveLength(1);
    const s = standing[0]!;
    expect(s).toMatchObject({ tool: "shop__big", requesterId: admin.id, agentId: "ops-bot" });
    expect(new Date(s.standingUntil!).getTime() - Date.now()).toBeGreaterThan(14 * 60_000);
    // The next call of that tool in the same session runs at once.
    const direct = await adminAgent.client.callTool({ name: "shop__big", arguments: { kb: 2 } });
    expect(firstText(direct)).toBe("x".repeat(2048));

    // A user may not withdraw it (not theirs: 404); an approver may.
    expectError(
      await apiRequest(base, `/api/v1/approvals/${s.id}/revoke`, { token: user.token, method: "POST" }),
      404,
      "not_found",
    );
    const revoked = await apiRequest<TApproval>(base, `/api/v1/approvals/${s.id}/revoke`, {
      token: approver.token,
      method: "POST",
    });
    expect(revoked.status, revoked.text).toBe(200);
    expect(revoked.body.status).toBe("CANCELED");
    expectError(
      await apiRequest(base, `/api/v1/approvals/${s.id}/revoke`, { token: approver.token, method: "POST" }),
      409,
      "conflict",
    );
    expectError(
      await apiRequest(base, "/api/v1/approvals/no-such-approval/revoke", { token: approver.token, method: "POST" }),
      404,
      "not_found",
    );
    // Held again from now on.
    await held(adminAgent, "shop__big", { kb: 3 });
  });

  it("GET /api/v1/approvals/events – an approver's stream delivers an event when a new request is made and when it is decided", async () => {
    const ac = new AbortController();
    const res = await fetch(`${base}/api/v1/approvals/events`, {
      headers: { authorization: `Bearer ${approver.token}` },
      signal: ac.signal,
    });
    try {
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toMatch(/^text\/event-stream/);
      const reader = res.body!.getReader();
      const hello = await nextEvent(reader, (e) => e.event === "" && e.data === "");
      expect(hello.comments).toContain(": connected");

      const h = await held(userAgent, "shop__counted", { name: "live" });
      const made = await nextEvent(reader, (e) => e.event === "approval" && e.data.includes(h.approval_id));
      expect(JSON.parse(made.data)).toEqual({ approvalId: h.approval_id, status: "PENDING" });

      await decide(approver.token, h.approval_id, { decision: "reject", comment: "no" });
      const decided = await nextEvent(reader, (e) => e.event === "approval" && e.data.includes(h.approval_id));
      expect(JSON.parse(decided.data)).toEqual({ approvalId: h.approval_id, status: "REJECTED" });
    } finally {
      ac.abort();
    }
  });
});
