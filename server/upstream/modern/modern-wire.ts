// What a 2026-07-28 request to an upstream carries besides its JSON-RPC body: the per-request `_meta` envelope
// and the routing headers, and the answer read back (one JSON message, or an SSE stream of them).
import { META, NAME_FIELD } from "../../mcp/modern/modern-protocol";
import type { HeaderParam } from "../../mcp/modern/param-header-refusal";
import { sseMessages } from "../../http/sse-messages";
import { encodeHeaderValue } from "./encode-header-value";

export const MODERN_VERSION = "2026-07-28";

/** The `_meta` keys of the stateless generation (the endpoints' own, modern-protocol.ts). */
export const ENVELOPE = META;

export type Message = Record<string, unknown>;

/**
 * Where a 2026 client's own capabilities ride from the endpoint to its upstream session (serve-modern-request.ts):
 * a 2026 upstream is told them instead of the session's (so it asks only for input that client can give); taken
 * out before anything leaves, and never sent to a 2025 upstream (session-upstreams.ts `forward`).
 */
export const CALLER_CAPABILITIES = "io.portcullis/clientCapabilities";

/** `params` without CALLER_CAPABILITIES, and the capabilities it carried. */
export function takeCallerCapabilities(params: Message | undefined): { params: Message | undefined; capabilities?: Message } {
  const meta = params?._meta as Message | undefined;
  if (!meta || !(CALLER_CAPABILITIES in meta)) return { params };
  const { [CALLER_CAPABILITIES]: caps, ...rest } = meta;
  const capabilities = typeof caps === "object" && caps !== null ? (caps as Message) : {};
  return { params: { ...params, _meta: rest }, capabilities };
}

/** Who Portcullis is to the upstream, and what it offers, on every request (there is no session to remember it). */
export type Envelope = { capabilities: Record<string, unknown>; clientInfo: { name: string; version: string }; logLevel?: string | undefined };

/** The request's params with the envelope merged into its `_meta` (the caller's own `_meta` keys kept, e.g. progressToken). */
export function withEnvelope(given: Message | undefined, e: Envelope): Message {
  const { params, capabilities } = takeCallerCapabilities(given);
  const meta = (params?._meta ?? {}) as Message;
  return {
    ...params,
    _meta: {
      ...meta,
      [ENVELOPE.protocolVersion]: MODERN_VERSION,
      [ENVELOPE.clientCapabilities]: capabilities ?? e.capabilities,
      [ENVELOPE.clientInfo]: e.clientInfo,
      ...(e.logLevel && { [ENVELOPE.logLevel]: e.logLevel }),
    },
  };
}

/**
 * MCP-Protocol-Version, Mcp-Method and (for calls, prompts and reads) Mcp-Name, as the body says; for a tools/call
 * also the tool's Mcp-Param-* headers (SEP-2243: each x-mcp-header parameter with a value, which the upstream checks).
 */
export function routingHeaders(method: string, params: Message | undefined, paramHeaders: readonly HeaderParam[] = []): Record<string, string> {
  const field = NAME_FIELD[method];
  const name = field ? params?.[field] : undefined;
  const mirrored: Record<string, string> = {};
  for (const p of method === "tools/call" ? paramHeaders : []) {
    let v: unknown = params?.arguments;
    for (const key of p.path) v = typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Message)[key] : undefined;
    if (typeof v === "string" || typeof v === "number" || typeof v === "boolean") mirrored[`mcp-param-${p.header.toLowerCase()}`] = encodeHeaderValue(String(v));
  }
  return {
    ...mirrored,
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    "mcp-protocol-version": MODERN_VERSION,
    "mcp-method": encodeHeaderValue(method),
    ...(typeof name === "string" && { "mcp-name": encodeHeaderValue(name) }),
  };
}

/** The messages of one answer: an SSE stream one by one, a JSON body as its one message; anything else throws. */
export async function* answerMessages(res: Response): AsyncGenerator<Message> {
  const type = res.headers.get("content-type") ?? "";
  if (type.includes("text/event-stream") && res.body) {
    yield* sseMessages(res.body);
    return;
  }
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = type.includes("application/json") && text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) throw new Error(`the upstream answered HTTP ${String(res.status)} without a JSON-RPC message`);
  yield parsed as Message;
}
