// What one upstream MCP server offers at a point in time; stored as a ServerVersion, hashed and diffed.
import type { Prompt, Resource, ResourceTemplate, Tool } from "@modelcontextprotocol/sdk/types.js";

export type UpstreamDefinitions = {
  serverInfo: { name: string; version: string; title?: string };
  instructions?: string;
  capabilities: Record<string, unknown>;
  tools: Tool[];
  resources: Resource[];
  resourceTemplates: ResourceTemplate[];
  prompts: Prompt[];
};
