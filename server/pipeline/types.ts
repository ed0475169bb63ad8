// The gateway path for a tool call is composed middleware; the order is fixed in build-pipeline.ts.
import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js";
import type { RequestContext } from "../context";
import type { SessionGrant } from "../policy/evaluate";
import type { AuditErrorCode, ToolErrorCode } from "./tool-error";
import type { CredentialRef } from "../upstream-auth/upstream-credentials";

/** A tool as the pipeline sees it: the registry row plus where it is served. */
export type ResolvedTool = {
  id: string;
  serverId: string;
  serverSlug: string;
  name: string;
  gatewayName: string;
  inputSchema: Record<string, unknown>;
  outputSchema: Record<string, unknown> | null;
  annotations: Record<string, unknown> | null;
  strict: boolean;
  riskTier: "LOW" | "MEDIUM" | "HIGH";
  timeoutMs: number;
  /** Calls per minute to this tool across sessions: the tool's override, else its server's; null = the gateway default. */
  rateLimitPerMinute?: number | null;
  /** Retries are safe only for read-only or idempotent tools. */
  retryable: boolean;
  /** An admin marked it async: every call is queued as a task and answered with its id. */
  async?: boolean | undefined;
  /** Approvers who must say yes to a HIGH-tier call (1 or 2). */
  requiredApprovals?: number | undefined;
  /** The version that serves this call (active or canary for this session). */
  role: "active" | "canary";
  versionId: string;
  version: string;
  /** The approved definition's hash (content-hash.ts toolHash); the serving connection must offer the same. */
  pinnedHash?: string | undefined;
  /** The approved definition itself: what a compatible change is judged against (check-pinned-definition.ts). */
  pinnedDefinition?: Tool | undefined;
  /** The server's policy: a call of a tool whose upstream changed compatibly is served against the pinned definition. */
  servesCompatibleChanges?: boolean | undefined;
};

/** Who submitted a call that may become a task (set by the MCP endpoints for agent sessions). */
export type TaskContext = {
  ownerId: string;
  agentSessionId: string;
  endpoint: string;
  idempotencyKey?: string | undefined;
  /** The client asked for an MCP task (protocol 2025-11-25 `params.task`). */
  mcpTask?: { ttl?: number | null | undefined } | undefined;
  /**
   * A call from inside a code-mode program: it runs to its end where it was made, never becomes a task and is
   * never answered from an earlier identical call; the context only lets a HIGH-tier call be held for a person.
   */
  inline?: boolean | undefined;
};

export type ToolCall = {
  tool: ResolvedTool;
  arguments: Record<string, unknown>;
  meta?: Record<string, unknown> | undefined;
  endpoint: "mcp" | "server" | "code" | "console" | "virtual";
  /** Called through a virtual server (issue 23): its name and the tool's name there, recorded with the audit event. */
  virtual?: { server: string; name: string } | undefined;
  /** The MCP session (or agent session) the call belongs to, for per-session limits and audit. */
  sessionKey?: string | undefined;
  /** The MCP session (`mcp-session-id`) the call came in on, recorded with its audit event. */
  mcpSessionId?: string | undefined;
  signal: AbortSignal;
  onProgress?: ((p: { progress: number; total?: number | undefined; message?: string | undefined }) => void) | undefined;
  /** What the caller's agent session (or, from the console, the user) may use; no grant, no call. */
  grant?: SessionGrant | undefined;
  /** Set when the call must not run (e.g. the tool is disabled); the pipeline audits and answers it. */
  refusal?: { code: ToolErrorCode; message: string } | undefined;
  /**
   * Sends the call over a connection of the caller's own instead of the shared pool connection (the transparent
   * endpoint's per-session upstream, which relays sampling, elicitation and roots). Still under the pool's policies.
   * It is handed the arguments as the steps left them (a row cap lowers a limit), never the caller's originals.
   */
  via?: (((signal: AbortSignal, args: Record<string, unknown>) => Promise<CallToolResult>) & { credential?: (() => CredentialRef | undefined) | undefined }) | undefined;
  /**
   * The shared connection's listing of the tool, started when the call entered the pipeline (listEarly in
   * check-pinned-definition.ts), for the pinned-definition check to use instead of asking again.
   */
  listing?: Promise<Tool | undefined> | undefined;
  /** With `via`: the tool as that connection lists it now, for the pinned-definition check (check-pinned-definition.ts). */
  offeredVia?: ((signal: AbortSignal) => Promise<Tool | undefined>) | undefined;
  /** Set by authorize for a HIGH-tier call: it runs only with an approval (approvals/approval-gate.ts). */
  approval?: { reason: string; ruleId: string | null } | undefined;
  /** Set for agent sessions: the call may become a durable task (tasks/task-switch.ts). */
  task?: TaskContext | undefined;
  /**
   * The client cannot take a task (a 2026-07-28 client that did not declare the tasks extension; it has no task
   * context then): a call that only runs as a task, an async tool, is refused `task_required` instead of run here.
   */
  noTasks?: boolean | undefined;
  /**
   * For the gateway's own tools (server/builtin), what the endpoint the call came in on means by a name: the
   * endpoint's name for tasks and approvals, the session's canary bucket, and how request_approval's `tool`
   * resolves there. Absent (the console, a queued task), a built-in tool refuses to run.
   */
  builtin?: { endpoint: string; bucket: number; resolve: (name: string) => Promise<ResolvedTool | { error: string }> } | undefined;
};

/** What the audit step records about a call beyond its result; steps fill it in as they decide. */
export type CallNotes = {
  decision?: "allow" | "deny" | "require_approval";
  ruleId?: string;
  reason?: string;
  errorCode?: AuditErrorCode;
  truncated?: boolean;
  resultBytes?: number;
  attempts?: number;
  /** Arguments a row-cap rule lowered. */
  capped?: { argument: string; from: unknown; to: number }[];
  /** The task the call became (or replayed). */
  taskId?: string;
  /** The approval the call was held for, or ran under (request_approval grant, standing approval). */
  approvalId?: string;
  /** Which upstream credential the call used (never the token): servers whose auth mode is not `none`. */
  credential?: CredentialRef;
  /** The upstream changed the tool compatibly since approval and the call was served against the pinned definition. */
  servedPinned?: boolean;
};

export type CallToolHandler = (call: ToolCall, ctx: RequestContext, notes: CallNotes) => Promise<CallToolResult>;
export type Middleware = (next: CallToolHandler) => CallToolHandler;

/**
 * compose(a, b, c)(h) = a(b(c(h))): the first middleware sees the call first. Generic over the handler, so tool
 * calls and the other operations (operation.ts) are composed by the same function.
 */
export function compose<H = CallToolHandler>(...middleware: ((next: H) => H)[]): (next: H) => H {
  return (final) => middleware.reduceRight((next, mw) => mw(next), final);
}
