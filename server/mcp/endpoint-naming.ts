// What distinguishes the three MCP endpoints for tools: which names they expose and what those names mean in
// the registry, and which of the gateway's own tools they offer. Everything else (refusal of malformed or
// unknown names, the pipeline, cancellation, progress, tasks, listing) is the same for all of them
// (dispatch-tool-call.ts, list-endpoint-tools.ts).
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import type { ResolvedTool, ToolCall } from "../pipeline/types";

export type ProgressFn = NonNullable<ToolCall["onProgress"]>;

export type EndpointNaming = {
  /** The endpoint as the pipeline and audit know it. */
  kind: "mcp" | "server" | "code" | "virtual";
  /** The endpoint's name for refusals, tasks and approvals: "mcp", "mcp/s/<slug>", "mcp/code". */
  endpoint: string;
  /** A virtual server's name: its calls' audit events record the name the agent called as well (issue 23). */
  virtualServer?: string | undefined;
  /** The server a refusal before resolution is recorded under ("" on endpoints that serve many). */
  serverSlug: string;
  /** Longest tool name the endpoint takes (the transparent endpoint's names lack the slug). */
  maxNameChars?: number | undefined;
  /** The gateway's own tools offered here, as listed (bare names). */
  builtins: Tool[];
  /** The upstream tools a session may see, under the names this endpoint exposes (registry names in). */
  expose(tools: Tool[]): Tool[];
  /** The registry name of an upstream tool's name as this endpoint (and request_approval on it) names it. */
  registryName(name: string): string;
  /** Why a direct call of this upstream name is not taken here (code mode: from programs only), if it is not. */
  refuseDirect?: ((name: string) => string | undefined) | undefined;
  /** An unknown name's refusal as this endpoint words it. */
  unknown?: ((error: string) => string) | undefined;
  /** Sends an upstream call over the caller's own connection (transparent endpoint), with progress relayed. */
  via?: ((tool: ResolvedTool, onProgress: ProgressFn | undefined) => ToolCall["via"]) | undefined;
  /** With `via`: how that connection lists the tool now, so the call is checked against the pinned definition. */
  offered?: ((tool: ResolvedTool) => ToolCall["offeredVia"]) | undefined;
};
