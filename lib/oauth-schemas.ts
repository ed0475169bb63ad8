// The embedded authorization server's REST contracts: a user's decision on an authorization request (the
// console's consent page) and the admin's signing-key rotation.
import { z } from "zod";
import { ZPathEntry, ZToolPattern } from "./policy-schemas";

export const ZConsentDecision = z.discriminatedUnion("decision", [
  z.object({
    decision: z.literal("allow"),
    tools: z.array(ZToolPattern).min(1).max(200).meta({ description: "Tools (names or patterns) the client gets; each must be one the user holds" }),
    paths: z.array(ZPathEntry).max(200).default([]).meta({ description: "Path and URI prefixes for path rules and resource reads" }),
    ttlSeconds: z.number().int().min(60).optional().meta({ description: "Lifetime of the agent session; default the admin's default, at most the maximum" }),
    csrfToken: z.string().max(200).meta({ description: "The token the consent page was rendered with (bound to the request and the user)" }),
  }),
  z.object({ decision: z.literal("deny"), csrfToken: z.string().max(200) }),
]).meta({ id: "ConsentDecision" });
export type TConsentDecision = z.input<typeof ZConsentDecision>;

export const ZConsentResult = z.object({
  redirectTo: z.string().meta({ description: "Where the browser goes next: the authorization server finishes the request and returns to the client" }),
  sessionId: z.string().optional().meta({ description: "The agent session the consent created (allow)" }),
}).meta({ id: "ConsentResult" });

export const ZKeyRotation = z.object({ kid: z.string(), retired: z.array(z.string()) }).meta({ id: "KeyRotation" });
