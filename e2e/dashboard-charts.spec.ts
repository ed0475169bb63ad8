// The dashboard's charts at a desktop and a 390 px phone: each names its series in a legend, the pointer over a
// minute shows that minute's values, the minute labels never overlap, and a click on a point or bar opens the
// audit search over exactly the calls it counts. A call held for an approver is not counted as a denial.
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { expect, test, type Locator, type Page } from "./fixtures";
import type { TDashboard } from "@/lib/dashboard-schemas";
import { signInAsAdmin } from "./helpers";
import { luminanceOf as luminance } from "./helpers-color";
import { connectAgent } from "./helpers-agent";

const TOOL = "orders__query_orders";
const HIGH = "orders__delete_order";
const NOT_WHITELISTED = "orders__update_order";

const dashboardNow = async (page: Page, window = 15) =>
  (await (await page.request.get(`/api/v1/dashboard?window=${String(window)}`)).json()) as TDashboard;

/** The plot area of a chart (its grid spans it). */
async function plotBox(chart: Locator) {
  const box = await chart.locator(".recharts-cartesian-grid").boundingBox();
  if (!box) throw new Error("the chart has no plot area");
  return box;
}

/**
 * Puts the pointer on the minute `at` of a chart of `n` minutes and waits for the tooltip to show that minute.
 * Lines place minutes on the edges of the plot (a point scale), bars in the middle of bands. The first minute
 * is read from the chart itself, so a refresh that moved the window by a minute is followed, not guessed.
 */
async function pointAtMinute(
  page: Page,
  chart: Locator,
  at: string,
  kind: "line" | "bar",
): Promise<{ x: number; y: number; bottom: number }> {
  const tooltip = page.getByTestId("chart-tooltip");
  const n = Number(await chart.getAttribute("data-points"));
  await chart.scrollIntoViewIfNeeded();
  for (let attempt = 0; attempt < 3; attempt++) {
    const box = await plotBox(chart);
    const y = box.y + box.height / 2;
    const xOf = (i: number) =>
      kind === "line" ? box.x + (i * box.width) / (n - 1) : box.x + ((i + 0.5) * box.width) / n;
    await page.mouse.move(xOf(0) + 1, y);
    await expect(tooltip).toBeVisible();
    const first = await tooltip.getAttribute("data-at");
    const i = Math.round((Date.parse(at) - Date.parse(first!)) / 60_000);
    await page.mouse.move(xOf(i), y);
    await expect(tooltip).toHaveAttribute("data-at", /.+/);
    if ((await tooltip.getAttribute("data-at")) === at) return { x: xOf(i), y, bottom: box.y + box.height };
  }
  throw new Error(`the chart never showed the minute ${at}`);
}

/** The newest minute of the window with `key` above zero, and its value. */
function latest(d: TDashboard, key: "calls" | "denials" | "held") {
  const p = [...d.series].reverse().find((x) => x[key] > 0);
  if (!p) throw new Error(`no minute with ${key}`);
  return { at: p.at, value: p[key] };
}

async function makeCalls(page: Page, baseURL: string | undefined): Promise<void> {
  const agentId = `charts-${Math.random().toString(36).slice(2, 7)}`;
  const client: Client = await connectAgent(page, baseURL, agentId, [TOOL, HIGH]);
  try {
    for (let i = 0; i < 2; i++)
      expect((await client.callTool({ name: TOOL, arguments: { limit: 3 } })).isError ?? false).toBe(false);
    const refused = await client
      .callTool({ name: NOT_WHITELISTED, arguments: { order_id: "ORD-10001", status: "paid" } })
      .catch((e: unknown) => e);
    expect(refused instanceof Error || (refused as { isError?: boolean }).isError === true).toBe(true);
  } finally {
    await client.close();
  }
}

for (const viewport of [
  { name: "desktop", width: 1280, height: 800 },
  { name: "phone", width: 390, height: 844 },
]) {
  test(`${viewport.name}: charts name their series, show values under the pointer and keep their minute labels apart`, async ({
    page,
    baseURL,
  }) => {
    await page.setViewportSize(viewport);
    await signInAsAdmin(page);
    await makeCalls(page, baseURL);
    await page.getByTestId("dashboard").getByRole("button", { name: "15 min" }).click();
    const calls = page.getByTestId("chart-calls");
    await expect(calls).toHaveAttribute("data-points", "15");
    await expect(calls.locator(".recharts-legend-item-text")).toHaveText(["Calls"]);
    await expect(page.getByTestId("chart-error-rate").locator(".recharts-legend-item-text")).toHaveText([
      "Failed calls",
    ]);
    await expect(page.getByTestId("chart-p95").locator(".recharts-legend-item-text")).toHaveText(["p95 latency"]);
    await expect(page.getByTestId("chart-denials").locator(".recharts-legend-item-text")).toHaveText([
      "Denials",
      "Held for approval",
    ]);
    await expect(page.getByTestId("chart-top-tools").locator(".recharts-legend-item-text")).toHaveText([
      "Calls",
      "Errors",
      "Denials",
    ]);

    const d = await dashboardNow(page);
    const minute = latest(d, "calls");
    await pointAtMinute(page, calls, minute.at, "line");
    const value = page.getByTestId("chart-tooltip").locator('[data-series="calls"]');
    await expect(value).toHaveAttribute("data-value", String(minute.value));
    await expect(value).toContainText(`Calls: ${String(minute.value)}`);

    // Minute labels along the bottom: at least two, none overlapping the next.
    const ticks = calls.locator(".recharts-xAxis-tick-labels text");
    await expect(ticks.nth(1)).toBeVisible();
    const boxes = (await ticks.evaluateAll((els) => els.map((e) => e.getBoundingClientRect()))).map((b) => ({
      left: b.left,
      right: b.right,
    }));
    for (let i = 1; i < boxes.length; i++) expect(boxes[i]!.left).toBeGreaterThanOrEqual(boxes[i - 1]!.right);
    expect(
      await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth),
    ).toBeLessThanOrEqual(0);
  });
}

