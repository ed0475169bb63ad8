// What the SDK transport and our own session handling cannot take, refused before either sees it: a body nested
// deeper than schema validation and JSON.stringify can follow; a body that is not a JSON-RPC message or a
// non-empty batch of them (`null`, `[null]`, `[]`); an initialize whose client info or capabilities hold text
// PostgreSQL cannot store in the session row.
import { isInitializeRequest, JSONRPCMessageSchema } from "@modelcontextprotocol/sdk/types.js";
import { MAX_JSON_DEPTH, nestsDeeperThan } from "../../lib/json-depth";
import { findUnstorableText } from "../db/unstorable-text";

export type MalformedBody = { code: number; message: string };

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
    if (!isInitializeRequest(m)) continue;
    const at = findUnstorableText({
      clientInfo: m.params.clientInfo,
      capabilities: m.params.capabilities,
      protocolVersion: m.params.protocolVersion,
    });
    if (at) return { code: -32602, message: `Invalid params: ${at} contains a NUL character or a lone surrogate` };
  }
  return null;
}
