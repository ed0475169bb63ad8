// An admin's decision on definitions waiting for review: approve (they serve as the active version, or as the
// canary of the existing gray release) or reject. The decision, the version's new state and the audit event in
// one transaction under the server's row lock; then every process's snapshot follows (pinned hashes included).
import { ZApproveDefinitions, ZRejectDefinitions, type TApproveDefinitions, type TRejectDefinitions } from "../../lib/review-schemas";
import { recordAudit } from "../audit/record-audit";
import { actorUserId, type RequestContext } from "../context";
import type { DbTx } from "../db/client";
import { GatewayError, notFound } from "../errors";
import type { ScanFinding } from "../scanner/scan-types";
import { blocksApproval } from "../scanner/scan-definitions";
import type { UpstreamLaunch } from "../upstream/upstream-client";
import type { RegistryScope } from "./registry-scope";
import { canonicalJson } from "./content-hash";
import { getServerRow } from "./server-rows";
import { syncToolRows } from "./sync-definitions";

async function lockPending(tx: DbTx, serverId: string, slug: string, versionId: string) {
  await tx.$executeRaw`SELECT 1 FROM upstream_servers WHERE id = ${serverId} FOR UPDATE`;
  const v = await tx.serverVersion.findFirst({ where: { id: versionId, serverId } });
  if (!v) throw notFound(`Version ${versionId} of ${slug}`);
  // Two admins deciding at once: the second finds it decided (the row lock orders them).
  if (v.review !== "pending") throw new GatewayError("conflict", `Version ${v.version} of ${slug} is not waiting for review (it is ${v.review}).`);
  return v;
}

export async function approveDefinitions(scope: RegistryScope, ctx: RequestContext, slug: string, versionId: string, input: TApproveDefinitions) {
  const body = ZApproveDefinitions.parse(input);
  const s = await getServerRow(scope.db, slug);
  return scope.whileBusy(s.id, async () => {
    const v = await scope.db.$transaction(async (tx) => {
      const v = await lockPending(tx, s.id, slug, versionId);
      const findings = v.findings as ScanFinding[];
      const blocked = blocksApproval(findings);
      if (blocked && !body.overrideReason) {
        throw new GatewayError("definitions_blocked", `Version ${v.version} of ${slug} has high-severity scanner findings; approve it only with an override reason.`);
      }
      // A set recorded before an admin changed how the server runs would bring the old launch back with it.
      const active = s.activeVersionId ? await tx.serverVersion.findUnique({ where: { id: s.activeVersionId } }) : null;
      if (!body.asCanary && active && canonicalJson(active.launch) !== canonicalJson(v.launch)) {
        throw new GatewayError("conflict", `Version ${v.version} of ${slug} was offered by a launch the server no longer runs; it can only be rejected.`);
      }
      const now = new Date();
      await tx.serverVersion.update({
        where: { id: v.id },
        data: { review: "approved", reviewedAt: now, reviewedBy: actorUserId(ctx) ?? null, ...(!body.asCanary && { activatedAt: now }) },
      });
      await tx.upstreamServer.update({
        where: { id: s.id },
        data: body.asCanary ? { canaryVersionId: v.id, canaryPercent: body.canaryPercent ?? 10 } : { activeVersionId: v.id },
      });
      await syncToolRows(tx, s.id);
      await recordAudit(tx, ctx, {
        action: "server.definitions_approved",
        category: "security",
        targetType: "server",
        targetId: s.id,
        ...(body.overrideReason && { reason: body.overrideReason }),
        details: { slug, versionId: v.id, version: v.version, asCanary: !!body.asCanary, overrode: blocked, highFindings: findings.filter((f) => f.severity === "high").length },
      });
      return v;
    });
    // A canary runs its own connection; an approved active set is what the active connection already offers.
    if (body.asCanary) await scope.connectAndSync(s, "canary", v.launch as UpstreamLaunch);
    await scope.changed(s.id);
    return { id: v.id, version: v.version };
  });
}

export async function rejectDefinitions(scope: RegistryScope, ctx: RequestContext, slug: string, versionId: string, input: TRejectDefinitions) {
  const body = ZRejectDefinitions.parse(input);
  const s = await getServerRow(scope.db, slug);
  const v = await scope.db.$transaction(async (tx) => {
    const v = await lockPending(tx, s.id, slug, versionId);
    await tx.serverVersion.update({ where: { id: v.id }, data: { review: "rejected", reviewedAt: new Date(), reviewedBy: actorUserId(ctx) ?? null } });
    await recordAudit(tx, ctx, {
      action: "server.definitions_rejected",
      category: "security",
      targetType: "server",
      targetId: s.id,
      ...(body.reason && { reason: body.reason }),
      details: { slug, versionId: v.id, version: v.version },
    });
    return v;
  });
  return { id: v.id, version: v.version };
}
