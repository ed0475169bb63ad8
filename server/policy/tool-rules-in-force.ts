// Everything the gateway applies to a call of one tool, read from the same sources enforcement reads: the policy
// snapshot's grants and enabled rules (as evaluatePolicy gets them), the tool's tier and approvals, its argument
// checking, and its rate limit as the limiter computes it. For the tool page's "Rules in force".
import type { TToolPolicy } from "../../lib/tool-policy-schemas";
import type { Db } from "../db/client";
import { notFound } from "../errors";
import { toolRateLimit, type RateLimits } from "../pipeline/rate-limit";
import { matchesPattern } from "./patterns";
import { loadPolicySnapshot } from "./policy-cache";

export async function toolRulesInForce(db: Db, limits: RateLimits, name: string): Promise<TToolPolicy> {
  const tool = await db.tool.findUnique({ where: { gatewayName: name }, include: { server: { select: { rateLimitPerMinute: true, timeoutMs: true } } } });
  if (!tool || tool.removedAt) throw notFound(`Tool ${name}`);
  const snapshot = await loadPolicySnapshot(db);
  const grants = snapshot.grants.filter((g) => g.kind === "TOOL" && matchesPattern(g.pattern, name));
  const userIds = grants.flatMap((g) => (g.userId ? [g.userId] : []));
  const emails = new Map((await db.user.findMany({ where: { id: { in: userIds } }, select: { id: true, email: true } })).map((u) => [u.id, u.email]));
  return {
    tool: name,
    enabled: tool.enabled,
    callers: grants.map((g) => ({ pattern: g.pattern, role: g.role, userId: g.userId, userEmail: g.userId ? (emails.get(g.userId) ?? null) : null })),
    riskTier: tool.riskTier,
    requiredApprovals: tool.requiredApprovals,
    rules: (snapshot.rules.get(tool.id) ?? []).map((r) => ({ id: r.id, kind: r.kind, argument: r.argument, config: r.config })),
    strict: tool.strict,
    rateLimit: { ...toolRateLimit(tool.rateLimitPerMinute, tool.server.rateLimitPerMinute, limits), perSessionPerMinute: limits.perSessionPerMinute },
    timeoutMs: tool.timeoutMs ?? tool.server.timeoutMs,
    async: tool.async,
  };
}
