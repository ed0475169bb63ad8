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
    virtualServer: z.string().min(1).max(63).optional().meta({ description: "Scope the client's session to this virtual server (served only at /mcp/v/<name>)" }),
  }),
  z.object({ decision: z.literal("deny"), csrfToken: z.string().max(200) }),
]).meta({ id: "ConsentDecision" });
export type TConsentDecision = z.input<typeof ZConsentDecision>;

export const ZConsentResult = z.object({
  redirectTo: z.string().meta({ description: "Where the browser goes next: the authorization server finishes the request and returns to the client" }),
  sessionId: z.string().optional().meta({ description: "The agent session the consent created (allow)" }),
}).meta({ id: "ConsentResult" });

export const ZKeyRotation = z.object({ kid: z.string(), retired: z.array(z.string()) }).meta({ id: "KeyRotation" });

/** Client ids are a registered client's random id or a client ID metadata document's HTTPS URL. */
export const MAX_OAUTH_CLIENT_ID_CHARS = 2048;
// C0 and C1 controls and DEL: an id is one line of printable text (it is shown in the console and the audit).
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

export const ZOAuthClientId = z.string().superRefine((id, ctx) => {
  const problem = !id.length ? { code: "client_id_empty", message: "clientId is empty" }
    : id.length > MAX_OAUTH_CLIENT_ID_CHARS ? { code: "client_id_too_long", message: `clientId is at most ${String(MAX_OAUTH_CLIENT_ID_CHARS)} characters` }
    : CONTROL.test(id) ? { code: "client_id_control_character", message: "clientId must not contain control characters" }
    : null;
  if (problem) ctx.addIssue({ code: "custom", message: problem.message, params: { code: problem.code } });
}).meta({ description: "The OAuth client's id: a registered client's id or a client ID metadata document's HTTPS URL" });

export const ZBlockClient = z.object({
  clientId: ZOAuthClientId,
  reason: z.string().max(500).optional().meta({ description: "Why, for the audit log and the console" }),
}).meta({ id: "BlockOAuthClient" });
export type TBlockClient = z.infer<typeof ZBlockClient>;

export const ZUnblockClient = z.object({ clientId: ZOAuthClientId }).meta({ id: "UnblockOAuthClient" });

export const ZOAuthClient = z.object({
  clientId: z.string(),
  kind: z.enum(["registered", "metadata_document"]).meta({ description: "Registered by dynamic client registration, or identified by its client ID metadata document's URL" }),
  name: z.string().meta({ description: "The registered client_name, or the document's URL" }),
  redirectUris: z.array(z.string()),
  registeredAt: z.string().nullable(),
  activeSessions: z.number().int().meta({ description: "Agent sessions its consents created that are neither revoked nor expired" }),
  lastUsedAt: z.string().nullable().meta({ description: "The latest use of any of its agent sessions" }),
  blocked: z.object({ blockedAt: z.string(), blockedBy: z.string().nullable(), reason: z.string().nullable() }).nullable(),
}).meta({ id: "OAuthClient" });
export type TOAuthClient = z.infer<typeof ZOAuthClient>;
export const ZOAuthClientList = z.array(ZOAuthClient).meta({ id: "OAuthClientList" });
export const ZBlockOutcome = z.object({
  clientId: z.string(),
  blocked: z.boolean(),
  revokedSessions: z.number().int().meta({ description: "Agent sessions of the client this call revoked (their tokens and grants with them)" }),
}).meta({ id: "OAuthClientBlockOutcome" });
export type TBlockOutcome = z.infer<typeof ZBlockOutcome>;
