// Every REST operation, described once; the OpenAPI document is generated from this table.
import type { z } from "zod";
import type { TRole } from "./roles";
import { ZPackageLatest, ZPackageUpgrade, ZPackageUpgraded } from "./schemas";
import { ZWebhookDeliveryList } from "./webhook-schemas";
import { ZCodeRun, ZCodeRunResult, ZCodeTypes } from "./codemode-schemas";
import { ZApproveDefinitions, ZDefinitionReview, ZDefinitionReviewList, ZRejectDefinitions } from "./review-schemas";
import {
  ZApiTokenList,
  ZApiToken,
  ZCreateApiToken,
  ZCreatedApiToken,
  ZCreatedUser,
  ZCreateUser,
  ZCreateServer,
  ZServer,
  ZServerList,
  ZServerWithTools,
  ZServerOfferings,
  ZServerVersionList,
  ZToolList,
  ZToolSummary,
  ZUpdateServer,
  ZUpdateTool,
  ZToolCallRequest,
  ZToolCallResult,
  ZHealth,
  ZReadiness,
  ZMe,
  ZUpdateUser,
  ZUser,
  ZChangeOwnPassword,
  ZResetPassword,
  ZPasswordReset,
  ZUserPage,
} from "./schemas";
import {
  ZAgentSession,
  ZAgentSessionList,
  ZBulkTier,
  ZCreatedSession,
  ZCreateGrant,
  ZCreateRule,
  ZCreateSession,
  ZDecision,
  ZEffectiveGrant,
  ZGrant,
  ZGrantList,
  ZPolicyChange,
  ZPolicyChangePage,
  ZPolicyToolList,
  ZRule,
  ZRuleList,
  ZSessionSettings,
  ZSimulateRequest,
} from "./policy-schemas";
import { ZTask, ZTaskDetail, ZTaskPage } from "./task-schemas";
import { ZRedactionPreview, ZRedactionPreviewInput, ZRedactionSettings } from "./redaction-schemas";
import { AUDIT_COUNT_TIMEOUT_MS, AUDIT_EXACT_COUNT_LIMIT, ZAuditEvent, ZAuditEventDetail, ZAuditPage } from "./audit-schemas";
import { ZDashboard } from "./dashboard-schemas";
import { ZApprovalDecisionInput, ZApprovalDetail, ZApprovalPage, ZApprovalReveal } from "./approval-schemas";
import { APPROVAL_EVENTS_PING_MS, ZApprovalEvent } from "./approval-events";
import { TASK_EVENTS_PING_MS, ZTaskChange } from "./task-events";
import { ZToolPolicy } from "./tool-policy-schemas";
import { ZPutSecret, ZSecret, ZSecretList } from "./secret-schemas";
import { ZSandboxSupport } from "./sandbox-schemas";
import { ZServerLogs } from "./server-logs-schemas";
import { ZBlockClient, ZBlockOutcome, ZConsentDecision, ZConsentResult, ZKeyRotation, ZOAuthClientList, ZUnblockClient } from "./oauth-schemas";
import { ZCreateVirtualServer, ZUpdateVirtualServer, ZVirtualServer, ZVirtualServerList } from "./virtual-server-schemas";
import { ZAuthorizationUrl, ZConnectionList, ZNoContent, ZPutServerAuth, ZServerAuth, ZServerConnectionList } from "./upstream-auth-schemas";

export type Operation = {
  method: "get" | "post" | "patch" | "put" | "delete";
  path: string;
  summary: string;
  tag: string;
  /** Minimum role; null for public operations. */
  role: TRole | null;
  body?: z.ZodType;
  query?: Record<string, { description: string; type: "string" | "integer" }>;
  /** `contentType` for a response that is not JSON: a Server-Sent Events stream describes its events' data with `schema`. */
  response: { status: number; schema: z.ZodType; contentType?: "text/event-stream" | "text/csv"; description?: string };
  errors: number[];
};

const page = { limit: { description: "Page size (1–200, default 50)", type: "integer" }, cursor: { description: "nextCursor of the previous page", type: "string" } } as const;

