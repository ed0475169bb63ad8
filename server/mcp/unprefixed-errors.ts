// An McpError's message starts with "MCP error <code>: " (its constructor adds it for local display), and the
// SDK's Protocol answers a thrown McpError with that message as is; the agent's SDK then prefixes the code again
// ("MCP error -32602: MCP error -32602: [unknown_tool] …", typescript-sdk#288). Every answer of an MCP endpoint
// leaves through its transport, so the prefix is taken off there once, whoever threw the error: our refusals,
// an upstream's error relayed, the SDK's own checks.
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { isJSONRPCErrorResponse, type JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";

/** What goes on the wire as an error's message: without the prefix its code would be given twice. */
export function unprefixedMessage(code: number, message: string): string {
  const prefix = `MCP error ${String(code)}: `;
  return message.startsWith(prefix) ? message.slice(prefix.length) : message;
}

function unprefixed(message: JSONRPCMessage): JSONRPCMessage {
  if (!isJSONRPCErrorResponse(message)) return message;
  const text = unprefixedMessage(message.error.code, message.error.message);
  return text === message.error.message ? message : { ...message, error: { ...message.error, message: text } };
}

/** The transport, its error answers sent without the McpError prefix. */
export function sendingUnprefixedErrors<T extends Transport>(transport: T): T {
  const send = transport.send.bind(transport);
  transport.send = (message, options) => send(unprefixed(message), options);
  return transport;
}
