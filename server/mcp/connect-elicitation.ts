// upstream_auth_required for a client that declared URL-mode elicitation (protocol 2025-11-25): the call is
// answered with the URLElicitationRequiredError (-32042) whose elicitation sends the user to the connect URL,
// the way the specification asks a server to say "authorize this third party first". The error's data keeps the
// tool error's code, connect URL and reason, so a client that does not act on elicitations still reads them.
// Other clients get the tool error itself. The call's audit event (written before) records upstream_auth_required.
import { randomUUID } from "node:crypto";
import { ErrorCode, McpError, type CallToolResult, type ClientCapabilities } from "@modelcontextprotocol/sdk/types.js";
import { errorCodeOf } from "../pipeline/tool-error";

/** Throws the URL elicitation for an upstream_auth_required result when the client supports it; else nothing. */
export function connectElicitation(result: CallToolResult, capabilities: ClientCapabilities | undefined): void {
  if (!capabilities?.elicitation?.url || errorCodeOf(result) !== "upstream_auth_required") return;
  const meta = result._meta?.["portcullis/error"] as { message: string; connectUrl?: unknown; reason?: unknown };
  if (typeof meta.connectUrl !== "string") return;
  // The SDK's clients keep only `elicitations` of the data: the message leads with the code, as a tool error's text does.
  throw new McpError(ErrorCode.UrlElicitationRequired, `[upstream_auth_required] ${meta.message}`, {
    elicitations: [{ mode: "url", elicitationId: randomUUID(), url: meta.connectUrl, message: meta.message }],
    code: "upstream_auth_required",
    connectUrl: meta.connectUrl,
    reason: meta.reason,
  });
}