const auditFilter = {
  user: { description: "User e-mail (any case) or id", type: "string" },
  agent: { description: "Agent id", type: "string" },
  session: { description: "Agent session id", type: "string" },
  tool: { description: "Gateway tool name <server>__<tool>, exact, or a prefix ending in * (orders__*)", type: "string" },
  server: { description: "Upstream server slug", type: "string" },
  status: { description: "One or several, comma-separated: ok, error, denied, held", type: "string" },
  decision: { description: "One or several, comma-separated: allow, deny, require_approval", type: "string" },
  category: { description: "One or several, comma-separated: gateway, security, admin, system", type: "string" },
  action: { description: "Event action, exact (tool.called) or a prefix ending in * (approval.*)", type: "string" },
  from: { description: "At or after (ISO 8601 with offset)", type: "string" },
  to: { description: "Before (ISO 8601 with offset)", type: "string" },
  q: { description: "Case-insensitive text in the tool name, the redacted arguments (JSON) or the reason", type: "string" },
  sort: { description: "-occurredAt (default, newest first), occurredAt, or -durationMs (slowest first)", type: "string" },
} as const;

export const OPERATIONS: Operation[] = [
  { method: "get", path: "/api/health", summary: "Version and database status", tag: "health", role: null, response: { status: 200, schema: ZHealth }, errors: [503] },
  { method: "get", path: "/api/ready", summary: "Whether this process should be sent traffic (readiness probe)", tag: "health", role: null, response: { status: 200, schema: ZReadiness }, errors: [503] },
  { method: "get", path: "/api/v1/me", summary: "The caller", tag: "auth", role: "USER", response: { status: 200, schema: ZMe }, errors: [401] },
  { method: "post", path: "/api/v1/me/password", summary: "Change one's own password (the current one required; a wrong one counts as a failed sign-in). Console sessions signed in before end", tag: "auth", role: "USER", body: ZChangeOwnPassword, response: { status: 200, schema: ZUser }, errors: [400, 401, 422, 429] },
  { method: "get", path: "/api/v1/users", summary: "List users, oldest first; q: only those whose e-mail or name contains it (any case)", tag: "users", role: "ADMIN", query: { ...page, q: { description: "Text the e-mail or name contains, any case (at most 254 characters, no control characters)", type: "string" } }, response: { status: 200, schema: ZUserPage }, errors: [401, 403, 422] },
  { method: "post", path: "/api/v1/users", summary: "Create a user (a generated password is returned once)", tag: "users", role: "ADMIN", body: ZCreateUser, response: { status: 201, schema: ZCreatedUser }, errors: [400, 401, 403, 409, 422] },
  { method: "get", path: "/api/v1/users/{id}", summary: "One user", tag: "users", role: "ADMIN", response: { status: 200, schema: ZUser }, errors: [401, 403, 404] },
  { method: "patch", path: "/api/v1/users/{id}", summary: "Change a user's name, role, password or disabled flag", tag: "users", role: "ADMIN", body: ZUpdateUser, response: { status: 200, schema: ZUser }, errors: [400, 401, 403, 404, 409, 422] },
  { method: "post", path: "/api/v1/users/{id}/password", summary: "Set a user's password, or generate one returned once; clears their failed sign-ins and ends their console sessions", tag: "users", role: "ADMIN", body: ZResetPassword, response: { status: 200, schema: ZPasswordReset }, errors: [400, 401, 403, 404, 422] },
  { method: "get", path: "/api/v1/tokens", summary: "The caller's personal API tokens", tag: "tokens", role: "USER", response: { status: 200, schema: ZApiTokenList }, errors: [401] },
  { method: "post", path: "/api/v1/tokens", summary: "Mint a personal API token (shown once)", tag: "tokens", role: "USER", body: ZCreateApiToken, response: { status: 201, schema: ZCreatedApiToken }, errors: [400, 401, 422] },
  { method: "get", path: "/api/v1/servers", summary: "List upstream MCP servers", tag: "servers", role: "ADMIN", response: { status: 200, schema: ZServerList }, errors: [401, 403] },
  { method: "post", path: "/api/v1/servers", summary: "Register an upstream server (stdio, HTTP, SSE, or an npm package installed once); answers with the tools discovered, and hints for a stdio command that only runs a package", tag: "servers", role: "ADMIN", body: ZCreateServer, response: { status: 201, schema: ZServerWithTools }, errors: [400, 401, 403, 409, 422, 502] },
  { method: "get", path: "/api/v1/servers/{slug}", summary: "A server and its tools", tag: "servers", role: "ADMIN", response: { status: 200, schema: ZServerWithTools }, errors: [401, 403, 404] },
  { method: "patch", path: "/api/v1/servers/{slug}", summary: "Change a server: enable/disable, launch settings (optionally as a canary), rate limit, canary share, promote, roll back, restart", tag: "servers", role: "ADMIN", body: ZUpdateServer, response: { status: 200, schema: ZServerWithTools }, errors: [400, 401, 403, 404, 409, 422] },
  { method: "delete", path: "/api/v1/servers/{slug}", summary: "Remove a server; its tools disappear at once", tag: "servers", role: "ADMIN", response: { status: 200, schema: ZServer }, errors: [401, 403, 404] },
  { method: "get", path: "/api/v1/servers/{slug}/versions", summary: "A server's versions with their diffs, newest first", tag: "servers", role: "ADMIN", response: { status: 200, schema: ZServerVersionList }, errors: [401, 403, 404] },
  { method: "get", path: "/api/v1/reviews", summary: "Every server's definitions waiting for review (pinned tool definitions), newest first", tag: "servers", role: "ADMIN", response: { status: 200, schema: ZDefinitionReviewList }, errors: [401, 403] },
  { method: "get", path: "/api/v1/servers/{slug}/reviews", summary: "The server's definitions waiting for review, newest first", tag: "servers", role: "ADMIN", response: { status: 200, schema: ZDefinitionReviewList }, errors: [401, 403, 404] },
  { method: "get", path: "/api/v1/servers/{slug}/reviews/{id}", summary: "One version as a review: its diff against the active version, word diffs of changed descriptions and titles, the poisoning scanner's findings", tag: "servers", role: "ADMIN", response: { status: 200, schema: ZDefinitionReview }, errors: [401, 403, 404] },
  { method: "post", path: "/api/v1/servers/{slug}/reviews/{id}/approve", summary: "Approve definitions waiting for review: they serve as the active version (or the canary); high-severity findings need overrideReason (audited)", tag: "servers", role: "ADMIN", body: ZApproveDefinitions, response: { status: 200, schema: ZDefinitionReview }, errors: [400, 401, 403, 404, 409, 422] },
  { method: "post", path: "/api/v1/servers/{slug}/reviews/{id}/reject", summary: "Reject definitions waiting for review: they never serve; calls of the changed tools stay refused (tool_definition_changed)", tag: "servers", role: "ADMIN", body: ZRejectDefinitions, response: { status: 200, schema: ZDefinitionReview }, errors: [400, 401, 403, 404, 409, 422] },
  { method: "get", path: "/api/v1/servers/{slug}/offerings", summary: "The resources, resource templates and prompts of the serving version, and the MCP endpoints that reach them", tag: "servers", role: "ADMIN", response: { status: 200, schema: ZServerOfferings }, errors: [401, 403, 404] },
  { method: "get", path: "/api/v1/servers/{slug}/package/latest", summary: "A package server: the version its range resolves to in the registry now, against the version it runs", tag: "servers", role: "ADMIN", response: { status: 200, schema: ZPackageLatest }, errors: [401, 403, 404, 422, 502] },
  { method: "post", path: "/api/v1/servers/{slug}/package/upgrade", summary: "A package server: install another version (default the newest in its range) and start it as the canary version; promote or roll back through PATCH", tag: "servers", role: "ADMIN", body: ZPackageUpgrade, response: { status: 202, schema: ZPackageUpgraded }, errors: [400, 401, 403, 404, 409, 422, 502] },
  { method: "get", path: "/api/v1/servers/{slug}/logs", summary: "The server's recent stderr: the current process and the last one that exited, at most 500 lines / 256 KB each, redacted; from the gateway process that answers (each runs its own)", tag: "servers", role: "ADMIN", response: { status: 200, schema: ZServerLogs }, errors: [401, 403, 404] },
  { method: "get", path: "/api/v1/sandbox", summary: "The isolation profiles this host can run (bwrap, docker, none) with what was found or why one cannot run, the profile a new stdio server gets, and whether memory limits are enforced by cgroups or by sampling", tag: "servers", role: "ADMIN", response: { status: 200, schema: ZSandboxSupport }, errors: [401, 403] },
  { method: "get", path: "/api/v1/tools", summary: "Every tool with settings, lint findings and near-duplicate pairs", tag: "tools", role: "ADMIN", response: { status: 200, schema: ZToolList }, errors: [401, 403] },
  { method: "get", path: "/api/v1/tools/{name}", summary: "One tool (gateway name <server>__<tool>) with its schemas, lint findings, risk tier and settings", tag: "tools", role: "ADMIN", response: { status: 200, schema: ZToolSummary }, errors: [401, 403, 404] },
  { method: "patch", path: "/api/v1/tools/{name}", summary: "Change a tool (gateway name <server>__<tool>): enabled, strict, timeoutMs, rateLimitPerMinute, riskTier, async, requiredApprovals, exampleRequests", tag: "tools", role: "ADMIN", body: ZUpdateTool, response: { status: 200, schema: ZToolSummary }, errors: [400, 401, 403, 404, 422] },
  { method: "post", path: "/api/v1/tools/{name}/call", summary: "Call a tool from the console through the full gateway pipeline (audited)", tag: "tools", role: "ADMIN", body: ZToolCallRequest, response: { status: 200, schema: ZToolCallResult }, errors: [400, 401, 403, 404, 422] },
  { method: "delete", path: "/api/v1/tokens/{id}", summary: "Revoke a personal API token", tag: "tokens", role: "USER", response: { status: 200, schema: ZApiToken }, errors: [401, 403, 404] },
  { method: "get", path: "/api/v1/sessions", summary: "The caller's agent sessions (admins: everyone's with all=1)", tag: "sessions", role: "USER", query: { all: { description: "1 = every user's sessions (admins)", type: "string" } }, response: { status: 200, schema: ZAgentSessionList }, errors: [401, 422] },
  { method: "post", path: "/api/v1/sessions", summary: "Create an agent session token for the MCP endpoints (shown once): the intersection of the tools and paths asked for and those the caller holds", tag: "sessions", role: "USER", body: ZCreateSession, response: { status: 201, schema: ZCreatedSession }, errors: [400, 401, 403, 422] },
  { method: "delete", path: "/api/v1/sessions/{id}", summary: "Revoke an agent session; every gateway process refuses it from the next call", tag: "sessions", role: "USER", response: { status: 200, schema: ZAgentSession }, errors: [401, 403, 404] },
  { method: "get", path: "/api/v1/settings/sessions", summary: "Default and maximum agent session lifetime", tag: "sessions", role: "USER", response: { status: 200, schema: ZSessionSettings }, errors: [401] },
  { method: "patch", path: "/api/v1/settings/sessions", summary: "Change the default and maximum agent session lifetime", tag: "sessions", role: "ADMIN", body: ZSessionSettings, response: { status: 200, schema: ZSessionSettings }, errors: [400, 401, 403, 422] },
  { method: "get", path: "/api/v1/settings/redaction", summary: "What is redacted before audit events and log lines are stored (patterns, field names) and how: hash (equal values still correlate) or mask", tag: "settings", role: "ADMIN", response: { status: 200, schema: ZRedactionSettings }, errors: [401, 403] },
  { method: "put", path: "/api/v1/settings/redaction", summary: "Replace the redaction settings; every gateway process reloads them (audited as settings.redaction_updated). 422 for an invalid regular expression or duplicate pattern names", tag: "settings", role: "ADMIN", body: ZRedactionSettings, response: { status: 200, schema: ZRedactionSettings }, errors: [400, 401, 403, 422] },
  { method: "post", path: "/api/v1/settings/redaction/preview", summary: "A text as it would be stored now, under the saved redaction settings", tag: "settings", role: "ADMIN", body: ZRedactionPreviewInput, response: { status: 200, schema: ZRedactionPreview }, errors: [400, 401, 403, 422] },
  { method: "get", path: "/api/v1/secrets", summary: "Stored secrets: names, dates and the servers that reference them (usedBy); values are never returned", tag: "settings", role: "ADMIN", response: { status: 200, schema: ZSecretList }, errors: [401, 403] },
  { method: "post", path: "/api/v1/secrets", summary: "Store a secret, encrypted with AES-256-GCM (201), or replace the value of an existing one (200). Reference it as ${secret:NAME} in a server's env or headers. Audited as secret.created / secret.updated, by name only", tag: "settings", role: "ADMIN", body: ZPutSecret, response: { status: 201, schema: ZSecret, description: "Created (200 with the same body when an existing secret's value was replaced)" }, errors: [400, 401, 403, 422] },
  { method: "delete", path: "/api/v1/secrets/{name}", summary: "Delete a secret (audited as secret.deleted). 409 secret_in_use while a server references it", tag: "settings", role: "ADMIN", response: { status: 200, schema: ZSecret }, errors: [401, 403, 404, 409] },
  { method: "post", path: "/api/v1/codemode/run", summary: "Run a code-mode program (the playground) with your permissions or those of one of your agent sessions; every tool call inside goes through the gateway pipeline and is returned with its decision. HIGH-tier calls cannot be held from here", tag: "codemode", role: "USER", body: ZCodeRun, response: { status: 200, schema: ZCodeRunResult }, errors: [400, 401, 404, 409, 422] },
  { method: "get", path: "/api/v1/codemode/types", summary: "TypeScript declarations of the tools a program may call (and of workspace and skills), for an editor", tag: "codemode", role: "USER", query: { agentSessionId: { description: "Under this agent session's whitelist (default: your own grants)", type: "string" } }, response: { status: 200, schema: ZCodeTypes }, errors: [401, 404, 409, 422] },
  { method: "get", path: "/api/v1/me/grant", summary: "What the caller holds and the tools that lets them call", tag: "policy", role: "USER", response: { status: 200, schema: ZEffectiveGrant }, errors: [401] },
  { method: "get", path: "/api/v1/users/{id}/grant", summary: "A user's effective grant", tag: "policy", role: "ADMIN", response: { status: 200, schema: ZEffectiveGrant }, errors: [401, 403, 404] },
  { method: "get", path: "/api/v1/grants", summary: "Tool and path grants to roles and users", tag: "policy", role: "ADMIN", query: { role: { description: "ADMIN, APPROVER or USER", type: "string" }, userId: { description: "One user's grants", type: "string" } }, response: { status: 200, schema: ZGrantList }, errors: [401, 403, 422] },
  { method: "post", path: "/api/v1/grants", summary: "Grant a tool pattern or a path prefix to a role or a user", tag: "policy", role: "ADMIN", body: ZCreateGrant, response: { status: 201, schema: ZGrant }, errors: [400, 401, 403, 404, 422] },
  { method: "delete", path: "/api/v1/grants/{id}", summary: "Remove a grant", tag: "policy", role: "ADMIN", response: { status: 200, schema: ZGrant }, errors: [401, 403, 404] },
  { method: "get", path: "/api/v1/tools/{name}/policy", summary: "The rules in force for a tool, as the gateway applies them: who holds a grant for it, its risk tier and required approvals, its enabled parameter rules in order, argument checking, its rate limit (and whose setting that is), timeout and task mode", tag: "policy", role: "ADMIN", response: { status: 200, schema: ZToolPolicy }, errors: [401, 403, 404] },
  { method: "get", path: "/api/v1/tools/{name}/rules", summary: "A tool's parameter rules", tag: "policy", role: "ADMIN", response: { status: 200, schema: ZRuleList }, errors: [401, 403, 404] },
  { method: "post", path: "/api/v1/tools/{name}/rules", summary: "Add a parameter rule: path, sql_readonly, value or row_cap", tag: "policy", role: "ADMIN", body: ZCreateRule, response: { status: 201, schema: ZRule }, errors: [400, 401, 403, 404, 422] },
  { method: "delete", path: "/api/v1/tools/{name}/rules/{id}", summary: "Remove a parameter rule", tag: "policy", role: "ADMIN", response: { status: 200, schema: ZRule }, errors: [401, 403, 404] },
  { method: "get", path: "/api/v1/policy/tools", summary: "Every tool with its risk tier and rule count", tag: "policy", role: "ADMIN", response: { status: 200, schema: ZPolicyToolList }, errors: [401, 403] },
  { method: "post", path: "/api/v1/policy/tiers", summary: "Set the risk tier of several tools", tag: "policy", role: "ADMIN", body: ZBulkTier, response: { status: 200, schema: ZPolicyToolList }, errors: [400, 401, 403, 404, 422] },
  { method: "get", path: "/api/v1/policy/history", summary: "Changes to tiers, rules and grants, newest first", tag: "policy", role: "ADMIN", query: { ...page, tool: { description: "Only changes to this tool", type: "string" } }, response: { status: 200, schema: ZPolicyChangePage }, errors: [401, 403, 404, 422] },
  { method: "post", path: "/api/v1/policy/history/{id}/revert", summary: "Undo one policy change", tag: "policy", role: "ADMIN", response: { status: 200, schema: ZPolicyChange }, errors: [401, 403, 404, 409] },
  { method: "post", path: "/api/v1/policy/simulate", summary: "The decision for a call (whitelist, tier, rules, schema) without making it", tag: "policy", role: "ADMIN", body: ZSimulateRequest, response: { status: 200, schema: ZDecision }, errors: [400, 401, 403, 404, 422] },
  { method: "get", path: "/api/v1/tasks", summary: "The caller's durable tasks, newest first (admins: everyone's unless mine=1)", tag: "tasks", role: "USER", query: { ...page, status: { description: "One status or several, comma-separated: PENDING, AWAITING_APPROVAL, RUNNING, SUCCEEDED, FAILED, CANCELED, EXPIRED", type: "string" }, mine: { description: "1 = only the caller's tasks (admins see everyone's otherwise)", type: "string" } }, response: { status: 200, schema: ZTaskPage }, errors: [401, 422] },
  { method: "get", path: "/api/v1/tasks/events", summary: `Live task changes from every gateway process as Server-Sent Events: \`event: task\` with a TaskChange as data when one of the caller's tasks (admins: anyone's unless mine=1) is submitted, changes state or reports progress, and a \`: ping\` comment every ${String(TASK_EVENTS_PING_MS / 1000)} s`, tag: "tasks", role: "USER", query: { mine: { description: "1 = only the caller's tasks (admins hear of everyone's otherwise)", type: "string" } }, response: { status: 200, schema: ZTaskChange, contentType: "text/event-stream", description: "A stream of `task` events, each one's data a TaskChange" }, errors: [401, 422] },
  { method: "get", path: "/api/v1/tasks/{id}", summary: "One task with its arguments, events and a preview of its result (404 for another user's task)", tag: "tasks", role: "USER", response: { status: 200, schema: ZTaskDetail }, errors: [401, 404] },
  { method: "get", path: "/api/v1/tasks/{id}/webhooks", summary: "The delivery log of the task's completion webhook: attempts, HTTP status, next retry", tag: "tasks", role: "USER", response: { status: 200, schema: ZWebhookDeliveryList }, errors: [401, 404] },
  { method: "post", path: "/api/v1/tasks/{id}/cancel", summary: "Cancel a pending or running task (409 once it has finished)", tag: "tasks", role: "USER", response: { status: 200, schema: ZTask }, errors: [401, 404, 409] },
  { method: "get", path: "/api/v1/audit", summary: `Search audit events (newest first by default) in keyset pages. total is exact up to ${String(AUDIT_EXACT_COUNT_LIMIT)} matches counted within ${String(AUDIT_COUNT_TIMEOUT_MS)} ms, otherwise PostgreSQL's estimate (totalIsEstimate: true)`, tag: "audit", role: "ADMIN", query: { ...page, ...auditFilter }, response: { status: 200, schema: ZAuditPage }, errors: [401, 403, 422] },
  { method: "get", path: "/api/v1/audit/export", summary: "Every event of the filter as a streamed download: CSV with a header row (format=csv) or JSON Lines (format=jsonl), one AuditEvent per row or line. The export is audited (audit.exported)", tag: "audit", role: "ADMIN", query: { format: { description: "csv (default) or jsonl (application/x-ndjson)", type: "string" }, ...auditFilter }, response: { status: 200, schema: ZAuditEvent, contentType: "text/csv", description: "CSV (or JSON Lines for format=jsonl), each row an AuditEvent; arguments and details as JSON text" }, errors: [401, 403, 422] },
  { method: "get", path: "/api/v1/audit/{id}", summary: "One audit event with its request's story: the request's events and those of its approval and task, oldest first, with both summaries", tag: "audit", role: "ADMIN", response: { status: 200, schema: ZAuditEventDetail }, errors: [401, 403, 404] },
  { method: "get", path: "/api/v1/approvals", summary: "Approval requests: approvers and admins see everyone's (mine=1: their own), users their own. Pending-only lists (status=PENDING) come oldest first, others newest first", tag: "approvals", role: "USER", query: { ...page, status: { description: "One status or several, comma-separated: PENDING, APPROVED, REJECTED, EXPIRED, USED, CANCELED", type: "string" }, kind: { description: "CALL, ADVANCE or STANDING", type: "string" }, tool: { description: "Gateway tool name <server>__<tool>, exact", type: "string" }, requester: { description: "Requester e-mail, exact", type: "string" }, from: { description: "Created at or after (ISO 8601 with offset)", type: "string" }, to: { description: "Created before (ISO 8601 with offset)", type: "string" }, mine: { description: "1 = only requests the caller made", type: "string" } }, response: { status: 200, schema: ZApprovalPage }, errors: [401, 422] },
  { method: "get", path: "/api/v1/approvals/events", summary: `Live approval changes from every gateway process as Server-Sent Events: \`event: approval\` with an ApprovalEvent as data for each request made or decided, and a \`: ping\` comment every ${String(APPROVAL_EVENTS_PING_MS / 1000)} s`, tag: "approvals", role: "APPROVER", response: { status: 200, schema: ZApprovalEvent, contentType: "text/event-stream", description: "A stream of `approval` events, each one's data an ApprovalEvent" }, errors: [401, 403] },
  { method: "get", path: "/api/v1/approvals/{id}", summary: "One approval request with its decisions, redacted arguments and the tool's input schema (404 for another user's request)", tag: "approvals", role: "USER", response: { status: 200, schema: ZApprovalDetail }, errors: [401, 404] },
  { method: "post", path: "/api/v1/approvals/{id}/decision", summary: "Approve or reject a pending request; with approve, standingMinutes also allows the tool for the agent session that long. 403 for one's own request, 409 once decided, expired or already approved by the caller", tag: "approvals", role: "APPROVER", body: ZApprovalDecisionInput, response: { status: 200, schema: ZApprovalDetail }, errors: [400, 401, 403, 404, 409, 422] },
  { method: "post", path: "/api/v1/approvals/{id}/reveal", summary: "The request's full, unredacted arguments (audited as approval.revealed)", tag: "approvals", role: "APPROVER", response: { status: 200, schema: ZApprovalReveal }, errors: [401, 403, 404] },
  { method: "post", path: "/api/v1/approvals/{id}/revoke", summary: "Withdraw a standing approval or an unused request_approval grant (approvers), or one's own pending request (409 when there is nothing to withdraw)", tag: "approvals", role: "USER", response: { status: 200, schema: ZApprovalDetail }, errors: [401, 403, 404, 409] },
  { method: "get", path: "/api/v1/dashboard", summary: "Tool-call traffic of the last minutes from the audit log (per-minute calls, errors, denials, p95 latency; totals; top tools), pending approvals and unhealthy servers. Approvers and admins see the whole gateway, users their own calls and approval requests", tag: "dashboard", role: "USER", query: { window: { description: "Minutes back from now (5–1440, default 60)", type: "integer" } }, response: { status: 200, schema: ZDashboard }, errors: [401, 422] },
  { method: "post", path: "/api/v1/oauth/consent/{uid}", summary: "Decide an OAuth client's authorization request (the console's consent page): allow creates an agent session with the tools and paths given (only tools the user holds), deny refuses; answered with where the browser goes next. Console sessions only, same origin, with the page's csrfToken", tag: "oauth", role: "USER", body: ZConsentDecision, response: { status: 200, schema: ZConsentResult }, errors: [400, 401, 403, 404, 410, 422] },
  { method: "post", path: "/api/v1/oauth/keys/rotate", summary: "A new signing key for the embedded authorization server; the old one stays published until the access tokens it signed have expired (audited as oauth.key_rotated)", tag: "oauth", role: "ADMIN", response: { status: 200, schema: ZKeyRotation }, errors: [401, 403, 404] },
  { method: "get", path: "/api/v1/oauth/clients", summary: "OAuth clients of the embedded authorization server: registered ones (dynamic registration) and those seen through their agent sessions (client ID metadata documents), with kind, name, active sessions, last use and block", tag: "oauth", role: "ADMIN", response: { status: 200, schema: ZOAuthClientList }, errors: [401, 403, 404] },
  { method: "post", path: "/api/v1/oauth/clients/block", summary: "Block an OAuth client: from now on it cannot authorize, exchange a code or refresh (invalid_client), and every agent session it holds is revoked with its tokens and grants. Idempotent; audited as oauth.client_blocked. clientId errors: client_id_empty, client_id_too_long, client_id_control_character", tag: "oauth", role: "ADMIN", body: ZBlockClient, response: { status: 200, schema: ZBlockOutcome }, errors: [400, 401, 403, 404, 422] },
  { method: "post", path: "/api/v1/oauth/clients/unblock", summary: "Let a blocked OAuth client authorize again (its revoked sessions stay revoked). Idempotent; audited as oauth.client_unblocked", tag: "oauth", role: "ADMIN", body: ZUnblockClient, response: { status: 200, schema: ZBlockOutcome }, errors: [400, 401, 403, 404, 422] },
  { method: "get", path: "/api/v1/connections", summary: "The caller's connections to OAuth-protected upstream servers (provider, account, scopes, expiry, last use, status; never tokens) and the per_user servers not yet connected (available)", tag: "connections", role: "USER", response: { status: 200, schema: ZConnectionList }, errors: [401] },
  { method: "post", path: "/api/v1/connections/{id}/connect", summary: "Start connecting the caller's own account to the per_user server {id} (id or slug); the browser goes to authorizationUrl and the provider returns to /oauth/upstream/callback. Reconnect is connect again", tag: "connections", role: "USER", response: { status: 200, schema: ZAuthorizationUrl }, errors: [400, 401, 404, 409, 502] },
  { method: "delete", path: "/api/v1/connections/{id}", summary: "Disconnect (own connection; admins any): the tokens are revoked at the provider (RFC 7009 when advertised) and deleted. Audited as upstream.disconnected", tag: "connections", role: "USER", response: { status: 204, schema: ZNoContent, description: "Disconnected (no body)" }, errors: [401, 403, 404] },
  { method: "get", path: "/api/v1/servers/{slug}/auth", summary: "A server's upstream authentication ({slug}: slug or id): mode, issuer, client registration, scopes, the shared connection, how many users are connected; never tokens or the client secret", tag: "connections", role: "ADMIN", response: { status: 200, schema: ZServerAuth }, errors: [401, 403, 404] },
  { method: "put", path: "/api/v1/servers/{slug}/auth", summary: "Set a server's upstream authentication mode (none, shared, per_user, token_exchange, client_credentials), a pre-registered client id and secret (stored sealed, never returned), scopes and the token-exchange audience. 400 auth_mode_requires_http for a stdio server", tag: "connections", role: "ADMIN", body: ZPutServerAuth, response: { status: 200, schema: ZServerAuth }, errors: [400, 401, 403, 404, 422] },
  { method: "post", path: "/api/v1/servers/{slug}/auth/connect", summary: "Start connecting the shared account of a server in mode shared (admin); the browser goes to authorizationUrl", tag: "connections", role: "ADMIN", response: { status: 200, schema: ZAuthorizationUrl }, errors: [400, 401, 403, 404, 409, 502] },
  { method: "get", path: "/api/v1/servers/{slug}/connections", summary: "Who is connected to a server (admin): each connection with its user's email; never tokens", tag: "connections", role: "ADMIN", response: { status: 200, schema: ZServerConnectionList }, errors: [401, 403, 404] },
  { method: "get", path: "/api/v1/virtual-servers", summary: "Virtual servers: named compositions of tools, prompts and resources of several upstream servers, each served at /mcp/v/<name> (issue 23)", tag: "virtual-servers", role: "ADMIN", response: { status: 200, schema: ZVirtualServerList }, errors: [401, 403] },
  { method: "post", path: "/api/v1/virtual-servers", summary: "Create a virtual server. 422 validation_failed for a name that is not a slug (issue codes name_empty, name_too_long, name_not_ascii, name_not_slug) or an unknown server (unknown_server); 422 virtual_name_collision when two members would be served under one name or under a gateway tool's name, a new name contains \"__\", or a member is given twice (issue codes name_collision, name_reserved, name_looks_prefixed, duplicate_member); 409 virtual_server_name_taken (also the loser of concurrent creates); 409 virtual_server_blocked when renamed names, descriptions or instructions have high-severity poisoning findings and no overrideReason is given. Audited as virtual_server.created", tag: "virtual-servers", role: "ADMIN", body: ZCreateVirtualServer, response: { status: 201, schema: ZVirtualServer }, errors: [400, 401, 403, 409, 422] },
  { method: "get", path: "/api/v1/virtual-servers/{name}", summary: "One virtual server with its members and the path agents connect to", tag: "virtual-servers", role: "ADMIN", response: { status: 200, schema: ZVirtualServer }, errors: [401, 403, 404] },
  { method: "patch", path: "/api/v1/virtual-servers/{name}", summary: "Change a virtual server's description, instructions or members (members given replace all of them); the same checks as create. The name stays. Audited as virtual_server.updated", tag: "virtual-servers", role: "ADMIN", body: ZUpdateVirtualServer, response: { status: 200, schema: ZVirtualServer }, errors: [400, 401, 403, 404, 409, 422] },
  { method: "delete", path: "/api/v1/virtual-servers/{name}", summary: "Delete a virtual server: its endpoint answers 404 and sessions scoped to it are served nowhere. Audited as virtual_server.deleted", tag: "virtual-servers", role: "ADMIN", response: { status: 200, schema: ZVirtualServer }, errors: [401, 403, 404] },
];
