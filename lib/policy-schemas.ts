// Contracts of least privilege: agent sessions, grants, parameter rules, policy history and the simulator.
// Shared by the REST routes (server-side parsing) and the console (live validation in the editors).
import { z } from "zod";
import { ZPageQuery, ZRiskTier, ZRole } from "./schemas";

/** The longest agent id a session may have (an OAuth client's is fitted to it: server/oauth/oauth-session.ts). */
export const AGENT_ID_MAX = 100;

// ── agent sessions ────────────────────────────────────────────────────────────────────────────────────

/** A tool whitelist entry: an exact gateway name (`orders__query_orders`) or a pattern with `*` / `?`. */
export const ZToolPattern = z
  .string()
  .trim()
  .min(1)
  .max(200)
  .regex(/^[\x21-\x7e]+$/, "printable ASCII without spaces: a tool name or a pattern such as orders__query_*");
/** The whitelist grammar, shown in the OpenAPI document wherever an entry is given. */
export const PATH_ENTRY_GRAMMAR =
  "A path whitelist entry is one of: `*` (every path and URI); an absolute POSIX path such as `/srv/data` (that directory and everything below it, by whole segments: not `/srv/database`; a trailing `/` changes nothing; symlinks are resolved); a `file:` URI of a local path (`file:///srv/data/` is the path `/srv/data`); a URI prefix `scheme://authority/path` (URIs of that scheme and authority whose path lies below it by whole segments: `orders://order/ORD-1` covers `orders://order/ORD-1/lines`, not `orders://order/ORD-12`); `scheme://authority` or `scheme://authority/` (every URI of that authority); `scheme://` (every `scheme://…` URI, whatever its authority); or `scheme:` (every URI of the scheme). `*` has no meaning inside an entry: `/srv/*` is the literal path. Schemes and authorities are matched case-insensitively; percent-escapes are normalized; `..` may not climb above the root.";

/** A resource-path whitelist entry: an absolute path, a URI prefix (`orders://order/`), or `*` (grammar above). */
export const ZPathEntry = z.string().trim().min(1).max(1000).meta({ description: PATH_ENTRY_GRAMMAR });

export const ZCreateSession = z
  .object({
    agentId: z.string().trim().min(1).max(AGENT_ID_MAX).meta({ description: "Who the agent is, e.g. claude-desktop or ci-bot" }),
    tools: z.array(ZToolPattern).min(1).max(200).meta({ description: "Tool names or patterns (orders__query_*); the session gets those its user holds" }),
    paths: z.array(ZPathEntry).max(200).default([]).meta({ description: `Path and URI prefixes for path rules and resource reads. ${PATH_ENTRY_GRAMMAR}` }),
    ttlSeconds: z.number().int().min(60).optional().meta({ description: "Lifetime; default 3600, at most the admin's maximum" }),
    callbackUrl: z
      .url({ protocol: /^https?$/, error: "must be an http:// or https:// URL" })
      .trim()
      .max(2000)
      .optional()
      .meta({
        description:
          "Where Portcullis POSTs task.completed webhooks when the session's tasks finish, signed with the callbackSecret returned once. The host must resolve to public addresses: loopback, private (RFC 1918, 100.64/10, fc00::/7), link-local (169.254/16 incl. cloud metadata, fe80::/10), unspecified and multicast addresses, in any spelling, are refused with 422 outbound_url_refused unless an admin lists the host in OUTBOUND_ALLOWED_HOSTS. Checked again at every send; redirects are not followed.",
      }),
    virtualServer: z
      .string()
      .min(1)
      .max(63)
      .optional()
      .meta({ description: "Scope the session to this virtual server: it is served only at /mcp/v/<name>, and sees that server's members its whitelist allows (422 unknown_virtual_server when there is none)" }),
  })
  .strict()
  .meta({ id: "CreateSession" });
export type TCreateSession = z.input<typeof ZCreateSession>;

export const ZSessionStatus = z.enum(["active", "expired", "revoked"]).meta({ id: "SessionStatus" });

export const ZAgentSession = z
  .object({
    id: z.string(),
    agentId: z.string(),
    userId: z.string(),
    userEmail: z.string(),
    prefix: z.string(),
    tools: z.array(z.string()),
    paths: z.array(z.string()),
    status: ZSessionStatus,
    expiresAt: z.string(),
    revokedAt: z.string().nullable(),
    lastUsedAt: z.string().nullable(),
    callbackUrl: z.string().nullable().meta({ description: "Where task webhooks go; null when none was registered" }),
    virtualServerId: z.string().nullable().meta({ description: "The virtual server the session is scoped to (null: every endpoint)" }),
    createdAt: z.string(),
  })
  .meta({ id: "AgentSession" });
export type TAgentSession = z.infer<typeof ZAgentSession>;

