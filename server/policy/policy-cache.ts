// The policy every call is checked against — grants by role and user, enabled parameter rules by tool — as
// one small per-process snapshot. Any change on any process publishes `policy` on the change bus, which drops
// the snapshot everywhere before the change's answer leaves; the TTL is the second safety net.
import type { Db, Role } from "../db/client";
import type { ChangeBus } from "../events/change-bus";
import { createInvalidatedCache } from "../events/invalidated-cache";
import type { TRuleKind } from "../../lib/policy-schemas";

export type HeldGrant = { tools: string[]; paths: string[] };
export type PolicyRule = { id: string; toolId: string; kind: TRuleKind; argument: string; config: Record<string, unknown> };

type Snapshot = {
  grants: { kind: "TOOL" | "PATH"; pattern: string; role: Role | null; userId: string | null }[];
  rules: Map<string, PolicyRule[]>;
};

export const POLICY_CACHE_TTL_MS = 10_000;
const KIND: Record<string, TRuleKind> = { PATH: "path", SQL_READONLY: "sql_readonly", VALUE: "value", ROW_CAP: "row_cap" };

export async function loadPolicySnapshot(db: Db): Promise<Snapshot> {
  const [grants, rules] = await Promise.all([
    db.grant.findMany({ select: { kind: true, pattern: true, role: true, userId: true } }),
    db.parameterRule.findMany({ where: { enabled: true }, orderBy: { createdAt: "asc" } }),
  ]);
  const byTool = new Map<string, PolicyRule[]>();
  for (const r of rules) {
    const list = byTool.get(r.toolId) ?? [];
    list.push({ id: r.id, toolId: r.toolId, kind: KIND[r.kind]!, argument: r.argument, config: (r.config ?? {}) as Record<string, unknown> });
    byTool.set(r.toolId, list);
  }
  return { grants, rules: byTool };
}

export function heldFrom(snapshot: Snapshot, user: { id: string; role: Role }): HeldGrant {
  const mine = snapshot.grants.filter((g) => g.userId === user.id || (g.role !== null && g.role === user.role));
  const uniq = (xs: string[]) => [...new Set(xs)].sort();
  return { tools: uniq(mine.filter((g) => g.kind === "TOOL").map((g) => g.pattern)), paths: uniq(mine.filter((g) => g.kind === "PATH").map((g) => g.pattern)) };
}

export type PolicyCache = {
  held(user: { id: string; role: Role }): Promise<HeldGrant>;
  rulesFor(toolId: string): Promise<PolicyRule[]>;
  close(): void;
};

export function createPolicyCache(deps: { db: Db; bus: ChangeBus; ttlMs?: number }): PolicyCache {
  const cache = createInvalidatedCache<Snapshot>({
    bus: deps.bus,
    ttlMs: deps.ttlMs ?? POLICY_CACHE_TTL_MS,
    max: 1,
    invalidates: (e) => (e.kind === "policy" ? () => true : undefined),
  });
  const snapshot = async () => (await cache.get("policy", () => loadPolicySnapshot(deps.db)))!;
  return {
    async held(user) {
      return heldFrom(await snapshot(), user);
    },
    async rulesFor(toolId) {
      return (await snapshot()).rules.get(toolId) ?? [];
    },
    close: () => cache.close(),
  };
}
