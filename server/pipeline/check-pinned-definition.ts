// A call runs only against the definition an admin approved: the connection that will serve it is asked for its
// tools/list, and the tool's definition there must hash the same as the pinned one. A server that changed since
// the last refresh (silently, without list_changed) is caught on this call, not the next refresh.
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import type { RequestContext } from "../context";
import { compatibleToolChange } from "../registry/compatible-tool-change";
import { toolHash } from "../registry/content-hash";
import { UpstreamAuthRequiredError } from "../upstream-auth/upstream-auth-required-error";
import type { UpstreamPool } from "../upstream/upstream-pool";
import { callIdentity } from "./call-identity";
import { createSharedToolListing, findListedTool, listNamedTools, untilAborted, type SharedToolListing } from "./shared-tool-listing";
import { toolError } from "./tool-error";
import { upstreamFailureResult } from "./upstream-failure-result";
import type { CallToolHandler, Middleware, ResolvedTool, ToolCall } from "./types";

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
  if (pool.oneConnectionForAll(tool.serverId, tool.role)) return sharedListing(pool, shared, call, ctx);
  const identity = callIdentity(tool.serverId, ctx, call.sessionKey);
  return pool.request(tool.serverId, tool.role, ({ client }) => findListedTool(client, tool.name, signal, tool.timeoutMs), signal, identity);
}

function sharedListing(pool: UpstreamPool, shared: SharedToolListing, call: ToolCall, ctx: RequestContext, signal = call.signal): Promise<Tool | undefined> {
  const { tool } = call;
  const identity = callIdentity(tool.serverId, ctx, call.sessionKey);
  const list = (names: ReadonlySet<string>, timeoutMs: number) => pool.request(tool.serverId, tool.role, ({ client }) => listNamedTools(client, names, undefined, timeoutMs), undefined, identity);
  return shared(`${tool.serverId}|${tool.role}`, { name: tool.name, timeoutMs: tool.timeoutMs, list }, signal);
}

const NEVER = new AbortController().signal;


/**
 * The first step of the pipeline: a call that the check will ask the shared connection about starts that listing
 * now, so it runs while the call is authorized, claimed and recorded (database round trips) instead of after
 * them. It is still sent after the call arrived, so it is as fresh as the check requires; a call that is refused
 * meanwhile leaves it unused (a listing has no effect upstream, and listings are shared, so refused calls cannot
 * multiply them). A call that runs later (queued as a task) is checked with a listing of its own then.
 */
export function listEarly(pool: UpstreamPool, shared: SharedToolListing): Middleware {
  return (next) => (call, ctx, notes) => {
    const { tool } = call;
    if (!tool.pinnedHash || call.via || call.offeredVia || !pool.oneConnectionForAll(tool.serverId, tool.role) || !askable(pool, tool)) return next(call, ctx, notes);
    // Not tied to the caller's signal: the task switch may run the call on after its caller has gone; the check
    // waits for it under the signal the call runs with.
    const listing = sharedListing(pool, shared, call, ctx, NEVER);
    listing.catch(() => undefined); // its failure is the check's to report, if the call gets that far
    return next({ ...call, listing }, ctx, notes);
  };
}

/**
 * Whether the serving connection can be asked now. The listing goes through the upstream's circuit breaker like
 * any request, so it is made only on a healthy connection with a closed circuit: otherwise it would count as
 * (or consume) the attempts the breaker keeps for calls. A call made while the connection is down or the circuit
 * is not closed is therefore not checked; the reconnect's own discovery records a changed set for review.
 */
function askable(pool: UpstreamPool, tool: ResolvedTool): boolean {
  return pool.answering(tool.serverId, tool.role);
}

/**
 * `toolHash` of a listed tool, remembered by the tool's JSON spelling: a server lists the same tools the same way
 * call after call, and the canonical form (keys sorted at every level) and its SHA-256 cost far more than the
 * native JSON.stringify that finds a spelling seen before. Equal spellings are equal JSON, so they hash the same; a
 * spelling not seen yet (a change, or only keys in another order) is hashed. At most `max` spellings are kept.
 */
export function toolHashBySpelling(max = 256): (tool: Tool) => string {
  const seen = new Map<string, string>();
  return (tool) => {
    const spelling = JSON.stringify(tool);
    let hash = seen.get(spelling);
    if (hash === undefined) {
      hash = toolHash(tool);
      if (seen.size >= max) seen.clear();
      seen.set(spelling, hash);
    }
    return hash;
  };
}

/**
 * Wraps the upstream execute step. A tool without a pinned hash (the gateway's own) runs as before; a call sent
 * over the caller's own connection (`via`) is checked against that connection's listing when the endpoint gives
 * one (`offeredVia`), and runs unchecked otherwise.
 */
export function checkPinnedDefinition(pool: UpstreamPool, onDrift?: OnDefinitionDrift, shared: SharedToolListing = createSharedToolListing()): (next: CallToolHandler) => CallToolHandler {
  const hashOf = toolHashBySpelling();
  return (next) => async (call, ctx, notes) => {
    const pinned = call.tool.pinnedHash;
    const ownConnection = !!call.via;
    if (!pinned || (ownConnection ? !call.offeredVia : !askable(pool, call.tool))) return next(call, ctx, notes);
    let offered: Tool | undefined;
    try {
      offered = await (call.listing ? untilAborted(call.listing, call.signal) : offeredTool(pool, shared, call, ctx));
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
    if (offered && hashOf(offered) === pinned) return next(call, ctx, notes);
    // Not awaited: the refusal does not wait for the listing; the registry logs its own failure.
    if (onDrift) void onDrift(call.tool.serverId, call.tool.role);
    // The server's policy may serve a compatible change against the pinned definition (its arguments were
    // checked against the pinned schema, which the new one accepts); the change still waits for review.
    const verdict = offered && call.tool.servesCompatibleChanges && call.tool.pinnedDefinition ? compatibleToolChange(call.tool.pinnedDefinition, offered) : undefined;
    if (verdict?.compatible) {
      notes.servedPinned = true;
      return next(call, ctx, notes);
    }
    const why = verdict && !verdict.compatible ? ` (not served against the approved definition: ${verdict.reason})` : "";
    const message = offered
      ? `The server ${call.tool.serverSlug} now describes ${call.tool.gatewayName} differently from the version an administrator approved${why}; the change waits for review and the tool is not called until it is approved.`
      : `The server ${call.tool.serverSlug} no longer offers ${call.tool.gatewayName} as approved; the change waits for review.`;
    notes.decision = "deny";
    notes.errorCode = "tool_definition_changed";
    notes.reason = message;
    return toolError("tool_definition_changed", message);
  };
}
