// The approvers' webhook (APPROVAL_WEBHOOK_URL) for a new request, enqueued in the request's transaction.
import type { DbTx, Approval } from "../db/client";
import { redactor } from "../audit/redaction";
import { scheduleWebhookJob } from "../tasks/webhook-jobs";
import { enqueueWebhook } from "../tasks/webhooks";
import { APPROVAL_REQUESTED_EVENT, type ApprovalScope } from "./approval-scope";

/** In the transaction that makes a request: the approvers' webhook, when one is configured. */
export async function notifyApprovers(s: ApprovalScope, tx: DbTx, a: Approval) {
  const { opts } = s;
  if (!opts.webhookUrl || !opts.webhookSecret) return;
  const id = await enqueueWebhook(tx, {
    approvalId: a.id,
    event: APPROVAL_REQUESTED_EVENT,
    url: opts.webhookUrl,
    payload: {
      event: APPROVAL_REQUESTED_EVENT,
      approval: {
        id: a.id,
        kind: a.kind,
        tool: a.toolName,
        reason: a.reason,
        justification: a.justification === null ? null : redactor().text(a.justification),
        arguments: a.argumentsRedacted,
        requiredApprovals: a.requiredApprovals,
        createdAt: a.createdAt.toISOString(),
        expiresAt: a.expiresAt.toISOString(),
      },
    },
  });
  await scheduleWebhookJob(tx, id);
}
