// A call runs only against the definition an admin approved: the connection that will serve it is asked for its
// tools/list, and the tool's definition there must hash the same as the pinned one. A server that changed since
// the last refresh (silently, without list_changed) is caught on this call, not the next refresh.
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { CircuitState } from "cockatiel";
import type { RequestContext } from "../context";
import { toolHash } from "../registry/content-hash";
import { UpstreamAuthRequiredError } from "../upstream-auth/upstream-auth-required-error";
import type { UpstreamPool } from "../upstream/upstream-pool";
import { callIdentity } from "./call-identity";
import { createSharedToolListing, findListedTool, listNamedTools, type SharedToolListing } from "./shared-tool-listing";
import { toolError } from "./tool-error";
import { upstreamFailureResult } from "./upstream-failure-result";
import type { CallToolHandler, ResolvedTool, ToolCall } from "./types";

/** Told when a connection offers a changed definition, so it is recorded for review (registry recheckDefinitions). */
export type OnDefinitionDrift = (serverId: string, role: ResolvedTool["role"]) => Promise<void>;

/**
 * What the call's own connection offers (`offeredVia`, the transparent endpoint's session), else the pool's: the
 * one connection every caller shares, in a listing shared with the calls that arrived with this one
 * (shared-tool-listing.ts); for a server that acts as its caller (per_user, token_exchange) the caller's own
 * upstream session, which serves the call.
 */
function offeredTool(pool: UpstreamPool, shared: SharedToolListing, call: ToolCall, ctx: RequestContext): Promise<Tool | undefined> {
  const { tool, signal } = call;
  if (call.offeredVia) return call.offeredVia(signal);
  const identity = callIdentity(tool.serverId, ctx, call.sessionKey);
  if (pool.oneConnectionForAll(tool.serverId, tool.role)) {
    const list = (names: ReadonlySet<string>, timeoutMs: number) => pool.request(tool.serverId, tool.role, ({ client }) => listNamedTools(client, names, undefined, timeoutMs), undefined, identity);
    return shared(`${tool.serverId}|${tool.role}`, { name: tool.name, timeoutMs: tool.timeoutMs, list }, signal);
  }
  return pool.request(tool.serverId, tool.role, ({ client }) => findListedTool(client, tool.name, signal, tool.timeoutMs), signal, identity);
}

/**
 * Whether the serving connection can be asked now. The listing goes through the upstream's circuit breaker like
 * any request, so it is made only on a healthy connection with a closed circuit: otherwise it would count as
 * (or consume) the attempts the breaker keeps for calls. A call made while the connection is down or the circuit
 * is not closed is therefore not checked; the reconnect's own discovery records a changed set for review.
 */
function askable(pool: UpstreamPool, tool: ResolvedTool): boolean {
  const st = pool.status(tool.serverId, tool.role);
  return !!st && (st.status === "HEALTHY" || st.status === "DEGRADED") && st.circuit === CircuitState.Closed;
}

/**
 * Wraps the upstream execute step. A tool without a pinned hash (the gateway's own) runs as before; a call sent
 * over the caller's own connection (`via`) is checked against that connection's listing when the endpoint gives
 * one (`offeredVia`), and runs unchecked otherwise.
 */
export function checkPinnedDefinition(pool: UpstreamPool, onDrift?: OnDefinitionDrift): (next: CallToolHandler) => CallToolHandler {
  const shared = createSharedToolListing();
  return (next) => async (call, ctx, notes) => {
    const pinned = call.tool.pinnedHash;
    const ownConnection = !!call.via;
    if (!pinned || (ownConnection ? !call.offeredVia : !askable(pool, call.tool))) return next(call, ctx, notes);
    let offered: Tool | undefined;
    try {
      offered = await offeredTool(pool, shared, call, ctx);
    } catch (err) {
      // Cancelled: the execute step answers a cancelled call as it always does; a caller who must connect their
      // account first is told so by it, as without the check (nothing reaches the upstream either way).
      if (call.signal.aborted || err instanceof UpstreamAuthRequiredError) return next(call, ctx, notes);
      // No answer to tools/list, no call: an upstream must not get past the check by failing the listing. The
      // caller hears what the execute step would have said of the same failure.
      const { result, code } = upstreamFailureResult(err, call.tool.serverSlug, call.tool.timeoutMs, pool.options.halfOpenAfterMs);
      notes.errorCode = code;
      notes.reason = `tools/list before the call failed: ${err instanceof Error ? err.message : String(err)}`;
      return result;
    }
    if (offered && toolHash(offered) === pinned) return next(call, ctx, notes);
    // Not awaited: the refusal does not wait for the listing; the registry logs its own failure.
    if (onDrift) void onDrift(call.tool.serverId, call.tool.role);
    const message = offered
      ? `The server ${call.tool.serverSlug} now describes ${call.tool.gatewayName} differently from the version an administrator approved; the change waits for review and the tool is not called until it is approved.`
      : `The server ${call.tool.serverSlug} no longer offers ${call.tool.gatewayName} as approved; the change waits for review.`;
    notes.decision = "deny";
    notes.errorCode = "tool_definition_changed";
    notes.reason = message;
    return toolError("tool_definition_changed", message);
  };
}
