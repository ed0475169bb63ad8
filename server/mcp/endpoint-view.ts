// What `/mcp` and a virtual server's `/mcp/v/<name>` serve differently; everything else about them is the same
// code (build-aggregate-server.ts). `/mcp` offers every upstream's tools, prompts and resources under gateway
// names; a virtual server only its members, renamed and described as an admin set them, with its instructions.
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { isBuiltinGatewayName } from "../builtin/builtin-server";
import { resourceKey, type VirtualView } from "../virtual/virtual-view";
import type { EndpointNaming } from "./endpoint-naming";

export type EndpointView = {
  naming: EndpointNaming;
  instructions: string;
  /** A prompt (by gateway name) as listed here, or null when it is not served here. */
  prompt(gatewayName: string): { name: string; description?: string | undefined } | null;
  /** The gateway name a prompt is got by here, or null. */
  promptGatewayName(name: string): string | null;
  /** A server's resource as listed here, or null when it is not served here. */
  resource(slug: string, uri: string): { description?: string | undefined } | null;
  /** Whether resource templates (and their completions) are offered. */
  templates: boolean;
};

const AGGREGATE_INSTRUCTIONS = "Tools and prompts from several servers, named <server>__<name>; resources keep their URIs. Calls are checked, bounded and audited by Portcullis.";

/** `/mcp`: every upstream tool under its gateway name, and the session tools under their bare names. */
export function aggregateView(builtins: Tool[]): EndpointView {
  return {
    naming: {
      kind: "mcp",
      endpoint: "mcp",
      serverSlug: "",
      builtins,
      expose: (tools) => tools,
      registryName: (name) => name,
      // The gateway's own tools go by their bare names here, as clients have always called them.
      refuseDirect: (name) => (isBuiltinGatewayName(name) ? `Unknown tool ${name}. The gateway's own tools are called by their bare names (get_task_status, …).` : undefined),
    },
    instructions: AGGREGATE_INSTRUCTIONS,
    prompt: (name) => ({ name }),
    promptGatewayName: (name) => name,
    resource: () => ({}),
    templates: true,
  };
}

const described = (description: string | null) => (description === null ? {} : { description });

/** `/mcp/v/<name>`: the members only, under their served names; a name that is not a member resolves to nothing. */
export function virtualView(view: VirtualView, builtins: Tool[]): EndpointView {
  const unknown = (name: string) => `Unknown tool ${name} on the virtual server ${view.name}. List the tools to see what you can call.`;
  return {
    naming: {
      kind: "virtual",
      endpoint: `mcp/v/${view.name}`,
      serverSlug: "",
      builtins,
      virtualServer: view.name,
      expose: (tools) =>
        tools.flatMap((t) => {
          const m = view.tools.byGateway.get(t.name);
          return m ? [{ ...t, name: m.served, ...described(m.description) }] : [];
        }),
      // "" names no tool: request_approval on a non-member resolves to nothing.
      registryName: (name) => view.tools.byServed.get(name)?.gatewayName ?? "",
      refuseDirect: (name) => (view.tools.byServed.has(name) ? undefined : unknown(name)),
      // A member whose upstream tool is gone: the refusal names the member, not the upstream.
      unknown: () => "This tool is not available on this virtual server now (its upstream tool is gone). List the tools to see what you can call.",
    },
    instructions: view.instructions || `The virtual server ${view.name}: tools, prompts and resources of several servers. Calls are checked, bounded and audited by Portcullis.`,
    prompt: (gatewayName) => {
      const m = view.prompts.byGateway.get(gatewayName);
      return m ? { name: m.served, ...described(m.description) } : null;
    },
    promptGatewayName: (name) => view.prompts.byServed.get(name)?.gatewayName ?? null,
    resource: (slug, uri) => {
      const m = view.resources.get(resourceKey(slug, uri));
      return m ? described(m.description) : null;
    },
    templates: false,
  };
}
