import { McpError } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { answerToolCall, directToolCallOf, type DirectToolCall } from "./direct-tool-call";

const headers = (h: Record<string, string>) => ({ get: (name: string) => h[name] ?? null });
const OK_HEADERS = { accept: "application/json, text/event-stream", "content-type": "application/json" };
const call = (params: unknown, id: unknown = 1) => ({ jsonrpc: "2.0", id, method: "tools/call", params });

describe("directToolCallOf – which requests the direct path takes (everything else goes the SDK's way)", () => {
  it.each([
    ["a plain call", call({ name: "s__t", arguments: { a: 1 } }), OK_HEADERS, true],
    ["a call without arguments, string id, with _meta", call({ name: "s__t", _meta: { intent: "x" } }, "r-1"), OK_HEADERS, true],
    ["a supported protocol version header", call({ name: "s__t" }), { ...OK_HEADERS, "mcp-protocol-version": "2025-06-18" }, true],
    ["content type with a charset", call({ name: "s__t" }), { ...OK_HEADERS, "content-type": "application/json; charset=utf-8" }, true],
    ["progress asked for", call({ name: "s__t", _meta: { progressToken: 7 } }), OK_HEADERS, false],
    ["an MCP task", call({ name: "s__t", task: { ttl: 1000 } }), OK_HEADERS, false],
    ["an unknown params key", call({ name: "s__t", extra: 1 }), OK_HEADERS, false],
    ["arguments that are not an object", call({ name: "s__t", arguments: [1] }), OK_HEADERS, false],
    ["a name that is not a string", call({ name: 5 }), OK_HEADERS, false],
    ["params missing", { jsonrpc: "2.0", id: 1, method: "tools/call" }, OK_HEADERS, false],
    ["a null id", call({ name: "s__t" }, null), OK_HEADERS, false],
    ["a fractional id", call({ name: "s__t" }, 1.5), OK_HEADERS, false],
    ["another method", { jsonrpc: "2.0", id: 1, method: "tools/list" }, OK_HEADERS, false],
    ["a notification", { jsonrpc: "2.0", method: "tools/call", params: { name: "s__t" } }, OK_HEADERS, false],
    ["Accept without SSE", call({ name: "s__t" }), { ...OK_HEADERS, accept: "application/json" }, false],
    ["no Accept", call({ name: "s__t" }), { "content-type": "application/json" }, false],
    ["a look-alike content type", call({ name: "s__t" }), { ...OK_HEADERS, "content-type": "application/jsonx" }, false],
    ["an unsupported protocol version", call({ name: "s__t" }), { ...OK_HEADERS, "mcp-protocol-version": "1999-01-01" }, false],
  ])("%s", (_what, message, h, taken) => {
    expect(directToolCallOf(message, headers(h)) !== undefined).toBe(taken);
  });
});

describe("answerToolCall – the answer the SDK's Protocol would give", () => {
  const parse = (s: string) => JSON.parse(s) as { id: unknown; result?: unknown; error?: { code: number; message: string; data?: unknown } };
  const run = (fn: DirectToolCall) => answerToolCall(fn, 9, { name: "s__t" }, {}).then(parse);

  it("a result, under the request's id", async () => {
    const a = await run(() => Promise.resolve({ content: [{ type: "text" as const, text: "hi" }] }));
    expect(a).toEqual({ jsonrpc: "2.0", id: 9, result: { content: [{ type: "text", text: "hi" }] } });
  });

  it("a result that is not a tools/call result is an invalid-params error, as the SDK's handler answers it", async () => {
    const a = await run(() => Promise.resolve({ content: "not a list" } as never));
    expect(a.error?.code).toBe(-32602);
    expect(a.error?.message).toMatch(/^Invalid tools\/call result/);
  });

  it("a thrown McpError keeps its code and data, without the 'MCP error <code>:' prefix", async () => {
    const a = await run(() => Promise.reject(new McpError(-32602, "[unknown_tool] Unknown tool s__t", { code: "unknown_tool" })));
    expect(a.error).toEqual({ code: -32602, message: "[unknown_tool] Unknown tool s__t", data: { code: "unknown_tool" } });
  });

  it("any other thrown error is an internal error with its message (a string code is not a JSON-RPC code)", async () => {
    const a = await run(() => Promise.reject(Object.assign(new Error("database_unavailable: withheld"), { code: "database_unavailable" })));
    expect(a.error).toEqual({ code: -32603, message: "database_unavailable: withheld" });
    // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- a value that is not an Error, as a careless handler may throw
    const b = await run(() => Promise.reject(null));
    expect(b.error).toEqual({ code: -32603, message: "Internal error" });
  });
});
