// What admins change about policy — risk tiers, parameter rules, grants — each change kept in policy history
// (author, time, before/after) and revertible, and announced on the change bus so every gateway process
// enforces it on the next call. Also the simulator: the real decision for a call, without making it.
import {
  ZBulkTier,
  ZCreateGrant,
  ZCreateRule,
  type TCreateGrant,
  type TCreateRule,
  type TDecision,
  type TEffectiveGrant,
  type TGrant,
  type TPolicyChange,
  type TPolicyTool,
  type TRule,
  type TSimulateRequest,
  type TBulkTier,
  ZSimulateRequest,
} from "../../lib/policy-schemas";
import { recordAudit } from "../audit/record-audit";
import type { RequestContext } from "../context";
import { toJson, type Db, type DbTx, type Grant, type ParameterRule, type PolicyChange, type Prisma, type Role } from "../db/client";
import { GatewayError, notFound } from "../errors";
import { publishChange } from "../events/change-bus";
import { formatValidationErrors, validatorFor } from "../pipeline/validate-arguments";
import { checkAgentSession } from "./check-agent-session";
import { evaluatePolicy, type SessionGrant } from "./evaluate";
import { normalizeWhitelistEntry } from "./path-check";
import { matchesAny } from "./patterns";
import { heldFrom, loadPolicySnapshot } from "./policy-cache";

type EntityType = TPolicyChange["entityType"];
type Action = TPolicyChange["action"];

const actorId = (ctx: RequestContext) => (ctx.actor.type === "user" ? ctx.actor.userId : null);

/** Stores one policy change and tells every process; call inside the transaction that makes the change. */
export async function recordPolicyChange(
  tx: DbTx,
  ctx: RequestContext,
  change: { entityType: EntityType; entityId: string; toolId?: string | null; action: Action; before?: unknown; after?: unknown; revertOf?: string },
): Promise<string> {
  const row = await tx.policyChange.create({
    data: {
      entityType: change.entityType,
      entityId: change.entityId,
      toolId: change.toolId ?? null,
      action: change.action,
      before: change.before === undefined ? undefined : toJson(change.before),
      after: change.after === undefined ? undefined : toJson(change.after),
      authorId: actorId(ctx),
      revertOf: change.revertOf ?? null,
    },
  });
  await recordAudit(tx, ctx, {
    action: `policy.${change.entityType}_${change.action}`,
    targetType: change.entityType,
    targetId: change.entityId,
    details: toJson({ before: change.before ?? null, after: change.after ?? null, ...(change.revertOf && { revertOf: change.revertOf }) }),
  });
  // Tiers live in the registry's snapshot, grants and rules in the policy snapshot: both are dropped.
  await publishChange(tx, { kind: "policy" });
  if (change.entityType === "tool_tier") await publishChange(tx, { kind: "registry" });
  return row.id;
}

const KIND_OUT = { PATH: "path", SQL_READONLY: "sql_readonly", VALUE: "value", ROW_CAP: "row_cap" } as const;
const KIND_IN = { path: "PATH", sql_readonly: "SQL_READONLY", value: "VALUE", row_cap: "ROW_CAP" } as const;

function toRuleDto(r: ParameterRule, tool: string): TRule {
  return { id: r.id, tool, kind: KIND_OUT[r.kind], argument: r.argument, config: (r.config ?? {}) as Record<string, unknown>, enabled: r.enabled, createdAt: r.createdAt.toISOString() };
}

function toGrantDto(g: Grant & { user?: { email: string } | null }): TGrant {
  return { id: g.id, kind: g.kind === "TOOL" ? "tool" : "path", pattern: g.pattern, role: g.role, userId: g.userId, userEmail: g.user?.email ?? null, createdAt: g.createdAt.toISOString() };
}

async function toolByName(db: DbTx, name: string) {
  const tool = await db.tool.findUnique({ where: { gatewayName: name } });
  if (!tool || tool.removedAt) throw notFound(`Tool ${name}`);
  return tool;
}