export const ZCreatedSession = z
  .object({
    id: z.string(),
    token: z.string().meta({ description: "The agent session token (pcs_…), shown once" }),
    agentId: z.string(),
    expiresAt: z.string(),
    tools: z.array(z.string()),
    paths: z.array(z.string()),
    /** What was asked but not granted (the user does not hold it). */
    dropped: z.object({ tools: z.array(z.string()), paths: z.array(z.string()) }),
    callbackUrl: z.string().nullable(),
    callbackSecret: z.string().nullable().meta({ description: "Signs task webhooks (HMAC-SHA256); shown once" }),
    virtualServer: z.string().nullable().optional().meta({ description: "The virtual server the session is scoped to: it connects at /mcp/v/<name> only" }),
  })
  .meta({ id: "CreatedSession" });
export type TCreatedSession = z.infer<typeof ZCreatedSession>;

export const ZAgentSessionList = z.object({ items: z.array(ZAgentSession) }).meta({ id: "AgentSessionList" });

export const ZSessionSettings = z
  .object({
    defaultTtlSeconds: z.number().int().min(60).max(30 * 86400),
    maxTtlSeconds: z.number().int().min(60).max(30 * 86400),
  })
  .strict()
  .refine((s) => s.defaultTtlSeconds <= s.maxTtlSeconds, { message: "the default lifetime cannot exceed the maximum", path: ["defaultTtlSeconds"] })
  .meta({ id: "SessionSettings" });
export type TSessionSettings = z.infer<typeof ZSessionSettings>;

// ── grants ─────────────────────────────────────────────────────────────────────────────────────────────

export const ZGrantKind = z.enum(["tool", "path"]).meta({ id: "GrantKind" });

export const ZCreateGrant = z
  .object({
    kind: ZGrantKind,
    pattern: z.string().trim().min(1).max(1000).meta({ description: `A tool grant: a gateway tool name or a pattern (\`*\` any run of characters, \`?\` one). A path grant: ${PATH_ENTRY_GRAMMAR}` }),
    role: ZRole.optional(),
    userId: z.string().min(1).optional(),
  })
  .strict()
  .refine((g) => (g.role === undefined) !== (g.userId === undefined), { message: "give exactly one of role and userId", path: ["role"] })
  .refine((g) => g.kind === "path" || ZToolPattern.safeParse(g.pattern).success, { message: "a tool grant is a tool name or a pattern such as orders__*", path: ["pattern"] })
  .meta({ id: "CreateGrant" });
export type TCreateGrant = z.input<typeof ZCreateGrant>;

export const ZGrant = z
  .object({
    id: z.string(),
    kind: ZGrantKind,
    pattern: z.string(),
    role: ZRole.nullable(),
    userId: z.string().nullable(),
    userEmail: z.string().nullable(),
    createdAt: z.string(),
  })
  .meta({ id: "Grant" });
export type TGrant = z.infer<typeof ZGrant>;
export const ZGrantList = z.object({ items: z.array(ZGrant) }).meta({ id: "GrantList" });

export const ZEffectiveGrant = z
  .object({
    userId: z.string(),
    role: ZRole,
    tools: z.array(z.object({ pattern: z.string(), from: z.string().meta({ description: "role:<ROLE> or user" }) })),
    paths: z.array(z.object({ pattern: z.string(), from: z.string() })),
    /** The enabled tools the user may call now (gateway names). */
    callableTools: z.array(z.string()),
  })
  .meta({ id: "EffectiveGrant" });
export type TEffectiveGrant = z.infer<typeof ZEffectiveGrant>;

// ── parameter rules ────────────────────────────────────────────────────────────────────────────────────

const ZArgument = z
  .string()
  .trim()
  .min(1)
  .max(200)
  .meta({ description: "The argument the rule checks: a top-level name, or a dotted path into an object (filter.limit)" });

const ZRulePath = z.object({ kind: z.literal("path"), argument: ZArgument }).strict();
const ZRuleSql = z
  .object({
    kind: z.literal("sql_readonly"),
    argument: ZArgument,
    deniedFunctions: z.array(z.string().trim().min(1).max(100)).max(100).optional().meta({ description: "More functions to refuse besides the built-in denylist" }),
  })
  .strict();
const isRegex = (s: string) => {
  try {
    new RegExp(s, "u");
    return true;
  } catch {
    return false;
  }
};
const ZRuleValue = z
  .object({
    kind: z.literal("value"),
    argument: ZArgument,
    enum: z.array(z.union([z.string(), z.number(), z.boolean()])).min(1).max(500).optional(),
    min: z.number().optional(),
    max: z.number().optional(),
    pattern: z.string().min(1).max(500).refine(isRegex, "not a valid regular expression").optional().meta({ description: "Regular expression the whole value must match" }),
    maxLength: z.number().int().min(0).optional(),
  })
  .strict()
  .refine((r) => r.enum !== undefined || r.min !== undefined || r.max !== undefined || r.pattern !== undefined || r.maxLength !== undefined, {
    message: "give at least one constraint: enum, min, max, pattern or maxLength",
  })
  .refine((r) => r.min === undefined || r.max === undefined || r.min <= r.max, { message: "min cannot exceed max", path: ["min"] });
