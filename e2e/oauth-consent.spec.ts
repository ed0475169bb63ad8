import { auth } from "@modelcontextprotocol/sdk/client/auth.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { MemoryOAuthClient } from "@/server/oauth/as/oauth-test-client";
import { expect, test } from "./fixtures";
import { catchOAuthRedirect } from "./helpers-oauth";
import { signInAsAdmin } from "./helpers";

const TOOL = "orders__query_orders";
const OTHER_TOOL = "orders__export_orders";
const THIRD_TOOL = "orders__update_order";

test("an MCP client signs in through the console: the user consents to two tools, the client calls one, and a third is refused with insufficient_scope", async ({ page, baseURL }) => {
  const mcpUrl = `${baseURL}/mcp`;
  const client = new MemoryOAuthClient("E2E Desk Agent");
  expect(await auth(client, { serverUrl: mcpUrl })).toBe("REDIRECT");

  const redirect = await catchOAuthRedirect(page);

  // Signed out, the authorization request lands on sign-in, which comes back to the consent page.
  await page.goto(client.authorizationUrl!.href);
  await expect(page).toHaveURL(/\/signin\?callbackUrl=/);
  await signInAsAdmin(page);
  await page.goto(client.authorizationUrl!.href);
  await expect(page).toHaveURL(/\/authorize\/[^/]+$/);
  await expect(page.getByRole("heading", { name: "E2E Desk Agent asks to use Portcullis as you" })).toBeVisible();
  await expect(page.getByText("127.0.0.1:53682")).toBeVisible();
  await expect(page.getByText("not verified", { exact: false })).toBeVisible();

  await page.getByLabel(TOOL, { exact: true }).check();
  await page.getByLabel(OTHER_TOOL, { exact: true }).check();
  await page.getByRole("button", { name: "Allow" }).click();
  await expect.poll(() => redirect.url()?.pathname).toBe("/callback");
  expect(redirect.url()!.searchParams.get("iss")).toBe(baseURL);
  expect(await auth(client, { serverUrl: mcpUrl, authorizationCode: redirect.url()!.searchParams.get("code")! })).toBe("AUTHORIZED");

  const mcp = new Client({ name: "e2e-desk-agent", version: "1" });
  const transport = new StreamableHTTPClientTransport(new URL(mcpUrl), { authProvider: client });
  await mcp.connect(transport);
  try {
    const names = (await mcp.listTools()).tools.map((t) => t.name).filter((n) => n.startsWith("orders__"));
    expect(names.sort()).toEqual([OTHER_TOOL, TOOL].sort());
    const result = await mcp.callTool({ name: TOOL, arguments: {} });
    expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
    const third = await fetch(mcpUrl, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", authorization: `Bearer ${client.saved!.access_token}`, "mcp-session-id": transport.sessionId!, "mcp-protocol-version": "2025-06-18" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 9, method: "tools/call", params: { name: THIRD_TOOL, arguments: { order_id: "ORD-10001", status: "paid" } } }),
    });
    expect(third.status).toBe(403);
    expect(third.headers.get("www-authenticate")).toContain('error="insufficient_scope", scope="mcp"');
  } finally {
    await mcp.close();
  }

  // The consent is an agent session of the client, on the Agents page.
  await page.goto("/agents");
  await expect(page.getByText(`oauth:${String(client.info!.client_id)}`).first()).toBeVisible();
  // An admin sees the client among the OAuth clients, with its live session and a way to block it.
  const clients = page.getByRole("region", { name: "OAuth clients" });
  const row = clients.getByTestId("oauth-client-row").filter({ hasText: String(client.info!.client_id) });
  await expect(row.getByText("E2E Desk Agent")).toBeVisible();
  await expect(row.getByRole("cell", { name: "1", exact: true })).toBeVisible();
  // Blocking it revokes its session: the token is refused from then on.
  await row.getByRole("button", { name: "Block E2E Desk Agent" }).click();
  await page.getByLabel("Reason (optional)").fill("e2e");
  await page.getByRole("button", { name: "Block client" }).click();
  await expect(row.getByText("Blocked", { exact: true })).toBeVisible();
  await expect(row.getByRole("cell", { name: "0", exact: true })).toBeVisible();
  const refused = await fetch(mcpUrl, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", authorization: `Bearer ${client.saved!.access_token}` },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "e2e", version: "1" } } }),
  });
  expect(refused.status).toBe(401);
  await row.getByRole("button", { name: "Unblock E2E Desk Agent" }).click();
  await expect(row.getByRole("button", { name: "Block E2E Desk Agent" })).toBeVisible();
});