test("clicking a minute of the calls chart opens the audit search over that minute's calls", async ({
  page,
  baseURL,
}) => {
  await signInAsAdmin(page);
  await makeCalls(page, baseURL);
  await page.getByTestId("dashboard").getByRole("button", { name: "15 min" }).click();
  const calls = page.getByTestId("chart-calls");
  await expect(calls).toHaveAttribute("data-points", "15");
  const minute = latest(await dashboardNow(page), "calls");
  const { x, y } = await pointAtMinute(page, calls, minute.at, "line");
  await page.mouse.click(x, y);

  await expect(page).toHaveURL(/\/audit\?/);
  const url = new URL(page.url());
  expect(url.searchParams.get("action")).toBe("tool.called");
  expect(url.searchParams.get("from")).toBe(minute.at);
  expect(url.searchParams.get("to")).toBe(new Date(Date.parse(minute.at) + 60_000).toISOString());
  await expect(page.getByTestId("audit-total")).toHaveAttribute("data-total", String(minute.value));
  const rows = page.getByTestId("audit-row");
  await expect(rows.first()).toBeVisible();
  for (const action of await rows.evaluateAll((els) => els.map((e) => e.getAttribute("data-action"))))
    expect(action).toBe("tool.called");
});

test("clicking a Denials bar opens the audit search over that minute's refused calls", async ({ page, baseURL }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signInAsAdmin(page);
  await makeCalls(page, baseURL);
  await page.getByTestId("dashboard").getByRole("button", { name: "15 min" }).click();
  const chart = page.getByTestId("chart-denials");
  await expect(chart).toHaveAttribute("data-points", "15");
  const minute = latest(await dashboardNow(page), "denials");
  const { x, bottom } = await pointAtMinute(page, chart, minute.at, "bar");
  await expect(page.getByTestId("chart-tooltip").locator('[data-series="denials"]')).toHaveAttribute(
    "data-value",
    String(minute.value),
  );
  // The Denials bar is the lowest of its stack: a click just above the axis lands on it.
  await page.mouse.click(x, bottom - 2);

  await expect(page).toHaveURL(/\/audit\?/);
  const url = new URL(page.url());
  expect(url.searchParams.get("status")).toBe("denied");
  expect(url.searchParams.get("from")).toBe(minute.at);
  await expect(page.getByTestId("audit-total")).toHaveAttribute("data-total", String(minute.value));
  for (const status of await page
    .getByTestId("audit-row")
    .evaluateAll((els) => els.map((e) => e.getAttribute("data-status"))))
    expect(status).toBe("denied");
});

test("a call held for an approver is not counted as a denial", async ({ page, baseURL }) => {
  await signInAsAdmin(page);
  const before = await dashboardNow(page, 60);
  await expect(page.getByTestId("stat-denials-value")).toHaveText(String(before.totals.denials));

  const client = await connectAgent(page, baseURL, `held-${Math.random().toString(36).slice(2, 7)}`, [HIGH]);
  try {
    const held = await client.callTool({ name: HIGH, arguments: { order_id: "ORD-10215", reason: "Counted apart" } });
    expect(held.structuredContent).toMatchObject({ status: "AWAITING_APPROVAL", approval_status: "PENDING" });
  } finally {
    await client.close();
  }

  // The card follows live: one more held call, the same denials.
  await expect(page.getByTestId("stat-denials")).toContainText(`${String(before.totals.held + 1)} held for approval`, {
    timeout: 20_000,
  });
  await expect(page.getByTestId("stat-denials-value")).toHaveText(String(before.totals.denials));
  await expect(page.getByTestId("chart-denials")).toHaveAttribute("data-total", String(before.totals.denials));
  const after = await dashboardNow(page, 60);
  expect(after.totals.denials).toBe(before.totals.denials);
  expect(after.totals.held).toBe(before.totals.held + 1);

  // The Held bar of that minute says so under the pointer.
  await page.getByTestId("dashboard").getByRole("button", { name: "15 min" }).click();
  const chart = page.getByTestId("chart-denials");
  await expect(chart).toHaveAttribute("data-points", "15");
  const minute = latest(await dashboardNow(page), "held");
  await pointAtMinute(page, chart, minute.at, "bar");
  await expect(page.getByTestId("chart-tooltip").locator('[data-series="held"]')).toHaveAttribute(
    "data-value",
    String(minute.value),
  );
});

test.describe("with the system set to dark", () => {
  test.use({ colorScheme: "dark" });

  test("a chart's tooltip is a dark surface with light text on a phone", async ({ page, baseURL }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await signInAsAdmin(page);
    await makeCalls(page, baseURL);
    await page.getByTestId("dashboard").getByRole("button", { name: "15 min" }).click();
    const calls = page.getByTestId("chart-calls");
    await expect(calls).toHaveAttribute("data-points", "15");
    await pointAtMinute(page, calls, latest(await dashboardNow(page), "calls").at, "line");
    const tooltip = page.getByTestId("chart-tooltip");
    expect(await luminance(tooltip, "backgroundColor")).toBeLessThan(0.05);
    expect(await luminance(tooltip.locator("p").first(), "color")).toBeGreaterThan(0.7);
    expect(await luminance(calls.locator(".recharts-legend-item-text span"), "color")).toBeGreaterThan(0.5);
  });
});
