// (1) Context at agent start-up: what an agent reads before its first step. On /mcp it is the tools/list answer with
// every upstream tool; on /mcp/code it is the tools/list answer (the code-mode tools) plus one typical search_tools
// answer (detail "summary", limit 10), which is how it then finds the tools for its task.
import { connectAgent } from "../../server/test/gateway-harness";
import type { BenchGateway } from "./gateway";
import { jsonTokens, tokens } from "./tokens";

export const SEARCH = { query: "refund a customer's order and email them", detail: "summary", limit: 10 } as const;

export type ContextSample = {
  tools: number;
  servers: number;
  /** /mcp: tools listed, the tools/list result's JSON. */
  aggregate: { listed: number; bytes: number; tokens: number };
  /** /mcp/code: its tools/list, one search_tools answer (the whole CallToolResult, and its text content alone). */
  code: { listed: number; listTokens: number; searchTokens: number; searchTextTokens: number; searchHits: number; total: number };
  /** Tokens of each tool definition /mcp/code lists. */
  codeTools: Record<string, number>;
};

export async function measureContext(bg: BenchGateway, tools: number, servers: number): Promise<ContextSample> {
  const direct = await connectAgent(bg.mcpUrl, bg.token);
  const code = await connectAgent(bg.codeUrl, bg.token);
  try {
    const list = await direct.client.listTools();
    const listJson = JSON.stringify(list);
    const codeList = await code.client.listTools();
    const search = await code.client.callTool({ name: "search_tools", arguments: SEARCH });
    const text = (search.content as { type: string; text?: string }[]).map((c) => c.text ?? "").join("");
    const hits = (search.structuredContent as { tools?: unknown[] } | undefined)?.tools?.length ?? 0;
    const listTokens = jsonTokens(codeList);
    const searchTokens = jsonTokens(search);
    return {
      tools,
      servers,
      aggregate: { listed: list.tools.length, bytes: Buffer.byteLength(listJson), tokens: tokens(listJson) },
      code: { listed: codeList.tools.length, listTokens, searchTokens, searchTextTokens: tokens(text), searchHits: hits, total: listTokens + searchTokens },
      codeTools: Object.fromEntries(codeList.tools.map((t) => [t.name, jsonTokens(t)])),
    };
  } finally {
    await direct.close();
    await code.close();
  }
}
