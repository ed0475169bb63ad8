// The agent operations other than tool calls — prompts, resource reads and subscriptions, completions — as the
// request pipeline sees them. They pass the same steps as tool calls (audit, access, rate limit, output bound);
// their order is fixed in build-request-pipeline.ts, what each kind sends and records in operation-kinds.ts.
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import type { RequestContext } from "../context";
import type { SessionGrant } from "../policy/evaluate";
import type { ToolErrorCode } from "./tool-error";
import type { CallNotes } from "./types";

export type OperationKind = "prompt" | "resource.read" | "resource.subscribe" | "resource.unsubscribe" | "completion";

/** One request to the upstream that serves the operation: the pool's connection on /mcp, the session's own on /mcp/s. */
export type UpstreamSend = (request: { method: string; params: Record<string, unknown> }, signal: AbortSignal) => Promise<unknown>;

export type Operation = {
  kind: OperationKind;
  /** `mcp` or `mcp/s/<slug>`, as audited. */
  endpoint: string;
  serverSlug: string;
  upstreamVersion: string;
  /** What the agent named: the prompt (its gateway name on /mcp), the resource URI, the completion's reference. */
  target: string;
  /**
   * What the session must be allowed: a prompt by its gateway name (`<slug>__<name>`, against the tool whitelist
   * and the user's grant), a URI against its paths. Undefined: only an agent session is needed (a completion of a
   * resource template, whose URI is a pattern, not a path).
   */
  subject?: { prompt: string } | { uri: string } | undefined;
  /** The request's params as the upstream gets them (its own names). */
  params: Record<string, unknown>;
  /** The server's requests per minute (null: the gateway default, as for its tools). */
  rateLimitPerMinute: number | null;
  /** The MCP session the request belongs to, for the per-session limit. */
  sessionKey?: string | undefined;
  mcpSessionId?: string | undefined;
  grant?: SessionGrant | undefined;
  signal: AbortSignal;
  send: UpstreamSend;
};

export type OperationResult = Record<string, unknown>;
export type OperationHandler = (op: Operation, ctx: RequestContext, notes: CallNotes) => Promise<OperationResult>;
export type OperationStep = (next: OperationHandler) => OperationHandler;

/**
 * Ends an operation with a refusal: noted for the audit step (decision deny, the code), answered as a JSON-RPC
 * InvalidParams error whose message leads with the code (`[rate_limited] …`) and whose data carries it.
 */
export function refuseOperation(notes: CallNotes, code: ToolErrorCode, message: string, extra: Record<string, unknown> = {}): never {
  notes.decision = "deny";
  notes.errorCode = code;
  notes.reason ??= message;
  throw new McpError(ErrorCode.InvalidParams, `[${code}] ${message}`, { code, ...extra });
}
