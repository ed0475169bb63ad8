// The outcome of a task this runner ran: written once, from RUNNING, with its event, webhook and audit.
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { TTaskStatus } from "../../lib/task-schemas";
import { toJson } from "../db/client";
import { writeUntilUp } from "../db/retry-until-up";
import { isDatabaseUnavailable } from "../db/database-unavailable";
import { storableText } from "../db/storable";
import { publishChange } from "../events/change-bus";
import { errorCodeOf, type ToolErrorCode } from "../pipeline/tool-error";
import { auditTransitionIn } from "./audit-transition";
import { taskEvent } from "./task-event";
import { expiryFrom, type TaskScope } from "./task-scope";
import { webhookOnFinish } from "./webhook-jobs";
import type { CredentialRef } from "../upstream-auth/upstream-credentials";

/** Writes the outcome of a task this runner ran; a task canceled meanwhile keeps CANCELED. */
export async function finishTask(
  s: TaskScope,
  taskId: string,
  outcome: { result: CallToolResult; bytes: number; truncated: boolean } | { error: unknown },
  toolName: string,
  /** The upstream credential the run used (issue 22), recorded on the end's audit event. */
  credential?: CredentialRef,
) {
  const { db, opts, runnerId } = s;
  // Shutting down aborts the calls; what they answer then is not their outcome. The task stays RUNNING and
  // is recovered once this process's lock is gone (queued again if retryable, else `interrupted`).
  if (s.closed()) return null;
  const now = new Date();
  const expiresAt = expiryFrom(opts, now);
  let status: TTaskStatus;
  let data: Record<string, unknown>;
  if ("result" in outcome) {
    const failed = outcome.result.isError === true;
    status = failed ? "FAILED" : "SUCCEEDED";
    const text = (outcome.result.content ?? []).find((c) => c.type === "text")?.text;
    // The upstream's own words, made storable: a NUL would fail the task's final write and strand it RUNNING.
    const message = failed ? (text === undefined ? "The tool reported an error." : storableText(text, 2000).text) : null;
    data = {
      status,
      result: toJson(outcome.result),
      resultBytes: outcome.bytes,
      resultTruncated: outcome.truncated,
      errorCode: failed ? (errorCodeOf(outcome.result) ?? ("tool_error" satisfies ToolErrorCode)) : null,
      errorMessage: message,
    };
  } else {
    status = "FAILED";
    const message = outcome.error instanceof Error ? outcome.error.message : String(outcome.error);
    data = { status, errorCode: "internal" satisfies ToolErrorCode, errorMessage: storableText(message, 2000).text };
  }
  const row = await whileDatabaseAway(s, taskId, () => db.$transaction(async (tx) => {
    const changed = await tx.task.updateMany({
      where: { id: taskId, status: "RUNNING", runnerId },
      data: { ...data, finishedAt: now, expiresAt, runnerId: null },
    });
    if (changed.count === 0) return null;
    const t = await tx.task.findUniqueOrThrow({ where: { id: taskId } });
    await taskEvent(tx, taskId, status === "SUCCEEDED" ? "succeeded" : "failed", {
      errorCode: t.errorCode,
      resultBytes: t.resultBytes,
      truncated: t.resultTruncated,
    });
    await webhookOnFinish(tx, t);
    await publishChange(tx, { kind: "task", taskId, status });
    // The end's audit event commits with the end itself: a crash cannot leave one without the other.
    await auditTransitionIn(tx, s, t, toolName, undefined, credential && { credential });
    return t;
  }));
  return row;
}

/**
 * Writes the outcome once the database takes it. The outcome exists only in this process's memory, and the task
 * stays RUNNING under this live process's lock, so nobody else would ever end it: a write that meets a database
 * restarting or unreachable is tried again (0.5 s growing to 5 s) until it lands or the engine closes (then the
 * task is handed back like any other, D113). Any other failure is thrown as before.
 */
function whileDatabaseAway<T>(s: TaskScope, taskId: string, write: () => Promise<T>): Promise<T | null> {
  return writeUntilUp(write, {
    closed: s.closed,
    retryable: isDatabaseUnavailable,
    firstDelayMs: 500,
    onFailure: (err, attempt, delayMs) => s.log.warn({ err, taskId, attempt, delayMs }, "the database is unavailable; writing the task's outcome again shortly"),
  });
}
