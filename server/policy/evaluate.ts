// The access decision for one tool call, in the fixed order whitelist → risk tier → parameter rules. The
// gateway pipeline and the console's simulator both call this, so what the simulator shows is what happens.
// Rules apply at every tier (a rule an admin attached is never skipped, D23); a HIGH-tier call that passes
// them waits for a person (server/approvals).
import type { TDecision } from "../../lib/policy-schemas";
import type { Role } from "../db/client";
import { isBuiltinGatewayName } from "../builtin/builtin-server";
import type { ToolErrorCode } from "../pipeline/tool-error";
import { matchesAny } from "./patterns";
import { checkPathInWhitelist } from "./path-check";
import type { HeldGrant, PolicyRule } from "./policy-cache";
import { checkReadOnlySql } from "./sql-readonly";

/** What an agent session (or, for the console, a user) may use. */
export type SessionGrant = {
  userId: string;
  role: Role;
  agentId: string | null;
  agentSessionId: string | null;
  /** The session's own whitelist (already narrowed to what its user held when it was created). */
  tools: readonly string[];
  paths: readonly string[];
};

export type PolicyInput = {
  tool: { id: string; gatewayName: string; riskTier: "LOW" | "MEDIUM" | "HIGH" };
  arguments: Record<string, unknown>;
  session: SessionGrant;
  /** What the session's user holds now: a grant removed after the session was made is enforced at once. */
  held: HeldGrant;
  rules: readonly PolicyRule[];
};

export type PolicyVerdict = Omit<TDecision, "step" | "code"> & { step: "whitelist" | "tier" | "rule" | "allow"; code: ToolErrorCode | null; capped?: { argument: string; from: unknown; to: number }[] };

const deny = (step: PolicyVerdict["step"], code: ToolErrorCode, reason: string, args: Record<string, unknown>, ruleId: string | null = null): PolicyVerdict => ({
  decision: step === "tier" ? "require_approval" : "deny",
  step,
  code,
  reason,
  ruleId,
  arguments: args,
});

/**
 * Whether a session may see and call the tool (its whitelist and its user's current grant). The gateway's own
 * tools (`portcullis__…`) are not subject to either: they act only on the session's own tasks, approvals and
 * programs, and each upstream call they lead to passes this check itself. Tier, rules and limits still apply.
 */
export function toolAllowed(session: SessionGrant, held: HeldGrant, gatewayName: string): boolean {
  if (isBuiltinGatewayName(gatewayName)) return true;
  return matchesAny(session.tools, gatewayName) && matchesAny(held.tools, gatewayName);
}

export async function evaluatePolicy(input: PolicyInput): Promise<PolicyVerdict> {
  const { tool, session, held } = input;
  let args = input.arguments;
  if (!toolAllowed(session, held, tool.gatewayName)) {
    return deny("whitelist", "tool_not_allowed", `This session may not call ${tool.gatewayName}: it is not on the session's tool whitelist. Use a tool from tools/list, or ask the user for a session that includes it.`, args);
  }
  const capped: NonNullable<PolicyVerdict["capped"]> = [];
  for (const rule of input.rules) {
    const outcome = await checkRule(rule, args, session, held);
    if ("reason" in outcome) return deny("rule", "policy_denied", `${tool.gatewayName}: argument \`${rule.argument}\` ${outcome.reason.replace(/\.$/, "")}.`, args, rule.id);
    if (outcome.args !== args) {
      capped.push({ argument: rule.argument, from: getAt(args, rule.argument), to: getAt(outcome.args, rule.argument) as number });
      args = outcome.args;
    }
  }
  // HIGH waits for a person, with the arguments the rules let through (a rule's refusal needs no approver).
  if (tool.riskTier === "HIGH") {
    return { ...deny("tier", "approval_required", `${tool.gatewayName} is a high-risk tool: it runs only after a person approves it.`, args), ...(capped.length && { capped }) };
  }
  return { decision: "allow", step: "allow", code: null, reason: "allowed: on the whitelist, tier permits, every rule passed", ruleId: null, arguments: args, ...(capped.length && { capped }) };
}

type RuleOutcome = { args: Record<string, unknown> } | { reason: string };

async function checkRule(rule: PolicyRule, args: Record<string, unknown>, session: SessionGrant, held: HeldGrant): Promise<RuleOutcome> {
  const value = getAt(args, rule.argument);
  const c = rule.config;
  switch (rule.kind) {
    case "row_cap": {
      const max = Number(c.max);
      if (value === undefined) return { args: setAt(args, rule.argument, max) };
      if (typeof value !== "number" || !Number.isFinite(value)) return { reason: `must be a number (at most ${String(max)})` };
      return value > max ? { args: setAt(args, rule.argument, max) } : { args };
    }
    case "value":
      if (value === undefined) return { args };
      return checkValue(value, c) ?? { args };
    case "sql_readonly": {
      if (value === undefined) return { args };
      if (typeof value !== "string") return { reason: "must be an SQL string" };
      const extra = Array.isArray(c.deniedFunctions) ? (c.deniedFunctions as string[]) : [];
      const v = await checkReadOnlySql(value, { extraDeniedFunctions: extra });
      return v.ok ? { args } : { reason: `must be one read-only SQL statement: ${v.reason}` };
    }
    case "path": {
      if (value === undefined) return { args };
      for (const item of Array.isArray(value) ? (value as unknown[]) : [value]) {
        for (const list of [session.paths, held.paths]) {
          const v = await checkPathInWhitelist(item, list);
          if (!v.ok) return { reason: v.reason };
        }
      }
      return { args };
    }
  }
}

function checkValue(value: unknown, c: Record<string, unknown>): { reason: string } | undefined {
  if (Array.isArray(c.enum) && !c.enum.some((e) => e === value)) return { reason: `must be one of ${c.enum.map((e) => JSON.stringify(e)).join(", ")}` };
  if (typeof c.min === "number" || typeof c.max === "number") {
    if (typeof value !== "number") return { reason: "must be a number" };
    if (typeof c.min === "number" && value < c.min) return { reason: `must be at least ${String(c.min)}` };
    if (typeof c.max === "number" && value > c.max) return { reason: `must be at most ${String(c.max)}` };
  }
  if (typeof c.maxLength === "number") {
    const len = typeof value === "string" ? [...value].length : JSON.stringify(value).length;
    if (len > c.maxLength) return { reason: `must be at most ${String(c.maxLength)} characters long` };
  }
  if (typeof c.pattern === "string") {
    if (typeof value !== "string") return { reason: "must be a string" };
    if (!new RegExp(`^(?:${c.pattern})$`, "u").test(value)) return { reason: `must match the pattern ${c.pattern}` };
  }
  return undefined;
}

/** The value at a dotted path (`filter.limit`), or undefined. */
export function getAt(obj: Record<string, unknown>, path: string): unknown {
  let cur: unknown = obj;
  for (const key of path.split(".")) {
    if (typeof cur !== "object" || cur === null || Array.isArray(cur) || !Object.hasOwn(cur, key)) return undefined;
    cur = (cur as Record<string, unknown>)[key];
  }
  return cur;
}

/** A copy of `obj` with the value at a dotted path replaced (objects on the way are copied, created if missing). */
export function setAt(obj: Record<string, unknown>, path: string, value: unknown): Record<string, unknown> {
  const [key, ...rest] = path.split(".");
  if (!rest.length) return { ...obj, [key!]: value };
  const inner = obj[key!];
  const child = typeof inner === "object" && inner !== null && !Array.isArray(inner) ? (inner as Record<string, unknown>) : {};
  return { ...obj, [key!]: setAt(child, rest.join("."), value) };
}
