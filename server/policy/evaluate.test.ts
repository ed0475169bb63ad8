// The access decision's order for HIGH-tier tools: whitelist first, then the rules, and only a call that
// passes them waits for a person (with the arguments the rules let through).
import { describe, expect, it } from "vitest";
import { evaluatePolicy, type PolicyInput } from "./evaluate";
import type { PolicyRule } from "./policy-cache";

const session = { userId: "u1", role: "USER" as const, agentId: "bot", agentSessionId: "s1", tools: ["ops__*"], paths: [] };
const held = { tools: ["*"], paths: [] };
const input = (riskTier: "LOW" | "MEDIUM" | "HIGH", args: Record<string, unknown>, rules: PolicyRule[] = [], tools = session.tools): PolicyInput => ({
  tool: { id: "t1", gatewayName: "ops__purge", riskTier },
  arguments: args,
  session: { ...session, tools },
  held,
  rules,
});
const cap: PolicyRule = { id: "r1", toolId: "t1", kind: "row_cap", argument: "limit", config: { max: 100 } };
const region: PolicyRule = { id: "r2", toolId: "t1", kind: "value", argument: "region", config: { enum: ["eu", "us"] } };

describe("evaluatePolicy for HIGH-tier tools", () => {
  it("asks for approval once the rules pass, with the arguments they capped", async () => {
    const v = await evaluatePolicy(input("HIGH", { limit: 5000, region: "eu" }, [cap, region]));
    expect(v).toMatchObject({ decision: "require_approval", step: "tier", code: "approval_required", arguments: { limit: 100, region: "eu" } });
    expect(v.capped).toEqual([{ argument: "limit", from: 5000, to: 100 }]);
  });

  it("a rule's refusal needs no approver: denied at the rule", async () => {
    expect(await evaluatePolicy(input("HIGH", { region: "mars" }, [region]))).toMatchObject({ decision: "deny", step: "rule", code: "policy_denied", ruleId: "r2" });
  });

  it("a tool off the whitelist is refused before the tier", async () => {
    expect(await evaluatePolicy(input("HIGH", {}, [], ["other__*"]))).toMatchObject({ decision: "deny", step: "whitelist", code: "tool_not_allowed" });
  });

  it("MEDIUM and LOW tools are allowed without a person", async () => {
    expect((await evaluatePolicy(input("MEDIUM", { region: "us" }, [region]))).decision).toBe("allow");
    expect((await evaluatePolicy(input("LOW", {}))).decision).toBe("allow");
  });
});
