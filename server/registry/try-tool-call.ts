// A tool call from the console ("try it"): the same pipeline as an agent's call, audited as endpoint "console".
// The admin calls as themself: what they hold by grants, every rule and tier, as any session would.
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { AuditWriter } from "../audit/audit-writer";
import type { RequestContext } from "../context";
import { GatewayError } from "../errors";
import type { Logger } from "../logger";
import { auditedRefusal } from "../mcp/audited-request";
import { invalidToolName } from "../mcp/refuse-invalid-tool-name";
import type { CallToolHandler } from "../pipeline/types";
import type { SessionGrant } from "../policy/evaluate";
import type { Registry } from "./create-registry";

export async function tryToolCall(
  deps: { registry: Registry; pipeline: CallToolHandler; audit: AuditWriter; logger: Logger },
  ctx: RequestContext,
  gatewayName: string,
  args: Record<string, unknown>,
  timeoutMs = 60_000,
): Promise<CallToolResult> {
  const malformed = invalidToolName({ endpoint: "console", serverSlug: "", name: gatewayName, arguments: args });
  if (malformed) {
    // Audited like the MCP endpoints' refusal, before the name is looked up; the console gets a 400.
    await auditedRefusal(deps, ctx, malformed.info, () => null);
    throw new GatewayError("invalid_tool_name", malformed.reason);
  }
  const resolved = await deps.registry.resolveTool(gatewayName, 0);
  if ("error" in resolved) throw new GatewayError("not_found", resolved.error);
  // A disabled tool resolves with a refusal for the MCP endpoints to audit; the console's answer stays a 404.
  if (resolved.refusal) throw new GatewayError("not_found", resolved.refusal.message);
  if (ctx.actor.type !== "user") throw new GatewayError("forbidden", "Only a signed-in user can try a call.");
  const grant: SessionGrant = { userId: ctx.actor.userId, role: ctx.actor.role, agentId: null, agentSessionId: null, tools: ["*"], paths: ["*"] };
  return deps.pipeline({ tool: resolved.tool, arguments: args, endpoint: "console", grant, signal: AbortSignal.timeout(timeoutMs) }, ctx, {});
}
