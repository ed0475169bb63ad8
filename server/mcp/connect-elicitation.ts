// upstream_auth_required as the agent hears it (issue 22). A client that declared URL-mode elicitation (protocol
// 2025-11-25) gets the URLElicitationRequiredError (-32042) whose elicitation sends the user to the connect URL,
// the way the specification asks a server to say "authorize this third party first"; the message leads with the
// code. Other clients get the tool error itself (a tools/call) or a gateway refusal naming the code and the
// connect URL (a read, prompt or completion). The audit event, written before, records upstream_auth_required.
import { randomUUID } from "node:crypto";
import { ErrorCode, McpError, type CallToolResult, type ClientCapabilities } from "@modelcontextprotocol/sdk/types.js";
import { errorCodeOf } from "../pipeline/tool-error";
import type { UpstreamAuthRequiredError } from "../upstream-auth/upstream-auth-required-error";
import { GATEWAY_REFUSAL_RPC_CODE } from "./handle-mcp-request";

type AuthRequired = { message: string; connectUrl: string; reason: string };

function urlElicitation({ message, connectUrl }: AuthRequired): McpError {
  // The SDK's clients keep only `elicitations` of the data (the audit reads `code`): the message carries the code.
  return new McpError(ErrorCode.UrlElicitationRequired, `[upstream_auth_required] ${message}`, {
    elicitations: [{ mode: "url", elicitationId: randomUUID(), url: connectUrl, message }],
    code: "upstream_auth_required",
  });
}

/** Throws the URL elicitation for an upstream_auth_required tool result when the client supports it; else nothing. */
export function connectElicitation(result: CallToolResult, capabilities: ClientCapabilities | undefined): void {
  if (!capabilities?.elicitation?.url || errorCodeOf(result) !== "upstream_auth_required") return;
  const meta = result._meta?.["portcullis/error"] as Partial<AuthRequired>;
  if (typeof meta.connectUrl === "string" && typeof meta.message === "string") throw urlElicitation(meta as AuthRequired);
}

/** The JSON-RPC error of a request other than tools/call that needs the user to connect first. */
export function authRequiredRpcError(err: UpstreamAuthRequiredError, capabilities: ClientCapabilities | undefined): McpError {
  const info = { message: err.message, connectUrl: err.connectUrl, reason: err.reason };
  if (capabilities?.elicitation?.url) return urlElicitation(info);
  return new McpError(GATEWAY_REFUSAL_RPC_CODE, err.message, { code: err.code, connectUrl: err.connectUrl, reason: err.reason });
}
