// Words for policy objects: rule kinds, what a rule's config demands, who holds a grant.
import { ROLE_LABEL } from "@/components/role-badge";
import type { TGrant, TRule, TRuleKind } from "@/lib/policy-schemas";
import type { TRole } from "@/lib/roles";

export const RULE_KIND_LABEL: Record<TRuleKind, string> = {
  path: "Path",
  sql_readonly: "Read-only SQL",
  value: "Value",
  row_cap: "Row cap",
};

export const RULE_KIND_HINT: Record<TRuleKind, string> = {
  path: "The argument must be a path or URI inside the paths the agent session holds.",
  sql_readonly: "The argument must be one read-only SQL statement: no writes, no DDL, no dangerous functions.",
  value: "The argument must satisfy every constraint given: allowed values, bounds, a pattern or a length.",
  row_cap: "The argument (a row limit) is lowered to the maximum before the call reaches the server.",
};

const show = (v: unknown) => (typeof v === "string" ? JSON.stringify(v) : String(v));

/** "one of "a", "b" · ≥ 1 · ≤ 10" for a value rule; the config as the API stores it. */
export function describeRuleConfig(rule: Pick<TRule, "kind" | "config">): string {
  const c = rule.config;
  switch (rule.kind) {
    case "path":
      return "inside the session's paths";
    case "sql_readonly": {
      const fns = Array.isArray(c.deniedFunctions) ? c.deniedFunctions.map(String) : [];
      return fns.length ? `read-only; also refuses ${fns.join(", ")}` : "read-only";
    }
    case "row_cap":
      return typeof c.max === "number" ? `at most ${c.max} rows` : "capped";
    case "value": {
      const parts: string[] = [];
      if (Array.isArray(c.enum)) parts.push(`one of ${c.enum.map(show).join(", ")}`);
      if (typeof c.min === "number") parts.push(`≥ ${c.min}`);
      if (typeof c.max === "number") parts.push(`≤ ${c.max}`);
      if (typeof c.pattern === "string") parts.push(`matches /${c.pattern}/`);
      if (typeof c.maxLength === "number") parts.push(`at most ${c.maxLength} characters`);
      return parts.join(" · ") || "no constraint";
    }
  }
}

export function describeHolder(grant: Pick<TGrant, "role" | "userId" | "userEmail">): string {
  if (grant.role) return `the ${ROLE_LABEL[grant.role]} role`;
  return grant.userEmail ?? grant.userId ?? "a user";
}

/** `role:ADMIN` → "Admin role", `user` → "This user" (where an effective grant's entry comes from). */
export function describeSource(from: string): string {
  if (from.startsWith("role:")) {
    const role = from.slice(5) as TRole;
    return `${ROLE_LABEL[role] ?? role} role`;
  }
  if (from === "user") return "Granted to this user";
  return from;
}
