// zod contracts of the REST API, shared by route handlers, the console and the OpenAPI document.
import { z } from "zod";
import { ZIsolation, ZProcessStats, ZTaskCredentials } from "./sandbox-schemas";
import { ROLES } from "./roles";
import { isValidBinName, isValidPackageName, isValidPackageRange } from "./package-name";
import { ZServerSummary } from "./server-summary";
import { ZToolExampleRequests } from "./tool-examples";
import { ZChangedDefinitionCalls, ZDefinitionReviewMode } from "./review-schemas";

export const ZRole = z.enum(ROLES).meta({ id: "Role" });

export const ZApiError = z
  .object({
    error: z.object({
      code: z.string().meta({ example: "validation_failed" }),
      message: z.string(),
      details: z.unknown().optional(),
    }),
  })
  .meta({ id: "Error" });
export type TApiError = z.infer<typeof ZApiError>;

export const ZEmail = z.string().trim().toLowerCase().pipe(z.email({ message: "must be an e-mail address" }));
export const ZPassword = z.string().min(8, "must have at least 8 characters").max(200);

export const ZUser = z
  .object({
    id: z.string(),
    email: z.string(),
    name: z.string().nullable(),
    role: ZRole,
    disabled: z.boolean(),
    createdAt: z.string().meta({ format: "date-time" }),
    lastLoginAt: z.string().meta({ format: "date-time" }).nullable(),
  })
  .meta({ id: "User" });
export type TUser = z.infer<typeof ZUser>;

export const ZCreateUser = z
  .object({
    email: ZEmail,
    name: z.string().trim().max(200).optional(),
    role: ZRole.default("USER"),
    password: ZPassword.optional().meta({ description: "Omit to generate one; it is returned once." }),
  })
  .strict()
  .meta({ id: "CreateUser" });
export type TCreateUser = z.input<typeof ZCreateUser>;

export const ZCreatedUser = z
  .object({ user: ZUser, generatedPassword: z.string().optional() })
  .meta({ id: "CreatedUser" });

export const ZUpdateUser = z
  .object({
    name: z.string().trim().max(200).nullable().optional(),
    role: ZRole.optional(),
    disabled: z.boolean().optional(),
    password: ZPassword.optional(),
  })
  .strict()
  .refine((v) => Object.keys(v).length > 0, "give at least one field to change")
  .meta({ id: "UpdateUser" });
export type TUpdateUser = z.infer<typeof ZUpdateUser>;

export const ZChangeOwnPassword = z
  .object({ currentPassword: z.string().min(1, "give your current password").max(200), newPassword: ZPassword })
  .strict()
  .meta({ id: "ChangeOwnPassword" });
export type TChangeOwnPassword = z.infer<typeof ZChangeOwnPassword>;

export const ZResetPassword = z
  .object({ password: ZPassword.optional().meta({ description: "Omit to generate one; it is returned once." }) })
  .strict()
  .meta({ id: "ResetPassword" });
export type TResetPassword = z.infer<typeof ZResetPassword>;

export const ZPasswordReset = z
  .object({ user: ZUser, generatedPassword: z.string().optional() })
  .meta({ id: "PasswordReset" });

export const ZApiToken = z
  .object({
    id: z.string(),
    name: z.string(),
    prefix: z.string(),
    createdAt: z.string().meta({ format: "date-time" }),
    lastUsedAt: z.string().meta({ format: "date-time" }).nullable(),
    expiresAt: z.string().meta({ format: "date-time" }).nullable(),
    revokedAt: z.string().meta({ format: "date-time" }).nullable(),
  })
  .meta({ id: "ApiToken" });
export type TApiToken = z.infer<typeof ZApiToken>;

export const ZCreateApiToken = z
  .object({
    name: z.string().trim().min(1).max(100).default("api"),
    expiresInDays: z.number().int().min(1).max(3650).optional(),
  })
  .strict()
  .meta({ id: "CreateApiToken" });

