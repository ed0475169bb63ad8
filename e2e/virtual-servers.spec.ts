// Virtual servers: an admin composes one from a registered server's tool, renamed and described anew, sees it
// listed with the URL agents connect to, and an agent session scoped to it lists the renamed tool there; an OAuth
// client authorizing for a virtual server's endpoint is told so on the consent page and sees its tools.
import { fileURLToPath } from "node:url";
import { auth } from "@modelcontextprotocol/sdk/client/auth.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { MemoryOAuthClient } from "@/server/oauth/as/oauth-test-client";
import { expect, test } from "./fixtures";
import { catchOAuthRedirect } from "./helpers-oauth";
import { signInAsAdmin } from "./helpers";

const CATALOG_SERVER = fileURLToPath(new URL("./fixtures/catalog-server.ts", import.meta.url));
const TSX_LOADER = fileURLToPath(new URL("../node_modules/tsx/dist/loader.mjs", import.meta.url));

test("admin creates a virtual server from a server's tool, renamed, and sees it listed with its connect URL", async ({ page }) => {
  await signInAsAdmin(page);
  const id = Date.now().toString(36);
  const slug = `vcat-${id}`;
  const name = `desk-${id}`;
  const created = await page.request.post("/api/v1/servers", {
    data: { slug, name: `Catalog ${slug}`, transport: "stdio", command: process.execPath, args: ["--import", TSX_LOADER, CATALOG_SERVER], isolation: { profile: "none" } },
  });
  expect(created.status(), await created.text()).toBe(201);

  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Virtual servers" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Virtual servers" })).toBeVisible();
  await page.getByTestId("vs-new").click();
  const dialog = page.getByRole("dialog", { name: "New virtual server" });
  await dialog.getByTestId("vs-name-input").fill(name);
  await dialog.getByTestId("vs-instructions").fill("Look things up in the catalogue.");
  await dialog.getByTestId("vs-server").selectOption(slug);
  await dialog.getByTestId("vs-name").selectOption("find_item");
  await dialog.getByTestId("vs-add-member").click();
  const member = dialog.getByTestId("vs-member");
  await expect(member).toContainText(`${slug} · find_item`);
  await member.getByTestId("vs-member-rename").fill("lookup");
  await member.getByTestId("vs-member-description").fill("Finds one catalogue item by its name.");
  await dialog.getByTestId("vs-save").click();
  await expect(page.getByText(`Virtual server ${name} created`).first()).toBeVisible();

  const row = page.locator(`[data-testid="vs-row"][data-name="${name}"]`);
  await expect(row).toBeVisible();
  await expect(row.getByTestId("vs-members")).toHaveText("lookup");
  const origin = new URL(page.url()).origin;
  await expect(row.getByTestId("vs-url")).toHaveText(`${origin}/mcp/v/${name}`);

  // Through the REST API as stored, and served: an agent session scoped to it lists the renamed tool.
  const stored = (await (await page.request.get(`/api/v1/virtual-servers/${name}`)).json()) as { instructions: string; members: { exposedName: string; description: string }[] };
  expect(stored).toMatchObject({ instructions: "Look things up in the catalogue.", members: [{ exposedName: "lookup", description: "Finds one catalogue item by its name." }] });
  const session = await page.request.post("/api/v1/sessions", { data: { agentId: "e2e-virtual", tools: ["*"], virtualServer: name } });
  expect(session.status(), await session.text()).toBe(201);
  const { token } = (await session.json()) as { token: string };
  const headers = { authorization: `Bearer ${token}`, "content-type": "application/json", accept: "application/json, text/event-stream" };
  const init = await page.request.post(`/mcp/v/${name}`, {
    headers,
    data: { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "e2e", version: "1" } } },
  });
  expect(init.status(), await init.text()).toBe(200);
  const list = await page.request.post(`/mcp/v/${name}`, { headers: { ...headers, "mcp-session-id": init.headers()["mcp-session-id"]! }, data: { jsonrpc: "2.0", id: 2, method: "tools/list", params: {} } });
  const tools = ((await list.json()) as { result: { tools: { name: string; description: string }[] } }).result.tools;
  expect(tools.find((t) => t.name === "lookup")?.description).toBe("Finds one catalogue item by its name.");
  expect((await page.request.post("/mcp", { headers, data: { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "e2e", version: "1" } } } })).status()).toBe(403);

  // A member whose tool an admin disables is marked on the page: agents no longer see it.
  const disabled = await page.request.patch(`/api/v1/tools/${slug}__find_item`, { data: { enabled: false } });
  expect(disabled.status(), await disabled.text()).toBe(200);
  await page.reload();
  await expect(row.getByTestId("vs-member-unserved")).toHaveText("lookup (not served)");
});

test("an MCP client authorizing for a virtual server: the consent page says so, and the client sees that server's renamed tool", async ({ page, baseURL }) => {
  await signInAsAdmin(page);
  const name = `oauth-desk-${Date.now().toString(36)}`;
  const created = await page.request.post("/api/v1/virtual-servers", { data: { name, members: [{ kind: "tool", server: "orders", name: "query_orders", exposedName: "find_orders" }] } });
  expect(created.status(), await created.text()).toBe(201);
  const mcpUrl = `${baseURL}/mcp/v/${name}`;
  const client = new MemoryOAuthClient("E2E Virtual Agent");
  expect(await auth(client, { serverUrl: mcpUrl })).toBe("REDIRECT");
  const redirect = await catchOAuthRedirect(page);

  await page.goto(client.authorizationUrl!.href);
  await expect(page).toHaveURL(/\/authorize\/[^/]+$/);
  await expect(page.getByTestId("consent-virtual-server")).toContainText(name);
  await page.getByLabel("orders__query_orders", { exact: true }).check();
  await page.getByRole("button", { name: "Allow" }).click();
  await expect.poll(() => redirect.url()?.pathname).toBe("/callback");
  expect(await auth(client, { serverUrl: mcpUrl, authorizationCode: redirect.url()!.searchParams.get("code")! })).toBe("AUTHORIZED");

  const mcp = new Client({ name: "e2e-virtual-agent", version: "1" });
  await mcp.connect(new StreamableHTTPClientTransport(new URL(mcpUrl), { authProvider: client }));
  try {
    const names = (await mcp.listTools()).tools.map((t) => t.name);
    expect(names).toContain("find_orders");
    expect(names.some((n) => n.startsWith("orders__"))).toBe(false);
    const result = await mcp.callTool({ name: "find_orders", arguments: {} });
    expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
  } finally {
    await mcp.close();
  }
});
