// Audit search in the browser: a real agent calls tools through /mcp with the SDK (one allowed call, one the
// session's whitelist refuses), then the admin finds those calls on the Audit page by agent and tool, opens the
// event's story, downloads the filter as CSV, and the page still fits a 390 px phone.
import { readFile } from "node:fs/promises";
import { expect, test } from "./fixtures";
import { signInAsAdmin } from "./helpers";
import { connectAgent } from "./helpers-agent";

const TOOL = "orders__query_orders";
const REFUSED = "orders__update_order";

test("an admin filters the audit log by agent and tool, reads the story of a call and exports it", async ({ page, baseURL }) => {
  await signInAsAdmin(page);
  const agentId = `audited-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const client = await connectAgent(page, baseURL, agentId, [TOOL]);
  try {
    const ok = await client.callTool({ name: TOOL, arguments: { limit: 2 } });
    expect(ok.isError ?? false).toBe(false);
    // Not on the session's whitelist: refused (as an error result or a protocol error, either way audited).
    const refused = await client.callTool({ name: REFUSED, arguments: { order_id: "ord_1", status: "paid" } }).catch((err: unknown) => err);
    expect(refused instanceof Error || (refused as { isError?: boolean }).isError).toBeTruthy();
  } finally {
    await client.close();
  }

  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Audit" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Audit" })).toBeVisible();

  // Both calls of this agent, newest first: the refusal, then the query.
  await page.getByTestId("audit-filter-agent").fill(agentId);
  await page.getByTestId("audit-apply").click();
  await expect(page).toHaveURL(new RegExp(`agent=${agentId}`));
  const rows = page.getByTestId("audit-row");
  await expect(rows).toHaveCount(2);
  await expect(page.getByTestId("audit-total")).toHaveText("2 events");
  await expect(rows.nth(0)).toHaveAttribute("data-status", "denied");
  await expect(rows.nth(0)).toHaveAttribute("data-tool", REFUSED);
  await expect(rows.nth(1)).toHaveAttribute("data-status", "ok");

  // Narrowed to the tool: only the query is left, and the filter survives a reload (it is the URL).
  await page.getByTestId("audit-filter-tool").fill(TOOL);
  await page.getByTestId("audit-apply").click();
  await expect(rows).toHaveCount(1);
  await page.reload();
  await expect(page.getByTestId("audit-filter-tool")).toHaveValue(TOOL);
  await expect(page.getByTestId("audit-filter-agent")).toHaveValue(agentId);
  await expect(rows).toHaveCount(1);
  await expect(page.getByTestId("audit-total")).toHaveText("1 event");
  await expect(rows.first()).toHaveAttribute("data-tool", TOOL);

  // The status filter: nothing of this agent's query was denied.
  await page.getByTestId("audit-filter-status").selectOption("denied");
  await page.getByTestId("audit-apply").click();
  await expect(page.getByText("No events match")).toBeVisible();
  await page.getByTestId("audit-filter-status").selectOption("");
  await page.getByTestId("audit-apply").click();
  await expect(rows).toHaveCount(1);

  // The export of the current filter: a CSV with the header and this one call.
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByTestId("audit-export-csv").click()]);
  expect(download.suggestedFilename()).toMatch(/^portcullis-audit-.*\.csv$/);
  const csv = (await readFile((await download.path()), "utf8")).split("\r\n").filter(Boolean);
  expect(csv[0]).toMatch(/^id,occurredAt,requestId,action,/);
  expect(csv).toHaveLength(2);
  expect(csv[1]).toContain(agentId);
  expect(csv[1]).toContain(TOOL);

  // The event page: the story of the request, with the arguments the call carried.
  await rows.first().getByTestId("audit-row-link").click();
  await expect(page).toHaveURL(/\/audit\/\d+$/);
  await expect(page.getByRole("heading", { level: 1, name: TOOL })).toBeVisible();
  await expect(page.getByTestId("audit-summary")).toContainText(agentId);
  const steps = page.getByTestId("audit-story-step");
  await expect(steps.first()).toHaveAttribute("data-action", "tool.called");
  await expect(page.getByTestId("audit-story").getByTestId("audit-arguments").first()).toContainText("limit");

  // A phone: nothing scrolls sideways, on the event page and on the list.
  await page.setViewportSize({ width: 390, height: 844 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
  await page.goBack();
  await expect(rows).toHaveCount(1);
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
});

test("a non-admin is kept out of the audit log", async ({ page }) => {
  await page.goto("/audit/1");
  await expect(page).toHaveURL(/sign-?in|login/i);
});
