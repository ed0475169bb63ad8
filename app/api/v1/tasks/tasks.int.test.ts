// The tasks REST API over HTTP on the real app: who sees which task, filters and paging, the detail with its
// events and result preview, and cancel (409 once finished). Task rows are seeded as the engine leaves them.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TTask, TTaskDetail, TTaskPage } from "@/lib/task-schemas";
import type { Task } from "@/server/db/client";
import { userWithApiToken } from "@/server/test/gateway-harness";
import { createTestDb, testDatabaseUrl, truncateAll } from "@/server/test/test-db";
import { apiRequest, type ApiErrorBody, type ApiResponse } from "@/scripts/test-support/api-request";
import { seedAgentSession, seedTask } from "@/scripts/test-support/seed-task";
import { sseReader, type SseEvent } from "@/scripts/test-support/sse-events";
import { publishChange } from "@/server/events/change-bus";
import { startApp, stopAllApps } from "@/scripts/test-support/start-app";
import { makeTempDir, removeTempDirs } from "@/scripts/test-support/temp-dir";

function expectError(res: ApiResponse, status: number, code: string) {
  expect({ status: res.status, code: (res.body as ApiErrorBody | undefined)?.error?.code }, res.text).toEqual({
    status,
    code,
  });
}

const ids = (page: TTaskPage) => page.items.map((t) => t.id);

