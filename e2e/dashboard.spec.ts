// The live dashboard on the console home: an agent's calls through /mcp (allowed, a refused one, a failed
// one) show up in the stat cards, the charts and the top tools without a reload, and the page fits a phone.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { expect, test, type Page } from "./fixtures";
import type { TCreatedSession } from "@/lib/policy-schemas";
import { signInAsAdmin } from "./helpers";

const TOOL = "orders__query_orders";
const NOT_WHITELISTED = "orders__update_order";

const statValue = (page: Page, id: string) => page.getByTestId(`${id}-value`);
const count = async (page: Page, id: string) => Number(await statValue(page, id).innerText());

test("an agent's calls appear on the dashboard live, without a reload", async ({ page, baseURL }) => {
  await signInAsAdmin(page);
  const dashboard = page.getByTestId("dashboard");
  await expect(dashboard.getByRole("heading", { name: "Gateway traffic" })).toBeVisible();
  await expect(statValue(page, "stat-calls")).toHaveText(/^\d+$/);
  const calls = await count(page, "stat-calls");
  const denials = await count(page, "stat-denials");
  await page.evaluate(() => ((window as unknown as { __sameDocument: boolean }).__sameDocument = true));

  const agentId = `dash-${Math.random().toString(36).slice(2, 7)}`;
  const res = await page.request.post("/api/v1/sessions", { data: { agentId, tools: [TOOL] } });
  expect(res.status(), await res.text()).toBe(201);
  const session = (await res.json()) as TCreatedSession;
  const client = new Client({ name: agentId, version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL("/mcp", baseURL), {
      requestInit: { headers: { authorization: `Bearer ${session.token}` } },
    }),
  );
  try {
    for (let i = 0; i < 3; i++)
      expect((await client.callTool({ name: TOOL, arguments: { limit: 5 } })).isError ?? false).toBe(false);
    // Not on the session's whitelist: refused by policy (a denial).
    const refused = await client
      .callTool({ name: NOT_WHITELISTED, arguments: { order_id: "ORD-10001", status: "paid" } })
      .catch((e: unknown) => e);
    expect(refused instanceof Error || (refused as { isError?: boolean }).isError === true).toBe(true);
    // Arguments the schema refuses: refused before the upstream, a denial too.
    expect((await client.callTool({ name: TOOL, arguments: { limit: 1000 } })).isError).toBe(true);
  } finally {
    await client.close();
  }

  // The page polls: the cards and charts follow without navigation.
  await expect(statValue(page, "stat-calls")).toHaveText(String(calls + 5), { timeout: 20_000 });
  await expect(statValue(page, "stat-denials")).toHaveText(String(denials + 2));
  await expect(statValue(page, "stat-error-rate")).toHaveText(/^\d+(\.\d)?%$/);
  await expect(statValue(page, "stat-p95")).toHaveText(/\d+ (ms|s)$/);
  await expect(page.getByTestId("chart-calls")).toHaveAttribute("data-total", String(calls + 5));
  await expect(page.getByTestId("chart-denials")).toHaveAttribute("data-total", String(denials + 2));
  await expect(page.getByTestId("chart-calls")).toHaveAttribute("data-points", "60");
  await expect(page.getByTestId("chart-calls").locator("svg path.recharts-curve").first()).toBeAttached();
  const topTool = page.locator(`[data-testid="top-tool"][data-tool="${TOOL}"]`);
  await expect(topTool).toBeAttached();
  expect(Number(await topTool.getAttribute("data-calls"))).toBeGreaterThanOrEqual(4);
  expect(await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);

  // A shorter window is a new query; the pending-approvals card leads to the queue.
  await dashboard.getByRole("button", { name: "15 min" }).click();
  await expect(page.getByTestId("chart-calls")).toHaveAttribute("data-points", "15");
  await expect(page.getByTestId("stat-pending-approvals")).toHaveAttribute("href", "/approvals");
  await page.getByTestId("stat-pending-approvals").click();
  await expect(page).toHaveURL(/\/approvals$/);
});

test("the dashboard fits a 390 px phone", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signInAsAdmin(page);
  await expect(page.getByTestId("chart-calls").locator("svg").first()).toBeVisible();
  // The previous test's calls are in the window: the top tools chart and its table are drawn too.
  await expect(page.locator('[data-testid="top-tool"]').first()).toBeAttached();
  await expect(page.getByTestId("stat-unhealthy-servers")).toBeVisible();
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow).toBeLessThanOrEqual(0);
});