export const ZCreatedApiToken = z
  .object({ token: z.string().meta({ description: "Shown once; store it now." }), apiToken: ZApiToken })
  .meta({ id: "CreatedApiToken" });

export const ZPageQuery = z.object({
  limit: z.coerce.number().int().min(1).max(200).default(50),
  cursor: z.string().min(1).optional(),
});
export type TPageQuery = z.infer<typeof ZPageQuery>;

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f-\u009f]/;

/** The Users list: a page, optionally only the users whose e-mail or name contains `q` (any case). */
export const ZUserListQuery = ZPageQuery.extend({
  q: z
    .string()
    .trim()
    .max(254, { message: "is at most 254 characters" })
    .refine((q) => !LONE_SURROGATE.test(q), { message: "contains invalid Unicode (a lone surrogate)", params: { code: "search_invalid_unicode" } })
    .refine((q) => !CONTROL_CHARACTER.test(q), { message: "contains a control character", params: { code: "search_control_character" } })
    .optional(),
});
export type TUserListQuery = z.infer<typeof ZUserListQuery>;

export const page = <T extends z.ZodType>(item: T, id: string) =>
  z.object({ items: z.array(item), nextCursor: z.string().nullable() }).meta({ id });

export const ZUserPage = page(ZUser, "UserPage");
export const ZApiTokenList = z.object({ items: z.array(ZApiToken) }).meta({ id: "ApiTokenList" });

export const ZHealth = z
  .object({
    status: z.enum(["ok", "degraded"]),
    version: z.string(),
    database: z.object({ status: z.enum(["up", "down"]), latencyMs: z.number().nullable(), error: z.string().optional() }),
  })
  .meta({ id: "Health" });
export type THealth = z.infer<typeof ZHealth>;

/** GET /api/ready: whether this process should be sent traffic (server/health/readiness.ts). */
export const ZReadiness = z
  .object({
    status: z.enum(["ready", "not_ready", "draining"]),
    checks: z.object({ migrations: z.boolean(), database: z.boolean(), changeBus: z.boolean(), tasks: z.boolean(), upstreams: z.boolean() }),
  })
  .meta({ id: "Readiness" });
export type TReadiness = z.infer<typeof ZReadiness>;

export const ZMe = z.object({ user: ZUser, via: z.enum(["session", "api_token"]) }).meta({ id: "Me" });

// ───────────── servers and tools (registry) ─────────────

const SLUG_RE = /^[a-z0-9][a-z0-9-]{0,62}$/;
export const ZSlug = z.string().regex(SLUG_RE, "lower-case letters, digits and '-', starting with a letter or digit (max 63)");
export const ZTransport = z.enum(["stdio", "http", "sse", "npm", "pypi"]).meta({ id: "Transport" });
const PACKAGE_TRANSPORTS = ["npm", "pypi"] as const;
const isPackageTransport = (t: string): t is (typeof PACKAGE_TRANSPORTS)[number] => (PACKAGE_TRANSPORTS as readonly string[]).includes(t);

/** How long the gateway waits for a server's MCP handshake and tool list (an install has its own bound). */
export const ZConnectTimeoutMs = z.number().int().min(1000).max(600_000).meta({ description: "Milliseconds to wait for the MCP handshake and tool list; default 15000" });

/** The package of an npm or pypi server; its name and range are checked against the ecosystem in ZCreateServer. */
export const ZPackageSpec = z
  .object({
    name: z.string().min(1).max(214),
    version: z.string().min(1).max(200).default("latest").meta({ description: "A range, an exact version or a dist-tag; default latest" }),
    bin: z.string().refine(isValidBinName, "an executable name of the package").optional().meta({ description: "Which executable of the package, when it has several" }),
    args: z.array(z.string().max(4000)).max(100).default([]).meta({ description: "Arguments after the executable" }),
  })
  .strict()
  .meta({ id: "PackageSpec" });
