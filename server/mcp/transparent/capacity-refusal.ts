// A session whose upstream was closed (idle, evicted, restarted elsewhere) reconnects on its next request.
// When no slot is free that request is refused with `upstream_capacity`: a tool call as a tool error the model
// can act on (audited as denied), anything else as a JSON-RPC error whose data carries the code.
import { McpError, type JSONRPCRequest } from "@modelcontextprotocol/sdk/types.js";
import { mcpRequestId } from "../../context";
import type { AuditWriter } from "../../audit/audit-writer";
import type { Logger } from "../../logger";
import { toolError } from "../../pipeline/tool-error";
import { auditedRefusal } from "../audited-request";
import { GATEWAY_REFUSAL_RPC_CODE } from "../gateway-refusal-code";
import type { McpSessionView } from "../handle-mcp-request";
import { isUpstreamCapacityError } from "./upstream-capacity";

/** The answer to `request` when `err` is a capacity refusal, else undefined. */
export function capacityRefusal(
  deps: { audit: AuditWriter; logger: Logger },
  view: McpSessionView,
  endpoint: string,
  slug: string,
  request: JSONRPCRequest,
  err: unknown,
): Promise<Record<string, unknown>> | undefined {
  if (!isUpstreamCapacityError(err)) return undefined;
  const details = { limit: err.details.limit, retryAfterSeconds: err.retryAfterSeconds };
  if (request.method !== "tools/call") return Promise.reject(new McpError(GATEWAY_REFUSAL_RPC_CODE, err.message, { code: err.code, ...details }));
  const params = (request.params ?? {}) as { name?: unknown; arguments?: Record<string, unknown> };
  const refusal = toolError("upstream_capacity", err.message, details);
  const ctx = { ...view.ctx, requestId: mcpRequestId(view.ctx.requestId, request.id) };
  const info = {
    action: "tool.called" as const,
    endpoint,
    serverSlug: slug,
    target: typeof params.name === "string" ? params.name : "",
    argumentKeys: Object.keys(params.arguments ?? {}),
    mcpSessionId: view.mcpSessionId,
    denied: { code: "upstream_capacity" as const, reason: err.message },
  };
  return auditedRefusal(deps, ctx, info, () => refusal);
}
