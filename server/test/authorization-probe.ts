// A Streamable HTTP upstream with one tool (`whoami`, answers "ok") that records the Authorization header of
// every request it receives: for tests that a client's token never reaches an upstream server.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { serveWebHandler, type ServedHandler } from "./serve-web-handler";

export async function serveAuthorizationProbe(): Promise<ServedHandler & { seen: (string | null)[] }> {
  const seen: (string | null)[] = [];
  const served = await serveWebHandler(async (req, body) => {
    seen.push(req.headers.get("authorization"));
    const server = new McpServer({ name: "probe", version: "1" });
    server.registerTool("whoami", { description: "answers ok" }, () => ({ content: [{ type: "text", text: "ok" }] }));
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    await server.connect(transport);
    return transport.handleRequest(req, { parsedBody: body ? (JSON.parse(body) as unknown) : undefined });
  });
  return { ...served, seen };
}