export type TPackageSpec = z.input<typeof ZPackageSpec>;
export const ZServerStatus = z.enum(["CONNECTING", "HEALTHY", "DEGRADED", "DOWN", "DISABLED"]).meta({ id: "ServerStatus" });
export const ZRiskTier = z.enum(["LOW", "MEDIUM", "HIGH"]).meta({ id: "RiskTier" });

const ZStringMap = z.record(z.string().min(1).max(200), z.string().max(8000));

/** A per-minute call budget override; null clears it (the next level's value applies). */
const ZRateLimitOverride = z
  .number()
  .int()
  .min(1)
  .max(1_000_000)
  .nullable()
  .meta({ description: "Calls per minute across all sessions; null = no override" });

export const ZCreateServer = z
  .object({
    slug: ZSlug,
    name: z.string().trim().min(1).max(200),
    summary: ZServerSummary.optional(),
    transport: ZTransport,
    command: z.string().min(1).max(1000).optional(),
    args: z.array(z.string().max(4000)).max(100).default([]),
    env: ZStringMap.default({}),
    cwd: z.string().max(1000).optional(),
    url: z.url().optional(),
    headers: ZStringMap.default({}),
    timeoutMs: z.number().int().min(100).max(600_000).optional(),
    maxConcurrency: z.number().int().min(1).max(1000).optional(),
    enabled: z.boolean().default(true),
    isolation: ZIsolation.optional().meta({ description: "stdio servers: sandbox profile and limits; omitted = the safest profile this host supports" }),
    taskCredentials: ZTaskCredentials.nullable().optional().meta({ description: "stdio servers: one process per task with credentials minted for it" }),
    package: ZPackageSpec.optional().meta({ description: "npm and pypi servers: the package to install and run" }),
    connectTimeoutMs: ZConnectTimeoutMs.optional(),
    definitionReview: ZDefinitionReviewMode.optional(),
    changedDefinitionCalls: ZChangedDefinitionCalls.optional(),
  })
  .strict()
  .superRefine((v, ctx) => {
    const pkg = isPackageTransport(v.transport);
    if (v.transport === "stdio" && !v.command) ctx.addIssue({ code: "custom", path: ["command"], message: "stdio servers need a command" });
    if (!pkg && v.transport !== "stdio" && !v.url) ctx.addIssue({ code: "custom", path: ["url"], message: `${v.transport} servers need a url` });
    if (!pkg && v.transport !== "stdio" && (v.isolation || v.taskCredentials)) ctx.addIssue({ code: "custom", path: ["isolation"], message: "isolation and task credentials apply to stdio and package servers" });
    if (!pkg && v.package) ctx.addIssue({ code: "custom", path: ["package"], message: "a package applies to npm and pypi servers" });
    if (!isPackageTransport(v.transport)) return;
    if (!v.package) ctx.addIssue({ code: "custom", path: ["package"], message: `${v.transport} servers need a package` });
    if (v.taskCredentials) ctx.addIssue({ code: "custom", path: ["taskCredentials"], message: "per-task credentials apply to stdio servers" });
    if (v.command || v.url || v.args.length > 0) ctx.addIssue({ code: "custom", path: [v.url ? "url" : v.command ? "command" : "args"], message: `${v.transport} servers take package (name, version, bin, args) instead of command, args or url` });
    if (v.package && !isValidPackageName(v.transport, v.package.name)) {
      ctx.addIssue({ code: "custom", path: ["package", "name"], message: v.transport === "npm" ? "an npm package name (lower case, optionally @scope/name; no paths, URLs or options)" : "a PyPI project name (letters, digits, '.', '_', '-')" });
    }
    if (v.package && !isValidPackageRange(v.transport, v.package.version)) {
      ctx.addIssue({ code: "custom", path: ["package", "version"], message: v.transport === "npm" ? "a version, a semver range or a dist-tag (no file:, git, URLs or aliases)" : "a PEP 440 version or specifier (==1.2.3, >=1,<2)" });
    }
  })
  .meta({ id: "CreateServer" });
