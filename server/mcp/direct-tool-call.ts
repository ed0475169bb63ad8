// The hot path of an MCP endpoint: a plain `tools/call` (one JSON-RPC request, a JSON answer, no progress, no
// MCP task) is answered here, straight from the dispatch, without building an SDK Server and a Web transport
// for the request (their per-request objects, schema walks and promise hops were a fifth of the gateway's CPU
// per call, D81). Everything the SDK's path would check first is checked here, and a request this path does
// not take in full (anything unusual: a batch, progress, a task, an unsupported protocol version, odd headers,
// odd params) goes the SDK's way instead, so every refusal keeps the SDK's exact answer.
import { CallToolResultSchema, ErrorCode, SUPPORTED_PROTOCOL_VERSIONS, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { CallIo, CallParams, dispatchToolCall } from "./dispatch-tool-call";
import type { Logger } from "../logger";
import { publicError } from "./public-error";
import { unprefixedMessage } from "./unprefixed-errors";

/** Runs one plain tools/call on the endpoint's dispatch (the one the SDK's handler uses too). */
export type DirectToolCall = (params: CallParams, io: CallIo) => ReturnType<typeof dispatchToolCall>;

type Headers = { get(name: string): string | null };

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** The params of a tools/call this path takes: a name, optional object arguments and _meta, nothing else. */
function plainCallParams(params: unknown): CallParams | undefined {
  if (!isPlainObject(params) || typeof params.name !== "string") return undefined;
  for (const key in params) if (key !== "name" && key !== "arguments" && key !== "_meta") return undefined;
  if (params.arguments !== undefined && !isPlainObject(params.arguments)) return undefined;
  if (params._meta !== undefined && (!isPlainObject(params._meta) || params._meta.progressToken !== undefined)) return undefined;
  return params as CallParams;
}

/** The JSON content type, parsed as the SDK parses it (a media type, not a substring). */
function isJson(contentType: string | null): boolean {
  return (contentType?.split(";")[0]?.trim().toLowerCase() ?? "") === "application/json";
}

/**
 * The request this path would answer: a single tools/call request with the headers the SDK requires, in JSON
 * answer mode. Undefined: the SDK's path serves it (and refuses what it must).
 */
export function directToolCallOf(message: unknown, headers: Headers): { id: string | number; params: CallParams } | undefined {
  if (!isPlainObject(message) || message.jsonrpc !== "2.0" || message.method !== "tools/call") return undefined;
  const id = message.id;
  if (!(typeof id === "string" || (typeof id === "number" && Number.isInteger(id)))) return undefined;
  const accept = headers.get("accept");
  if (!accept?.includes("application/json") || !accept.includes("text/event-stream")) return undefined;
  if (!isJson(headers.get("content-type"))) return undefined;
  const version = headers.get("mcp-protocol-version");
  if (version !== null && !SUPPORTED_PROTOCOL_VERSIONS.includes(version)) return undefined;
  const params = plainCallParams(message.params);
  return params && { id, params };
}

/**
 * The JSON-RPC answer of one call: its result as the SDK's tools/call handler would check it, or the error
 * it threw in the SDK Protocol's form (its code when it has one, else InternalError), without the McpError
 * prefix (unprefixed-errors.ts).
 */
export async function answerToolCall(call: DirectToolCall, id: string | number, params: CallParams, io: Omit<CallIo, "requestId">, log?: Logger): Promise<string> {
  try {
    const result = CallToolResultSchema.safeParse(await call(params, { ...io, requestId: id }));
    if (!result.success) throw Object.assign(new Error(`Invalid tools/call result: ${result.error.message}`), { code: ErrorCode.InvalidParams });
    return JSON.stringify({ jsonrpc: "2.0", id, result: result.data satisfies CallToolResult });
  } catch (thrown) {
    const e = (publicError(thrown, log) ?? {}) as { code?: unknown; message?: unknown; data?: unknown };
    const code = typeof e.code === "number" && Number.isSafeInteger(e.code) ? e.code : ErrorCode.InternalError;
    const message = typeof e.message === "string" && e.message ? unprefixedMessage(code, e.message) : "Internal error";
    return JSON.stringify({ jsonrpc: "2.0", id, error: { code, message, ...(e.data !== undefined && { data: e.data }) } });
  }
}