const ZRuleRowCap = z.object({ kind: z.literal("row_cap"), argument: ZArgument, max: z.number().int().min(1) }).strict();

export const ZCreateRule = z.discriminatedUnion("kind", [ZRulePath, ZRuleSql, ZRuleValue, ZRuleRowCap]).meta({ id: "CreateRule" });
export type TCreateRule = z.input<typeof ZCreateRule>;
export type TRuleSpec = z.infer<typeof ZCreateRule>;
export const RULE_KINDS = ["path", "sql_readonly", "value", "row_cap"] as const;
export type TRuleKind = (typeof RULE_KINDS)[number];

export const ZRule = z
  .object({
    id: z.string(),
    tool: z.string(),
    kind: z.enum(RULE_KINDS),
    argument: z.string(),
    config: z.record(z.string(), z.unknown()),
    enabled: z.boolean(),
    createdAt: z.string(),
  })
  .meta({ id: "Rule" });
export type TRule = z.infer<typeof ZRule>;
export const ZRuleList = z.object({ items: z.array(ZRule) }).meta({ id: "RuleList" });

// ── policy overview, bulk tiers, history, simulator ────────────────────────────────────────────────────

export const ZPolicyTool = z
  .object({
    name: z.string(),
    serverSlug: z.string(),
    title: z.string().nullable(),
    riskTier: ZRiskTier,
    tierOverride: z.boolean(),
    enabled: z.boolean(),
    ruleCount: z.number().int(),
  })
  .meta({ id: "PolicyTool" });
export type TPolicyTool = z.infer<typeof ZPolicyTool>;
export const ZPolicyToolList = z.object({ items: z.array(ZPolicyTool) }).meta({ id: "PolicyToolList" });

export const ZBulkTier = z
  .object({ tools: z.array(z.string().min(1)).min(1).max(1000), riskTier: ZRiskTier })
  .strict()
  .meta({ id: "BulkTier" });
export type TBulkTier = z.infer<typeof ZBulkTier>;

export const ZPolicyChange = z
  .object({
    id: z.string(),
    entityType: z.enum(["tool_tier", "rule", "grant"]),
    entityId: z.string(),
    tool: z.string().nullable(),
    action: z.enum(["created", "updated", "deleted"]),
    before: z.unknown(),
    after: z.unknown(),
    authorEmail: z.string().nullable(),
    revertOf: z.string().nullable(),
    createdAt: z.string(),
    summary: z.string(),
  })
  .meta({ id: "PolicyChange" });
export type TPolicyChange = z.infer<typeof ZPolicyChange>;
export const ZPolicyChangePage = z.object({ items: z.array(ZPolicyChange), nextCursor: z.string().nullable() }).meta({ id: "PolicyChangePage" });

export const ZSimulateRequest = z
  .object({
    tool: z.string().min(1),
    arguments: z.record(z.string(), z.unknown()).default({}),
    sessionId: z.string().min(1).optional().meta({ description: "An agent session: its whitelist and paths apply" }),
    userId: z.string().min(1).optional().meta({ description: "A user: what the user holds applies (as a session asking for everything)" }),
  })
  .strict()
  .refine((s) => (s.sessionId === undefined) !== (s.userId === undefined), { message: "give exactly one of sessionId and userId", path: ["sessionId"] })
  .meta({ id: "SimulateRequest" });
export type TSimulateRequest = z.input<typeof ZSimulateRequest>;

export const POLICY_STEPS = ["whitelist", "tier", "rule", "schema", "allow"] as const;
export const ZDecision = z
  .object({
    decision: z.enum(["allow", "deny", "require_approval"]),
    step: z.enum(POLICY_STEPS).meta({ description: "The step that decided" }),
    code: z.string().nullable(),
    reason: z.string(),
    ruleId: z.string().nullable(),
    /** The arguments as they would reach the upstream (row caps applied). */
    arguments: z.record(z.string(), z.unknown()),
  })
  .meta({ id: "Decision" });
export type TDecision = z.infer<typeof ZDecision>;

/** GET /api/v1/grants: one role's or one user's grants (both, or neither: every grant). */
export const ZGrantQuery = z.object({ role: ZRole.optional(), userId: z.string().min(1).optional() });
/** GET /api/v1/policy/history */
export const ZPolicyHistoryQuery = ZPageQuery.extend({ tool: z.string().min(1).optional() });
/** GET /api/v1/sessions: all=1 lists every user's sessions (admins). */
export const ZSessionListQuery = z.object({ all: z.enum(["1", "0"]).optional() });
