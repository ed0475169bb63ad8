// The tools as an admin sees and sets them: enabled, strict, timeout, rate limit, tier, task mode, approvers,
// example requests for code mode's search.
import type { RequestContext } from "../context";
import { recordAudit } from "../audit/record-audit";
import { toJson, type Db } from "../db/client";
import { notFound } from "../errors";
import { recordPolicyChange } from "../policy/policy-admin";
import { ZUpdateTool, type TToolSummary, type TUpdateTool } from "../../lib/schemas";
import { findNearDuplicates } from "./near-duplicates";
import { toToolDto } from "./registry-dto";

/** Every tool with its settings and lint findings, and near-duplicate pairs among the callable ones. */
export async function listTools(db: Db): Promise<{ items: TToolSummary[]; nearDuplicates: ReturnType<typeof findNearDuplicates> }> {
  const rows = await db.tool.findMany({ where: { removedAt: null }, include: { server: { select: { slug: true, enabled: true } } }, orderBy: { gatewayName: "asc" } });
  const items = rows.map((t) => toToolDto(t, t.server.slug));
  const visible = rows.filter((t) => t.enabled && t.server.enabled);
  const nearDuplicates = findNearDuplicates(visible.map((t) => ({ gatewayName: t.gatewayName, name: t.name, ...(t.description ? { description: t.description } : {}) })));
  return { items, nearDuplicates };
}

/** One tool by its gateway name, also when its server no longer offers it (`removed`). */
export async function getTool(db: Db, gatewayName: string): Promise<TToolSummary> {
  const t = await db.tool.findUnique({ where: { gatewayName }, include: { server: { select: { slug: true } } } });
  if (!t) throw notFound(`Tool ${gatewayName}`);
  return toToolDto(t, t.server.slug);
}

/** An admin's change to a tool, audited (a tier change is a policy change too); every process reloads its registry. */
export async function updateTool(r: { db: Db; changed: (serverId?: string) => Promise<void> }, ctx: RequestContext, gatewayName: string, input: TUpdateTool): Promise<TToolSummary> {
  const { db, changed } = r;
  const patch = ZUpdateTool.parse(input);
  const t = await db.tool.findUnique({ where: { gatewayName }, include: { server: { select: { slug: true } } } });
  if (!t) throw notFound(`Tool ${gatewayName}`);
  const updated = await db.$transaction(async (tx) => {
    const u = await tx.tool.update({
      where: { id: t.id },
      data: {
        ...(patch.enabled !== undefined && { enabled: patch.enabled }),
        ...(patch.strict !== undefined && { strict: patch.strict }),
        ...(patch.timeoutMs !== undefined && { timeoutMs: patch.timeoutMs }),
        ...(patch.rateLimitPerMinute !== undefined && { rateLimitPerMinute: patch.rateLimitPerMinute }),
        ...(patch.riskTier !== undefined && { riskTier: patch.riskTier, tierOverride: true }),
        ...(patch.async !== undefined && { async: patch.async }),
        ...(patch.requiredApprovals !== undefined && { requiredApprovals: patch.requiredApprovals }),
        ...(patch.exampleRequests !== undefined && { exampleRequests: patch.exampleRequests }),
      },
    });
    await recordAudit(tx, ctx, { action: "tool.updated", targetType: "tool", targetId: t.id, details: { tool: gatewayName, changes: toJson(patch) } });
    if (patch.riskTier !== undefined && patch.riskTier !== t.riskTier) {
      await recordPolicyChange(tx, ctx, { entityType: "tool_tier", entityId: t.id, toolId: t.id, action: "updated", before: { tier: t.riskTier }, after: { tier: patch.riskTier } });
    }
    return u;
  });
  await changed(t.serverId);
  return toToolDto(updated, t.server.slug);
}
