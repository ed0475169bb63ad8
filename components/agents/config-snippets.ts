// Ready-to-paste client configuration for a new agent session: the MCP TypeScript SDK, Claude Desktop (through
// the mcp-remote bridge, since it speaks stdio only) and Cursor (which speaks Streamable HTTP itself).
export type ConfigSnippet = { id: "sdk" | "claude" | "cursor"; label: string; file: string; text: string };

/** The key the gateway gets in a client's `mcpServers` map. */
export const SERVER_KEY = "portcullis";

export function mcpEndpoint(origin: string): string {
  return `${origin.replace(/\/+$/, "")}/mcp`;
}

export function sdkSnippet(url: string, token: string, agentId: string): string {
  return [
    'import { Client } from "@modelcontextprotocol/sdk/client/index.js";',
    'import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";',
    "",
    `const transport = new StreamableHTTPClientTransport(new URL(${JSON.stringify(url)}), {`,
    `  requestInit: { headers: { Authorization: ${JSON.stringify(`Bearer ${token}`)} } },`,
    "});",
    `const client = new Client({ name: ${JSON.stringify(agentId)}, version: "1.0.0" });`,
    "await client.connect(transport);",
    "",
    "const { tools } = await client.listTools();",
    "console.log(tools.map((t) => t.name));",
    "",
  ].join("\n");
}

export function claudeDesktopSnippet(url: string, token: string): string {
  const config = {
    mcpServers: {
      [SERVER_KEY]: { command: "npx", args: ["-y", "mcp-remote", url, "--header", `Authorization: Bearer ${token}`] },
    },
  };
  return `${JSON.stringify(config, null, 2)}\n`;
}

export function cursorSnippet(url: string, token: string): string {
  const config = { mcpServers: { [SERVER_KEY]: { url, headers: { Authorization: `Bearer ${token}` } } } };
  return `${JSON.stringify(config, null, 2)}\n`;
}

export function configSnippets(url: string, token: string, agentId: string): ConfigSnippet[] {
  return [
    { id: "sdk", label: "MCP SDK", file: "agent.ts", text: sdkSnippet(url, token, agentId) },
    {
      id: "claude",
      label: "Claude Desktop",
      file: "claude_desktop_config.json",
      text: claudeDesktopSnippet(url, token),
    },
    { id: "cursor", label: "Cursor", file: ".cursor/mcp.json", text: cursorSnippet(url, token) },
  ];
}