export type TCreateServer = z.input<typeof ZCreateServer>;

export const ZUpdateServer = z
  .object({
    name: z.string().trim().min(1).max(200).optional(),
    summary: ZServerSummary.nullable().optional(),
    enabled: z.boolean().optional(),
    command: z.string().min(1).max(1000).optional(),
    args: z.array(z.string().max(4000)).max(100).optional(),
    env: ZStringMap.optional(),
    cwd: z.string().max(1000).nullable().optional(),
    url: z.url().optional(),
    headers: ZStringMap.optional(),
    isolation: ZIsolation.optional(),
    taskCredentials: ZTaskCredentials.nullable().optional(),
    timeoutMs: z.number().int().min(100).max(600_000).optional(),
    maxConcurrency: z.number().int().min(1).max(1000).optional(),
    connectTimeoutMs: ZConnectTimeoutMs.optional(),
    rateLimitPerMinute: ZRateLimitOverride.optional().meta({
      description: "Calls per minute to each of its tools (all sessions together), unless the tool sets its own; null = the gateway default",
    }),
    /** Launch-field changes start a canary version instead of replacing the active one. */
    asCanary: z.boolean().optional(),
    canaryPercent: z.number().int().min(0).max(100).optional(),
    action: z.enum(["promote", "rollback", "restart"]).optional(),
    definitionReview: ZDefinitionReviewMode.optional(),
    changedDefinitionCalls: ZChangedDefinitionCalls.optional(),
  })
  .strict()
  .refine((v) => Object.keys(v).length > 0, "give at least one field to change")
  .meta({ id: "UpdateServer" });
export type TUpdateServer = z.input<typeof ZUpdateServer>;

export const ZToolSummary = z
  .object({
    name: z.string().meta({ description: "Gateway name: <server-slug>__<tool>" }),
    tool: z.string(),
    server: z.string(),
    title: z.string().nullable(),
    description: z.string().nullable(),
    inputSchema: z.record(z.string(), z.unknown()),
    outputSchema: z.record(z.string(), z.unknown()).nullable(),
    annotations: z.record(z.string(), z.unknown()).nullable(),
    enabled: z.boolean(),
    strict: z.boolean(),
    riskTier: ZRiskTier,
    timeoutMs: z.number().int().nullable(),
    rateLimitPerMinute: z.number().int().nullable().meta({ description: "The tool's own override; null = its server's, else the gateway default" }),
    async: z.boolean().meta({ description: "Always run as a durable task" }),
    requiredApprovals: z.number().int().meta({ description: "Approvers who must say yes to a HIGH-tier call (1 or 2)" }),
    exampleRequests: z.array(z.string()).meta({ description: "Requests an agent might word for this tool, written by an admin; search_tools finds the tool by them" }),
    shippedExampleRequests: z.array(z.string()).meta({
      description: "Requests that ship with Portcullis for exactly this definition of a well-known package's tool; search_tools uses them while exampleRequests is empty",
    }),
    lintFindings: z.array(z.object({ rule: z.string(), severity: z.string(), path: z.string(), message: z.string() })),
    removed: z.boolean(),
  })
  .meta({ id: "Tool" });
export type TToolSummary = z.infer<typeof ZToolSummary>;

export const ZServerPhase = z.enum(["installing", "starting", "initializing", "listing_tools"]).meta({ id: "ServerPhase" });
export type TServerPhase = z.infer<typeof ZServerPhase>;

export const ZServerPackage = z
  .object({
    ecosystem: z.enum(PACKAGE_TRANSPORTS),
    name: z.string(),
    range: z.string().meta({ description: "What the admin asked for (range, version or dist-tag)" }),
    version: z.string().nullable().meta({ description: "The exact version it resolved to" }),
    integrity: z.string().nullable().meta({ description: "The package's integrity hash from the registry and the install's lockfile" }),
    installedAt: z.string().nullable(),
    bin: z.string().nullable(),
    args: z.array(z.string()),
  })
  .meta({ id: "ServerPackage" });
