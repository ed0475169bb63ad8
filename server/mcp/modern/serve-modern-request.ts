// A 2026-07-28 request on an MCP endpoint: checked (routing headers against the body first, then _meta,
// version and method), then served by the endpoint's own handling — the same SDK Server, transparent relay or
// direct tools/call path, hence the same authorization, limits, pipeline and audit as a 2025 call — as the
// 2025 request it corresponds to (server/discover as an initialize), its answer rewritten for the client.
import type { JSONRPCRequest } from "@modelcontextprotocol/sdk/types.js";
import type { McpEndpoint } from "../mcp-endpoint";
import type { JsonAnswer } from "../mcp-request";
import { paramHeaderRefusal } from "./param-header-refusal";
import { answerModernStream, hold, type MrtrContext } from "./answer-modern-stream";
import type { Continuation, Origin, PendingInput } from "./continuations";
import { modernAnswer } from "./modern-answer";
import { sseMessages } from "../../http/sse-messages";
import { modernMessage } from "./modern-message";
import { INNER_PROTOCOL_VERSION, META } from "./modern-protocol";
import { modernRefusalResponse, modernRequestRefusal, type ModernMessage } from "./modern-request-refusal";
import { routingHeaderRefusal, type HeaderSource } from "./routing-header-refusal";
import type { Carried, RequestStates } from "./request-state";
import { passInputRequired, unwrapState } from "./upstream-state";
import { CALLER_CAPABILITIES } from "../../upstream/modern/modern-wire";

/** The endpoint's handling of one 2025-generation request (at INNER_PROTOCOL_VERSION, no MCP session). */
export type ModernRun = (inner: JSONRPCRequest) => Promise<Response | JsonAnswer>;

const invalid = (message: string, id: unknown = null) => modernRefusalResponse({ status: 400, code: -32600, message: `Invalid Request: ${message}` }, id);

/** The refusal as the HTTP answer, 202 for a notification (none is defined over HTTP), or the request to serve. */
export function checkModernRequest(req: HeaderSource, body: unknown): Response | ModernMessage {
  if (Array.isArray(body)) return invalid("a 2026-07-28 POST carries one JSON-RPC message, not a batch");
  const message = body as Record<string, unknown>;
  if (typeof message.method !== "string") return invalid("a client does not send JSON-RPC responses in 2026-07-28", message.id);
  if (message.id === undefined) return new Response(null, { status: 202 });
  const refusal = routingHeaderRefusal(req, message as { method: string; params?: Record<string, unknown> }) ?? modernRequestRefusal(message);
  return refusal ? modernRefusalResponse(refusal, message.id) : (message as ModernMessage);
}

/** A tools/call's Mcp-Param-* headers against the tool's x-mcp-header annotations, when the tool is known here. */
export async function paramHeaderCheck(
  deps: { toolInputSchema?: ((endpoint: McpEndpoint, name: string, bucket: number) => Promise<unknown>) | undefined },
  req: HeaderSource,
  endpoint: McpEndpoint,
  message: ModernMessage,
  bucket: number,
): Promise<Response | null> {
  if (message.method !== "tools/call" || typeof message.params.name !== "string" || !deps.toolInputSchema) return null;
  const schema = await deps.toolInputSchema(endpoint, message.params.name, bucket);
  const refusal = schema === undefined ? null : paramHeaderRefusal(req, schema, message.params.arguments);
  return refusal && modernRefusalResponse(refusal, message.id);
}

/** The request's params without the 2026 _meta keys (the handling behind speaks 2025, and so may an upstream). */
function innerParams(params: ModernMessage["params"]): Record<string, unknown> {
  const meta = Object.fromEntries(Object.entries(params._meta).filter(([k]) => !k.startsWith("io.modelcontextprotocol/")));
  // MRTR fields of a request that continues nothing are ignored (SEP-2322: unrecognised input is ignored), and so
  // is 2025's `task` (SEP-2663: the server alone decides what becomes a task).
  const { _meta: _dropped, inputResponses: _responses, requestState: _state, task: _task, ...rest } = params;
  return Object.keys(meta).length ? { ...rest, _meta: meta } : rest;
}

/**
 * On /mcp/s (`relayed`), what a 2026 upstream behind needs of the request: the client's capabilities (to ask only
 * for input it can give), its inputResponses (SEP-2322: an answer without a state is still an answer), and on a
 * retry the upstream's own state, unwrapped. A 2025 upstream is sent none of it (session-upstreams.ts `forward`
 * drops the capabilities; inputResponses are an unknown param to it).
 */
function innerRequest(message: ModernMessage, relayed: boolean, carried: Carried | null): JSONRPCRequest {
  const params = innerParams(message.params);
  if (relayed) {
    params._meta = { ...(params._meta as object | undefined), [CALLER_CAPABILITIES]: message.params._meta[META.clientCapabilities] };
    if (message.params.inputResponses !== undefined) params.inputResponses = message.params.inputResponses;
    if (carried?.upstream !== undefined) params.requestState = carried.upstream;
  }
  if (message.method !== "server/discover") return { jsonrpc: "2.0", id: message.id, method: message.method, params };
  const clientInfo = message.params._meta[META.clientInfo] ?? { name: "mcp-2026-client", version: "0" };
  // No client capabilities: nothing behind may send this client a request (MRTR is a later part of issue 24).
  return { jsonrpc: "2.0", id: message.id, method: "initialize", params: { protocolVersion: INNER_PROTOCOL_VERSION, capabilities: {}, clientInfo } };
}

