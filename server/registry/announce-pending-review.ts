// A set of definitions waiting for review, announced in the transaction that records it: an audit event, and
// the approvers' webhook (APPROVAL_WEBHOOK_URL, signed like an approval request) when one is configured, and a
// `registry` change on the bus, so consoles and processes that follow the registry hear of the review at once.
import { recordAudit } from "../audit/record-audit";
import { systemContext } from "../context";
import type { DbTx } from "../db/client";
import { publishChange } from "../events/change-bus";
import type { ScanFinding } from "../scanner/scan-types";
import { scheduleWebhookJob } from "../tasks/webhook-jobs";
import { enqueueWebhook } from "../tasks/webhooks";
import type { DefinitionsDiff } from "./diff-definitions";

/** Starts with `approval.` so the delivery is signed with the approvers' secret (task-engine.ts secretFor). */
export const DEFINITIONS_REVIEW_EVENT = "approval.definitions_review_requested";

export type PendingReview = { serverId: string; slug: string; versionId: string; version: string; diff: DefinitionsDiff; findings: ScanFinding[] };

export async function announcePendingReview(tx: DbTx, p: PendingReview, webhookUrl: string | null | undefined): Promise<void> {
  const high = p.findings.filter((f) => f.severity === "high").length;
  const changedTools = [...p.diff.tools.added, ...p.diff.tools.removed, ...p.diff.tools.changed.map((c) => c.name)];
  await recordAudit(tx, systemContext("discovery"), {
    action: "server.definitions_pending",
    category: "security",
    targetType: "server",
    targetId: p.serverId,
    details: { slug: p.slug, versionId: p.versionId, version: p.version, tools: changedTools, findings: p.findings.length, highFindings: high },
  });
  await publishChange(tx, { kind: "registry", serverId: p.serverId });
  if (!webhookUrl) return;
  const id = await enqueueWebhook(tx, {
    event: DEFINITIONS_REVIEW_EVENT,
    url: webhookUrl,
    payload: {
      event: DEFINITIONS_REVIEW_EVENT,
      review: { server: p.slug, versionId: p.versionId, version: p.version, breaking: p.diff.breaking, tools: changedTools, findings: p.findings.length, highFindings: high },
    },
  });
  await scheduleWebhookJob(tx, id);
}
