// What an MCP endpoint puts on the wire as an error's message: the McpError prefix comes off once, and only its own.
import { ErrorCode, McpError, type JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { sendingUnprefixedErrors, unprefixedMessage } from "./unprefixed-errors";

describe("unprefixedMessage", () => {
  it.each([
    [-32602, new McpError(ErrorCode.InvalidParams, "[unknown_tool] Unknown tool x").message, "[unknown_tool] Unknown tool x"],
    [-32602, "MCP error -32602: MCP error -32602: twice upstream", "MCP error -32602: twice upstream"],
    [-32603, "MCP error -32602: another code's prefix is text", "MCP error -32602: another code's prefix is text"],
    [-32602, "plain message", "plain message"],
  ])("code %d, %j → %j", (code, message, wire) => {
    expect(unprefixedMessage(code, message)).toBe(wire);
  });
});

describe("sendingUnprefixedErrors", () => {
  it("unprefixes error answers and passes every other message as it is", async () => {
    const sent: JSONRPCMessage[] = [];
    const transport = sendingUnprefixedErrors({ start: async () => {}, close: async () => {}, send: async (m: JSONRPCMessage) => void sent.push(m) });
    const error = new McpError(ErrorCode.InvalidParams, "[unknown_tool] Unknown tool x", { code: "unknown_tool" });
    const result: JSONRPCMessage = { jsonrpc: "2.0", id: 2, result: { content: [{ type: "text", text: "MCP error -32602: in a result" }] } };
    await transport.send({ jsonrpc: "2.0", id: 1, error: { code: error.code, message: error.message, data: error.data } });
    await transport.send(result);
    expect(sent).toEqual([{ jsonrpc: "2.0", id: 1, error: { code: -32602, message: "[unknown_tool] Unknown tool x", data: { code: "unknown_tool" } } }, result]);
  });
});
