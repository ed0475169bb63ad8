import { describe, expect, it } from "vitest";
import type { Task } from "../../db/client";
import { createTaskResult, detailedTask } from "./modern-task";

const created = new Date("2026-12-02T10:00:00.000Z");
const row = (over: Partial<Task>): Task =>
  ({
    id: "ctask1",
    status: "RUNNING",
    toolName: "ops__slow_write",
    createdAt: created,
    updatedAt: new Date("2026-12-02T10:00:05.000Z"),
    expiresAt: null,
    progressMessage: null,
    errorCode: null,
    errorMessage: null,
    result: null,
    ...over,
  }) as Task;
const view = { pollSeconds: 2, awaiting: null, answered: false, urlElicitation: false };
const awaiting = { approvalId: "appr1", url: "https://gw.example/approvals/appr1", expiresAt: new Date("2026-12-02T11:00:00.000Z") };

describe("detailedTask: a task row as the tasks extension shows it", () => {
  it.each([
    ["PENDING", {}, { status: "working" }],
    ["RUNNING", { progressMessage: "step 2" }, { status: "working", statusMessage: "step 2" }],
    ["SUCCEEDED", { result: { content: [{ type: "text", text: "ok" }], _meta: { "portcullis/task": { taskId: "ctask1" }, "io.modelcontextprotocol/related-task": { taskId: "ctask1" } } } }, { status: "completed", result: { content: [{ type: "text", text: "ok" }] } }],
    ["FAILED", { result: { content: [{ type: "text", text: "no" }], isError: true } }, { status: "completed", result: { content: [{ type: "text", text: "no" }], isError: true } }],
    ["FAILED", { errorCode: "upstream_unavailable", errorMessage: "down" }, { status: "failed", statusMessage: "down", error: { code: -32603, message: "down", data: { code: "upstream_unavailable" } } }],
    ["EXPIRED", { errorCode: "approval_expired", errorMessage: "nobody decided" }, { status: "failed", error: { code: -32603, message: "nobody decided", data: { code: "approval_expired" } } }],
    ["CANCELED", { errorMessage: "Canceled by the client (tasks/cancel)." }, { status: "cancelled", statusMessage: "Canceled by the client (tasks/cancel)." }],
  ] as const)("%s %j → %j", (status, over, expected) => {
    const out = detailedTask(row({ status, ...over } as Partial<Task>), view);
    expect(out).toMatchObject({ taskId: "ctask1", createdAt: created.toISOString(), lastUpdatedAt: "2026-12-02T10:00:05.000Z", ttlMs: null, pollIntervalMs: 2000, ...expected });
    expect(out).not.toHaveProperty("inputRequests");
    if (expected.status !== "completed") expect(out).not.toHaveProperty("result");
    if ((out.result as { _meta?: unknown } | undefined)?._meta !== undefined) throw new Error("the 2025 task bookkeeping must not be inlined");
  });

  it("a held call: input_required with the approval page for a client that takes URL elicitation, until it answered; else working", () => {
    const held = row({ status: "AWAITING_APPROVAL" });
    const asked = detailedTask(held, { ...view, awaiting, urlElicitation: true });
    expect(asked).toMatchObject({ status: "input_required", statusMessage: "awaiting approval", inputRequests: { "approval-appr1": { method: "elicitation/create", params: { mode: "url", elicitationId: "appr1", url: awaiting.url } } } });
    for (const v of [{ ...view, awaiting, urlElicitation: true, answered: true }, { ...view, awaiting }, view]) {
      expect(detailedTask(held, v)).toMatchObject({ status: "working", statusMessage: "awaiting approval" });
      expect(detailedTask(held, v)).not.toHaveProperty("inputRequests");
    }
  });

  it("ttlMs from the row's expiry, in whole milliseconds; the CreateTaskResult is a flat working task", () => {
    const t = row({ status: "AWAITING_APPROVAL", expiresAt: new Date(created.getTime() + 60_000.4) });
    expect(createTaskResult(t, 0.5)).toEqual({
      resultType: "task",
      taskId: "ctask1",
      status: "working",
      statusMessage: "awaiting approval",
      createdAt: created.toISOString(),
      lastUpdatedAt: "2026-12-02T10:00:05.000Z",
      ttlMs: 60_000,
      pollIntervalMs: 500,
    });
  });
});