/** A grant's pattern as stored: tool patterns as written, paths normalized (absolute path, URI prefix or *). */
function normalizeGrantPattern(kind: "tool" | "path", pattern: string): string {
  if (kind === "tool") return pattern;
  try {
    return normalizeWhitelistEntry(pattern);
  } catch (err) {
    throw new GatewayError("validation_failed", `pattern: ${(err as Error).message}`, [{ path: "pattern", message: (err as Error).message }]);
  }
}

const ruleSnapshot = (r: ParameterRule) => ({ toolId: r.toolId, kind: r.kind, argument: r.argument, config: r.config, enabled: r.enabled });
const grantSnapshot = (g: Grant) => ({ kind: g.kind, pattern: g.pattern, role: g.role, userId: g.userId });

export function createPolicyAdmin(db: Db) {
  /** History rows as the API shows them: with the author's e-mail, the tool's name and a one-line summary. */
  async function toChangeDtos(rows: PolicyChange[]): Promise<TPolicyChange[]> {
    const [authors, tools] = await Promise.all([
      db.user.findMany({ where: { id: { in: rows.flatMap((r) => (r.authorId ? [r.authorId] : [])) } }, select: { id: true, email: true } }),
      db.tool.findMany({ where: { id: { in: rows.flatMap((r) => (r.toolId ? [r.toolId] : [])) } }, select: { id: true, gatewayName: true } }),
    ]);
    const email = new Map(authors.map((a) => [a.id, a.email]));
    const toolName = new Map(tools.map((t) => [t.id, t.gatewayName]));
    return rows.map((r) => {
      const tool = r.toolId ? (toolName.get(r.toolId) ?? null) : null;
      return {
        id: r.id,
        entityType: r.entityType as EntityType,
        entityId: r.entityId,
        tool,
        action: r.action as Action,
        before: r.before,
        after: r.after,
        authorEmail: r.authorId ? (email.get(r.authorId) ?? null) : null,
        revertOf: r.revertOf,
        createdAt: r.createdAt.toISOString(),
        summary: summarize(r.entityType as EntityType, r.action as Action, r.before, r.after, tool),
      };
    });
  }

  async function setTiers(ctx: RequestContext, names: readonly string[], tier: "LOW" | "MEDIUM" | "HIGH", revertOf?: string) {
    await db.$transaction(async (tx) => {
      for (const name of names) {
        const tool = await toolByName(tx, name);
        if (tool.riskTier === tier && tool.tierOverride) continue;
        await tx.tool.update({ where: { id: tool.id }, data: { riskTier: tier, tierOverride: true } });
        await recordPolicyChange(tx, ctx, { entityType: "tool_tier", entityId: tool.id, toolId: tool.id, action: "updated", before: { tier: tool.riskTier }, after: { tier }, ...(revertOf && { revertOf }) });
      }
    });
  }

  return {
    /** Every tool with its tier and how many enabled rules guard it. */
    async tools(): Promise<TPolicyTool[]> {
      const rows = await db.tool.findMany({
        where: { removedAt: null },
        include: { server: { select: { slug: true } }, _count: { select: { rules: { where: { enabled: true } } } } },
        orderBy: { gatewayName: "asc" },
      });
      return rows.map((t) => ({ name: t.gatewayName, serverSlug: t.server.slug, title: t.title, riskTier: t.riskTier, tierOverride: t.tierOverride, enabled: t.enabled, ruleCount: t._count.rules }));
    },

    async bulkTier(ctx: RequestContext, input: TBulkTier): Promise<TPolicyTool[]> {
      const { tools, riskTier } = ZBulkTier.parse(input);
      await setTiers(ctx, tools, riskTier);
      return this.tools();
    },

    async listRules(toolName: string): Promise<TRule[]> {
      const tool = await toolByName(db, toolName);
      const rows = await db.parameterRule.findMany({ where: { toolId: tool.id }, orderBy: { createdAt: "asc" } });
      return rows.map((r) => toRuleDto(r, toolName));
    },

    async createRule(ctx: RequestContext, toolName: string, input: TCreateRule): Promise<TRule> {
      const spec = ZCreateRule.parse(input);
      const { kind, argument, ...config } = spec;
      return db.$transaction(async (tx) => {
        const tool = await toolByName(tx, toolName);
        const row = await tx.parameterRule.create({ data: { toolId: tool.id, kind: KIND_IN[kind], argument, config: toJson(config), createdById: actorId(ctx) } });
        await recordPolicyChange(tx, ctx, { entityType: "rule", entityId: row.id, toolId: tool.id, action: "created", after: ruleSnapshot(row) });
        return toRuleDto(row, toolName);
      });
    },

    async deleteRule(ctx: RequestContext, toolName: string, id: string): Promise<TRule> {
      return db.$transaction(async (tx) => {
        const tool = await toolByName(tx, toolName);
        const row = await tx.parameterRule.findFirst({ where: { id, toolId: tool.id } });
        if (!row) throw notFound(`Rule ${id} of ${toolName}`);
        await tx.parameterRule.delete({ where: { id } });
        await recordPolicyChange(tx, ctx, { entityType: "rule", entityId: id, toolId: tool.id, action: "deleted", before: ruleSnapshot(row) });
        return toRuleDto(row, toolName);
      });
    },

    async listGrants(filter: { userId?: string | undefined; role?: Role | undefined } = {}): Promise<TGrant[]> {
      const rows = await db.grant.findMany({
        where: { ...(filter.userId && { userId: filter.userId }), ...(filter.role && { role: filter.role }) },
        include: { user: { select: { email: true } } },
        orderBy: [{ role: "asc" }, { createdAt: "asc" }],
      });
      return rows.map(toGrantDto);
    },

    async createGrant(ctx: RequestContext, input: TCreateGrant): Promise<TGrant> {
      const g = ZCreateGrant.parse(input);
      const pattern = normalizeGrantPattern(g.kind, g.pattern);
      return db.$transaction(async (tx) => {
        if (g.userId && !(await tx.user.findUnique({ where: { id: g.userId } }))) throw notFound(`User ${g.userId}`);
        const row = await tx.grant.create({
          data: { kind: g.kind === "tool" ? "TOOL" : "PATH", pattern, role: g.role ?? null, userId: g.userId ?? null, createdById: actorId(ctx) },
          include: { user: { select: { email: true } } },
        });
        await recordPolicyChange(tx, ctx, { entityType: "grant", entityId: row.id, action: "created", after: grantSnapshot(row) });
        return toGrantDto(row);
      });
    },

    async deleteGrant(ctx: RequestContext, id: string): Promise<TGrant> {
      return db.$transaction(async (tx) => {
        const row = await tx.grant.findUnique({ where: { id }, include: { user: { select: { email: true } } } });
        if (!row) throw notFound(`Grant ${id}`);
        await tx.grant.delete({ where: { id } });
        await recordPolicyChange(tx, ctx, { entityType: "grant", entityId: id, action: "deleted", before: grantSnapshot(row) });
        return toGrantDto(row);
      });
    },

    /** What a user holds (by role and in person) and which enabled tools that lets them call. */
    async effectiveGrant(userId: string): Promise<TEffectiveGrant> {
      const user = await db.user.findUnique({ where: { id: userId } });
      if (!user) throw notFound(`User ${userId}`);
      const grants = await db.grant.findMany({ where: { OR: [{ userId }, { role: user.role }] }, orderBy: { createdAt: "asc" } });
      const from = (g: Grant) => (g.userId ? "user" : `role:${g.role ?? ""}`);
      const tools = grants.filter((g) => g.kind === "TOOL").map((g) => ({ pattern: g.pattern, from: from(g) }));
      const paths = grants.filter((g) => g.kind === "PATH").map((g) => ({ pattern: g.pattern, from: from(g) }));
      const enabled = await db.tool.findMany({ where: { removedAt: null, enabled: true, server: { enabled: true } }, select: { gatewayName: true }, orderBy: { gatewayName: "asc" } });
      const patterns = tools.map((t) => t.pattern);
      return { userId, role: user.role, tools, paths, callableTools: enabled.map((t) => t.gatewayName).filter((n) => matchesAny(patterns, n)) };
    },

    async history(opts: { cursor?: string | undefined; limit?: number | undefined; tool?: string | undefined }): Promise<{ items: TPolicyChange[]; nextCursor: string | null }> {
      const limit = Math.min(Math.max(opts.limit ?? 50, 1), 200);
      const toolFilter = opts.tool ? await toolByName(db, opts.tool) : undefined;
      const rows = await db.policyChange.findMany({
        where: toolFilter ? { toolId: toolFilter.id } : {},
        orderBy: [{ createdAt: "desc" }, { id: "desc" }],
        take: limit + 1,
        ...(opts.cursor && { cursor: { id: opts.cursor }, skip: 1 }),
      });
      const page = rows.slice(0, limit);
      return {
        items: await toChangeDtos(page),
        nextCursor: rows.length > limit ? page[page.length - 1]!.id : null,
      };
    },

    /** Undoes one change: a tier goes back, a created rule or grant is deleted, a deleted one restored. */
    async revert(ctx: RequestContext, changeId: string): Promise<TPolicyChange> {
      const change = await db.policyChange.findUnique({ where: { id: changeId } });
      if (!change) throw notFound(`Policy change ${changeId}`);
      const conflict = (why: string) => new GatewayError("conflict", `This change cannot be reverted: ${why}.`);
      const before = change.before as Record<string, unknown> | null;
      let newId: string;
      if (change.entityType === "tool_tier") {
        const tool = await db.tool.findUnique({ where: { id: change.entityId } });
        if (!tool || tool.removedAt) throw conflict("the tool no longer exists");
        const tier = before?.tier as "LOW" | "MEDIUM" | "HIGH";
        newId = await db.$transaction(async (tx) => {
          await tx.tool.update({ where: { id: tool.id }, data: { riskTier: tier, tierOverride: true } });
          return recordPolicyChange(tx, ctx, { entityType: "tool_tier", entityId: tool.id, toolId: tool.id, action: "updated", before: { tier: tool.riskTier }, after: { tier }, revertOf: change.id });
        });
      } else if (change.action === "created") {
        newId = await db.$transaction(async (tx) => {
          const gone = change.entityType === "rule" ? await tx.parameterRule.findUnique({ where: { id: change.entityId } }) : await tx.grant.findUnique({ where: { id: change.entityId } });
          if (!gone) throw conflict(`the ${change.entityType} was already deleted`);
          if (change.entityType === "rule") await tx.parameterRule.delete({ where: { id: change.entityId } });
          else await tx.grant.delete({ where: { id: change.entityId } });
          return recordPolicyChange(tx, ctx, { entityType: change.entityType as EntityType, entityId: change.entityId, toolId: change.toolId, action: "deleted", before: change.after, revertOf: change.id });
        });
      } else if (change.action === "deleted" && before) {
        newId = await db.$transaction(async (tx) => {
          if (change.entityType === "rule") {
            if (!(await tx.tool.findUnique({ where: { id: String(before.toolId) } }))) throw conflict("the tool no longer exists");
            const row = await tx.parameterRule.create({
              data: { toolId: String(before.toolId), kind: before.kind as ParameterRule["kind"], argument: String(before.argument), config: toJson(before.config ?? {}), enabled: before.enabled !== false, createdById: actorId(ctx) },
            });
            return recordPolicyChange(tx, ctx, { entityType: "rule", entityId: row.id, toolId: row.toolId, action: "created", after: ruleSnapshot(row), revertOf: change.id });
          }
          const userId = typeof before.userId === "string" ? before.userId : null;
          if (userId && !(await tx.user.findUnique({ where: { id: userId } }))) throw conflict("the user no longer exists");
          const row = await tx.grant.create({
            data: { kind: before.kind as Grant["kind"], pattern: String(before.pattern), role: (before.role as Role | null) ?? null, userId, createdById: actorId(ctx) },
          });
          return recordPolicyChange(tx, ctx, { entityType: "grant", entityId: row.id, action: "created", after: grantSnapshot(row), revertOf: change.id });
        });
      } else {
        throw conflict("it records nothing to restore");
      }
      const [dto] = await toChangeDtos([await db.policyChange.findUniqueOrThrow({ where: { id: newId } })]);
      return dto!;
    },

    /** The decision the gateway would make for this call — whitelist, tier, rules, schema — without making it. */
    async simulate(input: TSimulateRequest): Promise<TDecision> {
      const req = ZSimulateRequest.parse(input);
      const tool = await db.tool.findUnique({ where: { gatewayName: req.tool } });
      if (!tool || tool.removedAt) throw notFound(`Tool ${req.tool}`);
      let grant: SessionGrant;
      if (req.sessionId) {
        const row = await db.agentSession.findUnique({ where: { id: req.sessionId }, include: { user: true } });
        if (!row) throw notFound(`Agent session ${req.sessionId}`);
        try {
          grant = checkAgentSession(row).grant;
        } catch (err) {
          return { decision: "deny", step: "whitelist", code: "invalid_token", reason: (err as Error).message, ruleId: null, arguments: req.arguments };
        }
      } else {
        const user = await db.user.findUnique({ where: { id: req.userId! } });
        if (!user) throw notFound(`User ${req.userId!}`);
        grant = { userId: user.id, role: user.role, agentId: null, agentSessionId: null, tools: ["*"], paths: ["*"] };
      }
      if (!tool.enabled) return { decision: "deny", step: "whitelist", code: "tool_disabled", reason: `The tool ${req.tool} is disabled by an administrator.`, ruleId: null, arguments: req.arguments };
      const snapshot = await loadPolicySnapshot(db);
      const verdict = await evaluatePolicy({
        tool: { id: tool.id, gatewayName: tool.gatewayName, riskTier: tool.riskTier },
        arguments: req.arguments,
        session: grant,
        held: heldFrom(snapshot, { id: grant.userId, role: grant.role }),
        rules: snapshot.rules.get(tool.id) ?? [],
      });
      const { capped: _capped, ...decision } = verdict;
      if (verdict.decision !== "allow") return decision;
      const validate = validatorFor({ inputSchema: tool.inputSchema as Record<string, unknown>, strict: tool.strict });
      if (validate instanceof Error) return { ...decision, decision: "deny", step: "schema", code: "invalid_arguments", reason: validate.message };
      if (!validate(verdict.arguments)) {
        const problems = formatValidationErrors(validate.errors ?? []);
        return { ...decision, decision: "deny", step: "schema", code: "invalid_arguments", reason: problems.map((p) => p.message).join("; ") };
      }
      return decision;
    },
  };
}

function summarize(entity: EntityType, action: Action, before: Prisma.JsonValue, after: Prisma.JsonValue, tool: string | null): string {
  const b = (before ?? {}) as Record<string, unknown>;
  const a = (after ?? {}) as Record<string, unknown>;
  if (entity === "tool_tier") return `${tool ?? "a tool"}: tier ${String(b.tier)} → ${String(a.tier)}`;
  const x = action === "deleted" ? b : a;
  if (entity === "rule") return `${tool ?? "a tool"}: ${action} ${String(x.kind).toLowerCase()} rule on \`${String(x.argument)}\``;
  const who = x.userId ? "a user" : `role ${String(x.role)}`;
  return `${action} ${String(x.kind).toLowerCase()} grant ${String(x.pattern)} for ${who}`;
}

export type PolicyAdmin = ReturnType<typeof createPolicyAdmin>;