export type TServerPackage = z.infer<typeof ZServerPackage>;

/** How a listed server is reached: a registrable transport, or `builtin` for the gateway's own tools (slug portcullis). */
export const ZServerTransport = z.enum([...ZTransport.options, "builtin"]).meta({ id: "ServerTransport" });

export const ZServer = z
  .object({
    id: z.string(),
    slug: z.string(),
    name: z.string(),
    summary: z.string().nullable().meta({ description: "The admin's one line for agents browsing the catalog; null = derived from the server's instructions, else its tool names" }),
    transport: ZServerTransport,
    command: z.string().nullable(),
    args: z.array(z.string()),
    envKeys: z.array(z.string()).meta({ description: "Names only: values may hold secrets" }),
    cwd: z.string().nullable(),
    url: z.string().nullable(),
    headerKeys: z.array(z.string()),
    isolation: ZIsolation.nullable().meta({ description: "stdio servers: how the process is sandboxed; null for HTTP servers" }),
    taskCredentials: ZTaskCredentials.nullable(),
    process: ZProcessStats.nullable().meta({ description: "The running process's use, as sampled by the gateway process that answered" }),
    enabled: z.boolean(),
    status: ZServerStatus,
    lastError: z.string().nullable(),
    latencyMs: z.number().nullable(),
    timeoutMs: z.number().int(),
    connectTimeoutMs: z.number().int(),
    package: ZServerPackage.nullable().meta({ description: "npm and pypi servers: the package as installed; null for others" }),
    phase: ZServerPhase.nullable().meta({ description: "What the gateway is doing to bring the server up; null when connected or down" }),
    maxConcurrency: z.number().int(),
    rateLimitPerMinute: z.number().int().nullable().meta({ description: "Default calls per minute for each of its tools; null = the gateway default" }),
    activeVersion: z.string().nullable(),
    canaryVersion: z.string().nullable(),
    canaryPercent: z.number().int(),
    definitionReview: ZDefinitionReviewMode,
    changedDefinitionCalls: ZChangedDefinitionCalls,
    /** Definitions of this server waiting for an admin's review. */
    pendingReviews: z.number().int(),
    toolCount: z.number().int(),
    calls: z
      .object({ count: z.number().int(), errors: z.number().int(), p50Ms: z.number().nullable() })
      .meta({ description: "Tool calls through the gateway in the last hour: count, failed, median duration" }),
    createdAt: z.string(),
  })
  .meta({ id: "Server" });
export type TServer = z.infer<typeof ZServer>;

/** Advice with a created server: a stdio command that only runs a registry package could be a package server. */
export const ZServerHint = z
  .object({
    code: z.literal("package_command"),
    message: z.string(),
    package: z.object({ ecosystem: z.enum(PACKAGE_TRANSPORTS), name: z.string(), version: z.string(), bin: z.string().optional(), args: z.array(z.string()) }),
  })
  .meta({ id: "ServerHint" });
export type TServerHint = z.infer<typeof ZServerHint>;

export const ZServerWithTools = z
  .object({ server: ZServer, tools: z.array(ZToolSummary), hints: z.array(ZServerHint).optional().meta({ description: "On create only" }) })
  .meta({ id: "ServerWithTools" });

export const ZPackageLatest = z
  .object({
    current: z.string().nullable().meta({ description: "The version the active server version runs" }),
    latest: z.string().meta({ description: "What the server's range resolves to in the registry now" }),
    range: z.string(),
  })
  .meta({ id: "PackageLatest" });
export type TPackageLatest = z.infer<typeof ZPackageLatest>;

