// Captures REAL tool definitions from published MCP server packages: each is started over stdio with the SDK
// client, listed, and stopped. Dummy credentials suffice, since listing tools needs none (server-redis is left
// out: it connects to Redis before it answers). The output,
// captured-tools.json, is committed; the benchmark never starts these servers.
//
//   mkdir -p /tmp/sq-servers && cd /tmp/sq-servers && npm init -y && npm i --ignore-scripts <packages below>
//   SQ_SERVERS_DIR=/tmp/sq-servers npx tsx bench/codemode/search-quality/capture-tools.ts
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { writeJson, type DatasetTool } from "./dataset";

type ServerSpec = { server: string; pkg: string; bin: string; args?: string[]; env?: Record<string, string> };

const SERVERS: ServerSpec[] = [
  {
    server: "everything",
    pkg: "@modelcontextprotocol/server-everything",
    bin: "mcp-server-everything",
    args: ["stdio"],
  },
  {
    server: "filesystem",
    pkg: "@modelcontextprotocol/server-filesystem",
    bin: "mcp-server-filesystem",
    args: ["/tmp"],
  },
  { server: "memory", pkg: "@modelcontextprotocol/server-memory", bin: "mcp-server-memory" },
  {
    server: "github",
    pkg: "@modelcontextprotocol/server-github",
    bin: "mcp-server-github",
    env: { GITHUB_PERSONAL_ACCESS_TOKEN: "ghp_dummy" },
  },
  {
    server: "gitlab",
    pkg: "@modelcontextprotocol/server-gitlab",
    bin: "mcp-server-gitlab",
    env: { GITLAB_PERSONAL_ACCESS_TOKEN: "glpat-dummy", GITLAB_API_URL: "https://gitlab.example.com/api/v4" },
  },
  {
    server: "slack",
    pkg: "@modelcontextprotocol/server-slack",
    bin: "mcp-server-slack",
    env: { SLACK_BOT_TOKEN: "xoxb-dummy", SLACK_TEAM_ID: "T00000000" },
  },
  {
    server: "postgres",
    pkg: "@modelcontextprotocol/server-postgres",
    bin: "mcp-server-postgres",
    args: ["postgresql://dummy@127.0.0.1:9/dummy"],
  },
  {
    server: "brave-search",
    pkg: "@modelcontextprotocol/server-brave-search",
    bin: "mcp-server-brave-search",
    env: { BRAVE_API_KEY: "dummy" },
  },
  {
    server: "google-maps",
    pkg: "@modelcontextprotocol/server-google-maps",
    bin: "mcp-server-google-maps",
    env: { GOOGLE_MAPS_API_KEY: "dummy" },
  },
  { server: "puppeteer", pkg: "@modelcontextprotocol/server-puppeteer", bin: "mcp-server-puppeteer" },
  {
    server: "sequential-thinking",
    pkg: "@modelcontextprotocol/server-sequential-thinking",
    bin: "mcp-server-sequential-thinking",
  },
  {
    server: "everart",
    pkg: "@modelcontextprotocol/server-everart",
    bin: "mcp-server-everart",
    env: { EVERART_API_KEY: "dummy" },
  },
  {
    server: "aws-kb",
    pkg: "@modelcontextprotocol/server-aws-kb-retrieval",
    bin: "mcp-server-aws-kb-retrieval",
    env: { AWS_ACCESS_KEY_ID: "dummy", AWS_SECRET_ACCESS_KEY: "dummy", AWS_REGION: "us-east-1" },
  },
  {
    server: "notion",
    pkg: "@notionhq/notion-mcp-server",
    bin: "notion-mcp-server",
    env: { NOTION_TOKEN: "ntn_dummy" },
  },
  { server: "firecrawl", pkg: "firecrawl-mcp", bin: "firecrawl-mcp", env: { FIRECRAWL_API_KEY: "fc-dummy" } },
  { server: "playwright", pkg: "@playwright/mcp", bin: "playwright-mcp", args: ["--headless"] },
];

const LIST_TIMEOUT_MS = 30_000;

async function capture(dir: string, spec: ServerSpec): Promise<DatasetTool[]> {
  const transport = new StdioClientTransport({
    command: path.join(dir, "node_modules", ".bin", spec.bin),
    args: spec.args ?? [],
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/tmp", ...spec.env },
    stderr: "ignore",
  });
  const client = new Client({ name: "search-quality-capture", version: "1.0.0" });
  try {
    await client.connect(transport, { timeout: LIST_TIMEOUT_MS });
    const { tools } = await client.listTools(undefined, { timeout: LIST_TIMEOUT_MS });
    return tools.map((tool) => ({
      server: spec.server,
      name: tool.name,
      ...(tool.title ? { title: tool.title } : {}),
      ...(tool.description ? { description: tool.description } : {}),
      inputSchema: tool.inputSchema,
      source: spec.pkg,
    }));
  } finally {
    await client.close().catch(() => undefined);
  }
}

async function main(): Promise<void> {
  const dir = process.env.SQ_SERVERS_DIR ?? "/tmp/sq-servers";
  const out = path.join(import.meta.dirname, "captured-tools.json");
  const captured: DatasetTool[] = [];
  for (const spec of SERVERS) {
    try {
      const tools = await capture(dir, spec);
      console.log(`${spec.server.padEnd(20)} ${tools.length} tools (${spec.pkg})`);
      captured.push(...tools);
    } catch (error) {
      console.log(`${spec.server.padEnd(20)} FAILED: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  await writeJson(out, captured);
  console.log(`${captured.length} tools → ${out}`);
}

await main();
