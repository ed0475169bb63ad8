// A real agent for the browser tests: an agent session made through the REST API with the signed-in page's
// cookies, and the MCP SDK client connected to /mcp with its token.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { expect, type Page } from "./fixtures";
import type { TCreatedSession } from "@/lib/policy-schemas";

/** Creates a session for `agentId` allowed `tools`, and connects an MCP client with its token. */
export async function connectAgent(
  page: Page,
  baseURL: string | undefined,
  agentId: string,
  tools: readonly string[],
): Promise<Client> {
  const res = await page.request.post("/api/v1/sessions", { data: { agentId, tools } });
  expect(res.status(), await res.text()).toBe(201);
  const session = (await res.json()) as TCreatedSession;
  const client = new Client({ name: agentId, version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL("/mcp", baseURL), {
      requestInit: { headers: { authorization: `Bearer ${session.token}` } },
    }),
  );
  return client;
}
