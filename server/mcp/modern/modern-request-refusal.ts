// What a modern request must carry besides agreeing headers: one JSON-RPC request (not a batch, not a
// response), its protocol version and client capabilities in _meta, a version served here, a method this
// generation has. Refusals carry the request's id, as the transport requires.
import { SUPPORTED_PROTOCOL_VERSIONS } from "@modelcontextprotocol/sdk/types.js";
import type { ModernRefusal } from "./routing-header-refusal";
import { META, MODERN_ERROR, MODERN_METHODS, MODERN_PROTOCOL_VERSIONS } from "./modern-protocol";

/** A modern request as served past the checks. */
export type ModernMessage = { jsonrpc: "2.0"; id: string | number; method: string; params: Record<string, unknown> & { _meta: Record<string, unknown> } };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** Every version a client may choose here, newest first (server/discover and -32022 list them). */
export const servedVersions = (): string[] => [...MODERN_PROTOCOL_VERSIONS, ...SUPPORTED_PROTOCOL_VERSIONS];

export function modernRequestRefusal(message: Record<string, unknown>): ModernRefusal | null {
  const params = message.params;
  const meta = isObject(params) ? params._meta : undefined;
  if (!isObject(meta) || typeof meta[META.protocolVersion] !== "string" || !isObject(meta[META.clientCapabilities])) {
    return { status: 400, code: -32602, message: `Invalid params: _meta must carry ${META.protocolVersion} (a string) and ${META.clientCapabilities} (an object)` };
  }
  const requested = meta[META.protocolVersion] as string;
  if (!MODERN_PROTOCOL_VERSIONS.includes(requested)) {
    return { status: 400, code: MODERN_ERROR.unsupportedProtocolVersion, message: "Unsupported protocol version", data: { supported: servedVersions(), requested } };
  }
  if (typeof message.method !== "string" || !MODERN_METHODS.has(message.method)) {
    return { status: 404, code: -32601, message: `Method not found: ${String(message.method)}` };
  }
  return null;
}

/** A refusal as the HTTP answer: its status and a JSON-RPC error with the request's id. */
export function modernRefusalResponse(refusal: ModernRefusal, id: unknown): Response {
  const error = { code: refusal.code, message: refusal.message, ...(refusal.data !== undefined && { data: refusal.data }) };
  return new Response(JSON.stringify({ jsonrpc: "2.0", id: id ?? null, error }), { status: refusal.status, headers: { "content-type": "application/json" } });
}
