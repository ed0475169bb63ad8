// The rules in force for one tool (GET /api/v1/tools/{name}/policy): everything the gateway applies to a call of
// it, in the order it applies them, for the tool page.
import { z } from "zod";
import { RULE_KINDS } from "./policy-schemas";
import { ZRiskTier, ZRole } from "./schemas";

export const ZToolPolicy = z
  .object({
    tool: z.string(),
    enabled: z.boolean(),
    /** Who holds a tool grant that covers it (an agent session's own whitelist narrows this further). */
    callers: z.array(z.object({ pattern: z.string(), role: ZRole.nullable(), userId: z.string().nullable(), userEmail: z.string().nullable() })),
    riskTier: ZRiskTier,
    /** Approvers who must say yes to a HIGH-tier call. */
    requiredApprovals: z.number().int(),
    /** The enabled parameter rules, in the order they are checked. */
    rules: z.array(z.object({ id: z.string(), kind: z.enum(RULE_KINDS), argument: z.string(), config: z.record(z.string(), z.unknown()) })),
    strict: z.boolean(),
    rateLimit: z.object({
      perMinute: z.number().int(),
      source: z.enum(["tool", "server", "gateway"]).meta({ description: "Whose setting it is: the tool's own, its server's default, or the gateway's" }),
      perSessionPerMinute: z.number().int().meta({ description: "Each agent session's limit across all tools" }),
    }),
    timeoutMs: z.number().int(),
    async: z.boolean(),
  })
  .meta({ id: "ToolPolicy" });
export type TToolPolicy = z.infer<typeof ZToolPolicy>;
