// A tool call from the console ("try it"): the same pipeline as an agent's call, audited as endpoint "console".
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { RequestContext } from "../context";
import { GatewayError } from "../errors";
import type { CallToolHandler } from "../pipeline/types";
import type { Registry } from "./create-registry";

export async function tryToolCall(
  deps: { registry: Registry; pipeline: CallToolHandler },
  ctx: RequestContext,
  gatewayName: string,
  args: Record<string, unknown>,
  timeoutMs = 60_000,
): Promise<CallToolResult> {
  const resolved = await deps.registry.resolveTool(gatewayName, 0);
  if ("error" in resolved) throw new GatewayError("not_found", resolved.error);
  return deps.pipeline({ tool: resolved.tool, arguments: args, endpoint: "console", signal: AbortSignal.timeout(timeoutMs) }, ctx, {});
}
