// A tools/call whose name cannot name any tool is refused first, on every MCP endpoint: before the name is looked
// up in the registry, counted against a rate limit or written to a log, and audited as a security event under
// its printable form (control characters and other code points escaped).
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { RequestContext } from "../context";
import type { AuditWriter } from "../audit/audit-writer";
import type { Logger } from "../logger";
import { toolError } from "../pipeline/tool-error";
import { invalidToolNameReason, printableToolName } from "../registry/gateway-name";
import { auditedRefusal, type RefusalInfo } from "./audited-request";

export type NamedCall = { endpoint: string; serverSlug: string; mcpSessionId?: string | undefined; name: string; arguments: unknown; maxChars?: number };

/** The refusal of a malformed name (its reason and audit record), or undefined when it is well-formed (it may still be unknown). */
export function invalidToolName(call: NamedCall): { reason: string; info: RefusalInfo } | undefined {
  const why = invalidToolNameReason(call.name, call.maxChars);
  if (why === null) return undefined;
  const shown = printableToolName(call.name);
  const reason = `The tool name "${shown}" ${why}. List the tools to see what you can call.`;
  const argumentKeys = call.arguments && typeof call.arguments === "object" ? Object.keys(call.arguments) : [];
  const denied = { code: "invalid_tool_name" as const, reason };
  return { reason, info: { action: "tool.called", endpoint: call.endpoint, serverSlug: call.serverSlug, target: shown, argumentKeys, mcpSessionId: call.mcpSessionId, denied } };
}

/** On the MCP endpoints: the audited invalid_tool_name tool error, or undefined for a well-formed name. */
export function refuseInvalidToolName(deps: { audit: AuditWriter; logger: Logger }, ctx: RequestContext, call: NamedCall): Promise<CallToolResult> | undefined {
  const refused = invalidToolName(call);
  if (!refused) return undefined;
  const answer = () => toolError("invalid_tool_name", refused.reason);
  return auditedRefusal(deps, ctx, refused.info, answer);
}