/**
 * `handle`: what the handling runs under (stateless-view.ts); `release`: it is free again (called once the answer,
 * or the continuation, ends). `signal` aborts when the client goes before the whole answer was written: the
 * handling is cancelled (`cancel`), as closing the response stream means in 2026-07-28.
 */
export type ModernServing = {
  run: ModernRun;
  serverInfo: () => unknown;
  mrtr?: MrtrContext["mrtr"];
  handle: string;
  release: () => void;
  signal: AbortSignal;
  cancel: (origin: Origin) => void;
  /** Signs the wrapped requestState of a 2026 upstream's input_required passed through (upstream-state.ts); /mcp/s only. */
  upstreamStates?: (() => Promise<RequestStates>) | undefined;
};

export async function serveModernRequest(message: ModernMessage, serving: ModernServing): Promise<Response | JsonAnswer> {
  let states: RequestStates | undefined;
  try {
    states = serving.mrtr && serving.upstreamStates ? await serving.upstreamStates() : undefined;
  } catch (err) {
    // The deployment's key could not be read: nothing may be wrapped or unwrapped, and the lease is free again.
    serving.release();
    throw err;
  }
  const carried = states ? unwrapState(states, message.params.requestState, serving.mrtr!.binding, Date.now()) : null;
  if (carried && "refused" in carried) {
    serving.release();
    return modernRefusalResponse({ status: 400, code: -32602, message: `Invalid params: ${carried.refused}` }, message.id);
  }
  const passed = states ? { states, binding: serving.mrtr!.binding, round: carried?.round ?? 0, capabilities: message.params._meta[META.clientCapabilities] } : undefined;
  const shape = (m: Record<string, unknown>) => {
    const shaped = modernMessage(m, message, serving.serverInfo);
    return passed ? passInputRequired(shaped, { ...passed, now: Date.now() }) : shaped;
  };
  // A retry continues the handling it names, under that handling's own handle.
  if (!carried && message.params.requestState !== undefined) {
    serving.release();
    return resume({ request: message, shape, mrtr: serving.mrtr, origin: { mcpSessionId: "", requestId: message.id } }, message, serving);
  }
  const ctx: MrtrContext = { request: message, shape, mrtr: serving.mrtr, origin: { mcpSessionId: serving.handle, requestId: message.id } };
  serving.signal.addEventListener("abort", () => serving.cancel(ctx.origin), { once: true });
  let answer: Response | JsonAnswer;
  try {
    answer = await serving.run(innerRequest(message, !!states, carried));
  } catch (err) {
    serving.release();
    throw err;
  }
  if (answer instanceof Response && answer.body && (answer.headers.get("content-type") ?? "").includes("text/event-stream")) return answerModernStream(ctx, sseMessages(answer.body, serving.release));
  serving.release();
  return modernAnswer(answer, ctx.shape);
}

/** A retry with the client's input: the held handling is given it and goes on; its answer is this request's. */
async function resume(retry: MrtrContext, message: ModernMessage, serving: Pick<ModernServing, "signal" | "cancel">): Promise<Response> {
  const refuse = (reason: string) => modernRefusalResponse({ status: 400, code: -32602, message: `Invalid params: ${reason}` }, message.id);
  if (!retry.mrtr) return refuse("this endpoint issues no requestState");
  const taken = await retry.mrtr.continuations.take(message.params.requestState, retry.mrtr.binding);
  if ("refused" in taken) return refuse(taken.refused);
  // Another process holds the call (a balancer without affinity): it continues there, its answer comes back here.
  if ("elsewhere" in taken) return retry.mrtr.forward ? retry.mrtr.forward(taken.elsewhere, message, retry.mrtr.binding, serving.signal) : refuse("requestState is held by another gateway process");
  return continueTaken(retry, message, taken, serving);
}

/** The taken continuation given the retry's input, read on to its next terminal answer (here, or for a forwarded retry). */
export async function continueTaken(retry: MrtrContext, message: ModernMessage, taken: Continuation, serving: Pick<ModernServing, "signal" | "cancel">): Promise<Response> {
  const ctx: MrtrContext = { ...retry, origin: taken.origin };
  serving.signal.addEventListener("abort", () => serving.cancel(taken.origin), { once: true });
  const responses = (typeof message.params.inputResponses === "object" && message.params.inputResponses !== null ? message.params.inputResponses : {}) as Record<string, unknown>;
  const missing = new Map<string, PendingInput>();
  for (const [key, p] of taken.pending) {
    if (responses[key] === undefined) missing.set(key, p);
    else await ctx.mrtr!.reply(taken.origin.mcpSessionId, { jsonrpc: "2.0", id: p.relayId, result: responses[key] });
  }
  // What is still missing is asked for again (SEP-2322: re-request rather than fail).
  if (missing.size) {
    const t = await hold(ctx, { ...taken, pending: missing });
    return new Response(JSON.stringify(t.message), { status: t.status, headers: { "content-type": "application/json" } });
  }
  return answerModernStream(ctx, taken.messages);
}
