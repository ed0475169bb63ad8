// Runs the demo orders MCP server: over stdio (default), or Streamable HTTP with `--http <port>`.
// DEMO_DATABASE_URL names its database (created by ensureDemoDatabase on first start).
import http from "node:http";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { createOrdersServer } from "../server/demo/orders-server";

const databaseUrl = process.env.DEMO_DATABASE_URL;
if (!databaseUrl) {
  console.error("DEMO_DATABASE_URL is not set");
  process.exit(2);
}
const exportStepMs = process.env.DEMO_EXPORT_STEP_MS ? Number(process.env.DEMO_EXPORT_STEP_MS) : undefined;
const httpPort = process.argv.indexOf("--http") > 0 ? Number(process.argv[process.argv.indexOf("--http") + 1]) : undefined;

if (httpPort === undefined) {
  const { server } = createOrdersServer({ databaseUrl, exportStepMs });
  await server.connect(new StdioServerTransport());
} else {
  // Stateless Streamable HTTP: a fresh server per request.
  const srv = http.createServer((req, res) => {
    const orders = createOrdersServer({ databaseUrl, exportStepMs });
    const { server } = orders;
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: false });
    res.on("close", () => void transport.close().then(() => orders.close()));
    void server.connect(transport).then(() => transport.handleRequest(req, res));
  });
  srv.listen(httpPort, "127.0.0.1", () => console.error(`orders MCP server on http://127.0.0.1:${httpPort}/mcp`));
}
