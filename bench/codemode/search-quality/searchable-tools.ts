// Dataset tools as the gateway hands them to code mode's index: `<server>__<tool>` names (gateway-name.ts),
// the upstream definition otherwise unchanged (tool-index-cache.ts does the same for a session's tools).
import { toGatewayName } from "../../../server/registry/gateway-name";
import type { SearchableTool } from "../../../server/codemode/tool-search";
import type { DatasetTool } from "./dataset";

export function toSearchable(tool: DatasetTool, serverSuffix = ""): SearchableTool {
  const server = `${tool.server}${serverSuffix}`;
  return {
    name: toGatewayName(server, tool.name),
    server,
    tool: tool.name,
    title: tool.title ?? null,
    description: tool.description ?? null,
    inputSchema: tool.inputSchema,
    outputSchema: null,
  };
}

/** The scale variant: every tool once per suffix ("" keeps the original server), e.g. 500 tools → 5,000. */
export function replicated(tools: readonly DatasetTool[], suffixes: readonly string[]): SearchableTool[] {
  return suffixes.flatMap((suffix) => tools.map((tool) => toSearchable(tool, suffix)));
}

/** Ten deployments of each server, as an organisation with regions and stages would register them. */
export const SCALE_SUFFIXES = [
  "",
  "-eu",
  "-us",
  "-staging",
  "-dev",
  "-sandbox",
  "-legacy",
  "-west",
  "-east",
  "-backup",
];