export const ZPackageUpgrade = z
  .object({ version: z.string().min(1).max(200).optional().meta({ description: "An exact version; default the newest in the server's range" }) })
  .strict()
  .meta({ id: "PackageUpgrade" });
export type TPackageUpgrade = z.input<typeof ZPackageUpgrade>;

export const ZPackageUpgraded = z
  .object({ from: z.string().nullable(), to: z.string(), versionId: z.string().meta({ description: "The canary server version; promote or roll back through PATCH" }) })
  .meta({ id: "PackageUpgraded" });
export type TPackageUpgraded = z.infer<typeof ZPackageUpgraded>;
export type TServerWithTools = z.infer<typeof ZServerWithTools>;

/** What the serving (active) version of a server offers besides tools, and where agents reach it. */
export const ZServerOfferings = z
  .object({
    version: z.string().nullable(),
    endpoints: z.object({
      aggregate: z.string().meta({ description: "All servers: tools and prompts as <server>__<name>" }),
      transparent: z.string().meta({ description: "This server alone, with its own names" }),
    }),
    resources: z.array(z.object({ uri: z.string(), name: z.string(), description: z.string().optional(), mimeType: z.string().optional() })),
    resourceTemplates: z.array(z.object({ uriTemplate: z.string(), name: z.string(), description: z.string().optional() })),
    prompts: z.array(
      z.object({
        name: z.string(),
        description: z.string().optional(),
        arguments: z.array(z.object({ name: z.string(), description: z.string().optional(), required: z.boolean().optional() })),
      }),
    ),
  })
  .meta({ id: "ServerOfferings" });
export type TServerOfferings = z.infer<typeof ZServerOfferings>;

export const ZServerVersionList = z
  .object({
    items: z.array(
      z.object({
        id: z.string(),
        version: z.string(),
        contentHash: z.string(),
        diff: z.unknown().meta({ description: "What changed against the previous version (tools, resources, templates, prompts)" }),
        createdAt: z.string(),
        activatedAt: z.string().nullable(),
        active: z.boolean(),
        canary: z.boolean(),
      }),
    ),
  })
  .meta({ id: "ServerVersionList" });
export const ZServerList = z.object({ items: z.array(ZServer) }).meta({ id: "ServerList" });
export const ZToolList = z
  .object({
    items: z.array(ZToolSummary),
    nearDuplicates: z.array(z.object({ a: z.string(), b: z.string(), score: z.number(), reason: z.string() })),
  })
  .meta({ id: "ToolList" });

export const ZUpdateTool = z
  .object({
    enabled: z.boolean().optional(),
    strict: z.boolean().optional(),
    timeoutMs: z.number().int().min(100).max(600_000).nullable().optional(),
    rateLimitPerMinute: ZRateLimitOverride.optional().meta({
      description: "Calls per minute to this tool (all sessions together); null = its server's, else the gateway default",
    }),
    riskTier: ZRiskTier.optional(),
    async: z.boolean().optional().meta({ description: "Always run as a task: the call is answered with a task id at once" }),
    requiredApprovals: z.number().int().min(1).max(2).optional().meta({ description: "2 = a HIGH-tier call needs a second approver" }),
    exampleRequests: ZToolExampleRequests.optional(),
  })
  .strict()
  .refine((v) => Object.keys(v).length > 0, "give at least one field to change")
  .meta({ id: "UpdateTool" });
export type TUpdateTool = z.infer<typeof ZUpdateTool>;

export const ZToolCallRequest = z
  .object({ arguments: z.record(z.string(), z.unknown()).default({}) })
  .strict()
  .meta({ id: "ToolCallRequest" });
export const ZToolCallResult = z
  .object({
    content: z.array(z.record(z.string(), z.unknown())),
    structuredContent: z.record(z.string(), z.unknown()).optional(),
    isError: z.boolean().optional(),
    _meta: z.record(z.string(), z.unknown()).optional(),
  })
  .meta({ id: "ToolCallResult", description: "An MCP CallToolResult" });
