// What the SDK transport and our own session handling cannot take, refused before either sees it: a body nested
// deeper than schema validation and JSON.stringify can follow; a body that is not a JSON-RPC message or a
// non-empty batch of them (`null`, `[null]`, `[]`); an initialize whose client info or capabilities hold text
// PostgreSQL cannot store in the session row.
import { isInitializeRequest, isJSONRPCNotification, JSONRPCMessageSchema, type InitializeRequest, type JSONRPCNotification } from "@modelcontextprotocol/sdk/types.js";
import { MAX_JSON_DEPTH, nestsDeeperThan } from "../../lib/json-depth";
import { findUnstorableText } from "../db/unstorable-text";

export type MalformedBody = { code: number; message: string };

const methodOf = (m: unknown): unknown => (m !== null && typeof m === "object" ? (m as { method?: unknown }).method : undefined);

/**
 * The SDK's `isInitializeRequest`, asked only of a message whose method is `initialize`: it runs the whole zod
 * schema, and every message of every request was asked (0.2 % of the gateway's CPU under load).
 */
export const isInitialize = (m: unknown): m is InitializeRequest => methodOf(m) === "initialize" && isInitializeRequest(m);

/** A `notifications/cancelled` notification (the method first, then the SDK's schema). */
export const isCancellation = (m: unknown): m is JSONRPCNotification => methodOf(m) === "notifications/cancelled" && isJSONRPCNotification(m);

export function malformedBody(body: unknown): MalformedBody | null {
  if (nestsDeeperThan(body))
    return { code: -32600, message: `Invalid Request: the body nests deeper than ${MAX_JSON_DEPTH} levels` };
  const messages: unknown[] = Array.isArray(body) ? body : [body];
  if (messages.length === 0) return { code: -32600, message: "Invalid Request: an empty batch" };
  const bad = messages.findIndex((m) => !JSONRPCMessageSchema.safeParse(m).success);
  if (bad >= 0) {
    const which = Array.isArray(body) ? `Message ${bad} of the batch is` : "The body is";
    return { code: -32600, message: `Invalid Request: ${which} not a JSON-RPC 2.0 request, notification or response` };
  }
  for (const m of messages) {
    if (!isInitialize(m)) continue;
    const at = findUnstorableText({
      clientInfo: m.params.clientInfo,
      capabilities: m.params.capabilities,
      protocolVersion: m.params.protocolVersion,
    });
    if (at) return { code: -32602, message: `Invalid params: ${at} contains a NUL character or a lone surrogate` };
  }
  return null;
}
