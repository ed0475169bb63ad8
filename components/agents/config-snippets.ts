// Ready-to-paste client configuration for a new agent session: the MCP TypeScript SDK, Claude Desktop (through
// the mcp-remote bridge, since its config file takes stdio servers only), and Claude Code, Cursor and VS Code
// (which speak Streamable HTTP themselves and send the header).
export type ConfigSnippet = { id: "sdk" | "claude" | "claude-code" | "cursor" | "vscode"; label: string; file: string; text: string };

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

/** A POSIX shell word: single-quoted, with any single quote closed, escaped and reopened. */
function shellWord(s: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

export function claudeCodeSnippet(url: string, token: string): string {
  const words = ["claude", "mcp", "add", "--transport", "http", SERVER_KEY, url, "--header", `Authorization: Bearer ${token}`];
  return `${words.map(shellWord).join(" ")}\n`;
}

export function vscodeSnippet(url: string, token: string): string {
  const config = { servers: { [SERVER_KEY]: { type: "http", url, headers: { Authorization: `Bearer ${token}` } } } };
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
    { id: "claude-code", label: "Claude Code", file: "in a terminal", text: claudeCodeSnippet(url, token) },
    { id: "cursor", label: "Cursor", file: ".cursor/mcp.json", text: cursorSnippet(url, token) },
    { id: "vscode", label: "VS Code", file: ".vscode/mcp.json", text: vscodeSnippet(url, token) },
  ];
}