describe("REST API: tasks", () => {
  const db = createTestDb();
  let base = "";
  const admin = { token: "", id: "" };
  const user = { token: "", id: "" };
  const other = { token: "", id: "" };
  /** The user's tasks, newest first, and the other user's one. */
  let mine: Task[] = [];
  let theirs: Task;
  const at = (minutesAgo: number) => new Date(Date.now() - minutesAgo * 60_000);

  const list = (token: string, query = "") => apiRequest<TTaskPage>(base, `/api/v1/tasks${query}`, { token });

  beforeAll(async () => {
    await truncateAll(db);
    for (const [who, role] of [
      [admin, "ADMIN"],
      [user, "USER"],
      [other, "USER"],
    ] as const) {
      const u = await userWithApiToken(db, role);
      Object.assign(who, { token: u.token, id: u.user.id });
    }
    const session = await seedAgentSession(db, user.id, "report-bot");
    const running = await seedTask(db, {
      ownerId: user.id,
      status: "RUNNING",
      createdAt: at(1),
      agentSessionId: session.id,
      arguments: { since: "2024-01-01" },
      progress: { progress: 3, total: 10, message: "page 3 of 10" },
    });
    const succeeded = await seedTask(db, {
      ownerId: user.id,
      status: "SUCCEEDED",
      createdAt: at(2),
      result: { content: [{ type: "text", text: "42 orders exported" }] },
    });
    const failed = await seedTask(db, {
      ownerId: user.id,
      status: "FAILED",
      createdAt: at(3),
      errorCode: "upstream_timeout",
      errorMessage: "The upstream did not answer in time.",
    });
    const pending = await seedTask(db, {
      ownerId: user.id,
      status: "PENDING",
      createdAt: at(4),
      toolName: "files__read_file",
    });
    mine = [running, succeeded, failed, pending];
    theirs = await seedTask(db, { ownerId: other.id, status: "RUNNING", createdAt: at(5) });
    const app = await startApp({
      env: { DATABASE_URL: testDatabaseUrl(), DATA_DIR: await makeTempDir("tasks-api"), PORTCULLIS_NO_DEMO: "1" },
    });
    base = app.baseUrl;
  });

  afterAll(async () => {
    await stopAllApps();
    await removeTempDirs();
    await db.$disconnect();
  });

  it("GET /api/v1/tasks – 401 without a token", async () => {
    expectError(await apiRequest(base, "/api/v1/tasks"), 401, "unauthenticated");
    expectError(await apiRequest(base, `/api/v1/tasks/${mine[0]!.id}`), 401, "unauthenticated");
    expectError(
      await apiRequest(base, `/api/v1/tasks/${mine[0]!.id}/cancel`, { method: "POST" }),
      401,
      "unauthenticated",
    );
  });

  it("GET /api/v1/tasks – a user sees only their own tasks, newest first, with owner, agent, progress and duration", async () => {
    const res = await list(user.token);
    expect(res.status, res.text).toBe(200);
    expect(ids(res.body)).toEqual(mine.map((t) => t.id));
    expect(res.body.nextCursor).toBeNull();
    const [running, succeeded, failed, pending] = res.body.items;
    expect(running).toMatchObject({
      status: "RUNNING",
      tool: "orders__export_orders",
      ownerEmail: expect.stringContaining("@") as string,
      agentId: "report-bot",
      progress: { progress: 3, total: 10, message: "page 3 of 10" },
      finishedAt: null,
    });
    expect(running!.durationMs).toBeGreaterThanOrEqual(59_000);
    expect(succeeded).toMatchObject({
      status: "SUCCEEDED",
      durationMs: 2000,
      resultBytes: expect.any(Number) as number,
    });
    expect(failed).toMatchObject({ status: "FAILED", errorCode: "upstream_timeout" });
    expect(pending).toMatchObject({
      status: "PENDING",
      tool: "files__read_file",
      startedAt: null,
      durationMs: null,
      agentId: null,
    });
  });

  it("GET /api/v1/tasks – an admin sees everyone's; mine=1 only their own", async () => {
    const all = await list(admin.token);
    expect(ids(all.body)).toEqual([...mine, theirs].map((t) => t.id));
    expect((await list(admin.token, "?mine=1")).body.items).toEqual([]);
    // For a user, mine=0 still means only their own.
    expect(ids((await list(user.token, "?mine=0")).body)).toEqual(mine.map((t) => t.id));
  });

  it("GET /api/v1/tasks?status= – one status, a comma list in any case; 422 for an unknown status", async () => {
    expect(ids((await list(user.token, "?status=RUNNING")).body)).toEqual([mine[0]!.id]);
    expect(ids((await list(admin.token, "?status=running,pending")).body)).toEqual([
      mine[0]!.id,
      mine[3]!.id,
      theirs.id,
    ]);
    expect((await list(user.token, "?status=CANCELED")).body.items).toEqual([]);
    const bad = await apiRequest<ApiErrorBody>(base, "/api/v1/tasks?status=RUNNING,DONE", { token: user.token });
    expectError(bad, 422, "validation_failed");
    expect(bad.body.error.details).toEqual([
      expect.objectContaining({ path: "status", message: expect.stringMatching(/unknown status DONE/) as string }),
    ]);
    expectError(await list(user.token, "?mine=yes"), 422, "validation_failed");
    expectError(await list(user.token, "?limit=0"), 422, "validation_failed");
  });

  it("GET /api/v1/tasks?limit=&cursor= – pages through every task once", async () => {
    const first = await list(admin.token, "?limit=2");
    expect(ids(first.body)).toEqual([mine[0]!.id, mine[1]!.id]);
    expect(first.body.nextCursor).toBe(mine[1]!.id);
    const second = await list(admin.token, `?limit=2&cursor=${first.body.nextCursor}`);
    expect(ids(second.body)).toEqual([mine[2]!.id, mine[3]!.id]);
    const third = await list(admin.token, `?limit=2&cursor=${second.body.nextCursor}`);
    expect(ids(third.body)).toEqual([theirs.id]);
    expect(third.body.nextCursor).toBeNull();
  });

  it("GET /api/v1/tasks/{id} – the detail with arguments, events and the result preview", async () => {
    const running = await apiRequest<TTaskDetail>(base, `/api/v1/tasks/${mine[0]!.id}`, { token: user.token });
    expect(running.status, running.text).toBe(200);
    expect(running.body).toMatchObject({
      id: mine[0]!.id,
      status: "RUNNING",
      arguments: { since: "2024-01-01" },
      resultPreview: null,
    });
    expect(running.body.events.map((e) => e.type)).toEqual(["submitted", "started", "progress"]);
    expect(running.body.events[2]!.data).toEqual({ progress: 3, total: 10, message: "page 3 of 10" });

    const done = await apiRequest<TTaskDetail>(base, `/api/v1/tasks/${mine[1]!.id}`, { token: user.token });
    expect(done.body).toMatchObject({ status: "SUCCEEDED", resultPreview: "42 orders exported" });
    expect(done.body.events.map((e) => e.type)).toEqual(["submitted", "started", "succeeded"]);
    // An admin may open anyone's task.
    expect(
      (await apiRequest<TTaskDetail>(base, `/api/v1/tasks/${theirs.id}`, { token: admin.token })).body.ownerId,
    ).toBe(other.id);
  });

  it("GET /api/v1/tasks/{id} – 404 for another user's task and for an unknown id", async () => {
    expectError(await apiRequest(base, `/api/v1/tasks/${theirs.id}`, { token: user.token }), 404, "not_found");
    expectError(await apiRequest(base, "/api/v1/tasks/no-such-task", { token: user.token }), 404, "not_found");
  });

  it("GET /api/v1/tasks/{id}/webhooks – the delivery log, newest attempt state; 404 for another user's task", async () => {
    const task = mine[1]!;
    await db.webhookDelivery.create({
      data: { taskId: task.id, event: "task.completed", url: "https://hooks.example.test/done", payload: {}, status: "RETRYING", attempts: 1, lastStatusCode: 503, lastError: "HTTP 503", nextAttemptAt: new Date() },
    });
    const res = await apiRequest<{ items: { url: string; status: string; attempts: number; lastStatusCode: number | null }[] }>(base, `/api/v1/tasks/${task.id}/webhooks`, { token: user.token });
    expect(res.status, res.text).toBe(200);
    expect(res.body.items).toEqual([expect.objectContaining({ url: "https://hooks.example.test/done", status: "RETRYING", attempts: 1, lastStatusCode: 503 })]);
    expectError(await apiRequest(base, `/api/v1/tasks/${task.id}/webhooks`, { token: other.token }), 404, "not_found");
  });

  it("POST /api/v1/tasks/{id}/cancel – a pending task becomes CANCELED with a canceled event; again → 409", async () => {
    const pending = mine[3]!;
    const res = await apiRequest<TTask>(base, `/api/v1/tasks/${pending.id}/cancel`, {
      token: user.token,
      method: "POST",
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({
      id: pending.id,
      status: "CANCELED",
      errorCode: "canceled",
      finishedAt: expect.any(String) as string,
    });
    const detail = await apiRequest<TTaskDetail>(base, `/api/v1/tasks/${pending.id}`, { token: user.token });
    expect(detail.body.status).toBe("CANCELED");
    expect(detail.body.events.at(-1)).toMatchObject({ type: "canceled", data: { wasRunning: false } });
    expect((await list(user.token, "?status=CANCELED")).body.items.map((t) => t.id)).toEqual([pending.id]);

    const again = await apiRequest<ApiErrorBody>(base, `/api/v1/tasks/${pending.id}/cancel`, {
      token: user.token,
      method: "POST",
    });
    expectError(again, 409, "conflict");
    expect(again.body.error.message).toMatch(/already finished \(CANCELED\)/);
    expectError(
      await apiRequest(base, `/api/v1/tasks/${mine[1]!.id}/cancel`, { token: user.token, method: "POST" }),
      409,
      "conflict",
    );
  });

  it("POST /api/v1/tasks/{id}/cancel – 404 for another user's task (left running); an admin may cancel it", async () => {
    expectError(
      await apiRequest(base, `/api/v1/tasks/${theirs.id}/cancel`, { token: user.token, method: "POST" }),
      404,
      "not_found",
    );
    expect((await db.task.findUniqueOrThrow({ where: { id: theirs.id } })).status).toBe("RUNNING");
    const res = await apiRequest<TTask>(base, `/api/v1/tasks/${theirs.id}/cancel`, {
      token: admin.token,
      method: "POST",
    });
    expect(res.body).toMatchObject({ status: "CANCELED", errorCode: "canceled" });
    const detail = await apiRequest<TTaskDetail>(base, `/api/v1/tasks/${theirs.id}`, { token: other.token });
    expect(detail.body.events.at(-1)).toMatchObject({ type: "canceled", data: { wasRunning: true } });
  });

  it("GET /api/v1/tasks/events – each stream carries only the tasks its caller may see: a user's never another user's, an admin's everyone's (mine=1: their own)", async () => {
    expectError(await apiRequest(base, "/api/v1/tasks/events"), 401, "unauthenticated");
    const ac = new AbortController();
    const open = async (token: string, query = "") => {
      const res = await fetch(`${base}/api/v1/tasks/events${query}`, { headers: { authorization: `Bearer ${token}` }, signal: ac.signal });
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toMatch(/^text\/event-stream/);
      const stream = sseReader(res.body!.getReader());
      await stream.until((e) => e.comments.includes(": connected"));
      return stream;
    };
    try {
      const [userStream, otherStream, adminAll, adminMine] = [await open(user.token), await open(other.token), await open(admin.token), await open(admin.token, "?mine=1")];
      const adminTask = await seedTask(db, { ownerId: admin.id, status: "PENDING" });
      const otherTask = await seedTask(db, { ownerId: other.id, status: "PENDING" });
      const userTask = await seedTask(db, { ownerId: user.id, status: "PENDING" });
      // As the engine publishes them; each stream delivers in this order.
      for (const [t, status] of [[otherTask, "PENDING"], [otherTask, "RUNNING"], [adminTask, "RUNNING"], [userTask, "PENDING"], [adminTask, "SUCCEEDED"]] as const)
        await publishChange(db, { kind: "task", taskId: t.id, status });

      const changes = (events: SseEvent[]) => events.filter((e) => e.event === "task").map((e) => JSON.parse(e.data) as { taskId: string; status: string });
      const last = (id: string, status: string) => (e: SseEvent) => e.event === "task" && e.data === JSON.stringify({ taskId: id, status });
      // Everything before each stream's last event has been delivered by then: had another user's event been
      // sent, it would be in these lists.
      expect(changes(await userStream.until(last(userTask.id, "PENDING")))).toEqual([{ taskId: userTask.id, status: "PENDING" }]);
      expect(changes(await otherStream.until(last(otherTask.id, "RUNNING")))).toEqual([
        { taskId: otherTask.id, status: "PENDING" },
        { taskId: otherTask.id, status: "RUNNING" },
      ]);
      expect(changes(await adminAll.until(last(adminTask.id, "SUCCEEDED"))).map((c) => c.taskId)).toEqual([otherTask.id, otherTask.id, adminTask.id, userTask.id, adminTask.id]);
      expect(changes(await adminMine.until(last(adminTask.id, "SUCCEEDED")))).toEqual([
        { taskId: adminTask.id, status: "RUNNING" },
        { taskId: adminTask.id, status: "SUCCEEDED" },
      ]);
    } finally {
      ac.abort();
    }
  });

  it("GET /api/v1/tasks/events – a change made through another gateway process reaches the stream (over PostgreSQL NOTIFY)", async () => {
    const second = await startApp({
      env: { DATABASE_URL: testDatabaseUrl(), DATA_DIR: await makeTempDir("tasks-api-2"), PORTCULLIS_NO_DEMO: "1" },
    });
    const task = await seedTask(db, { ownerId: user.id, status: "PENDING" });
    const ac = new AbortController();
    try {
      const res = await fetch(`${second.baseUrl}/api/v1/tasks/events`, { headers: { authorization: `Bearer ${user.token}` }, signal: ac.signal });
      expect(res.status).toBe(200);
      const stream = sseReader(res.body!.getReader());
      await stream.until((e) => e.comments.includes(": connected"));
      // Canceled through the first process: its transaction's NOTIFY reaches the second one's stream.
      const canceled = await apiRequest(base, `/api/v1/tasks/${task.id}/cancel`, { method: "POST", token: user.token });
      expect(canceled.status, canceled.text).toBe(200);
      const [event] = (await stream.until((e) => e.event === "task" && e.data.includes(task.id))).filter((e) => e.event === "task");
      expect(JSON.parse(event!.data)).toEqual({ taskId: task.id, status: "CANCELED" });
    } finally {
      ac.abort();
      await second.stop();
    }
  });
});
