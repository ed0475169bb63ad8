// The task list is live: a task an agent's call creates appears in an open Tasks page without a reload, brought
// by the tasks event stream. The page does not poll while the stream is up: no list request goes out between
// the agent's call and the first task event, and the list is refetched after it. A change that arrives while
// the first answer is still on its way is not lost.
import { expect, test, type Browser, type Page } from "./fixtures";
import { publishChange } from "@/server/events/change-bus";
import { connectAgent } from "./helpers-agent";
import { signInAsAdmin } from "./helpers";
import { e2eDb, myUserId, seedTask } from "./helpers-tasks";

const TOOL = "orders__export_orders";
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };

type Timeline = { events: { at: number; data: string }[]; lists: number[] };

/** Records, in the page's own clock, each `task` event the tasks stream delivers. */
function recordTaskEvents(page: Page) {
  return page.addInitScript(() => {
    const w = window as unknown as { __taskEvents: { at: number; data: string }[] };
    w.__taskEvents = [];
    const Native = window.EventSource;
    window.EventSource = class extends Native {
      constructor(url: string | URL, init?: EventSourceInit) {
        super(url, init);
        if (String(url).includes("/api/v1/tasks/events"))
          this.addEventListener("task", (e) => w.__taskEvents.push({ at: performance.now(), data: (e as MessageEvent<string>).data }));
      }
    };
  });
}

/** The task events so far and when each task-list request started, both in the page's performance clock. */
function timeline(page: Page): Promise<Timeline> {
  return page.evaluate(() => ({
    events: (window as unknown as { __taskEvents: { at: number; data: string }[] }).__taskEvents,
    lists: performance
      .getEntriesByType("resource")
      .filter((r) => /\/api\/v1\/tasks(\?|$)/.test(new URL(r.name).pathname + new URL(r.name).search.slice(0, 1)))
      .map((r) => r.startTime),
  }));
}

async function newTaskAppearsLive(browser: Browser, baseURL: string | undefined, options: Parameters<Browser["newContext"]>[0] = {}) {
  const context = await browser.newContext({ ...options, baseURL });
  const page = await context.newPage();
  await recordTaskEvents(page);
  await signInAsAdmin(page);
  const stream = page.waitForResponse((r) => new URL(r.url()).pathname === "/api/v1/tasks/events");
  await page.goto("/tasks");
  const streamed = await stream;
  expect(streamed.status()).toBe(200);
  expect(streamed.headers()["content-type"]).toMatch(/^text\/event-stream/);
  await expect(page.getByRole("heading", { name: "Everyone's tasks" })).toBeVisible();
  await expect(page.getByTestId("task-row").or(page.getByRole("heading", { name: "No tasks yet" })).first()).toBeVisible();

  const client = await connectAgent(page, baseURL, `live-${Math.random().toString(36).slice(2, 7)}`, [TOOL]);
  try {
    const before = await page.evaluate(() => performance.now());
    // The export runs ~3 s: after the 1 s threshold the agent is answered with a task id.
    const answer = await client.callTool({ name: TOOL, arguments: { format: "csv" } });
    const taskId = (answer.structuredContent as { task_id: string }).task_id;
    const row = page.locator(`[data-testid="task-row"][data-id="${taskId}"]`);
    await expect(row).toBeVisible();
    // State changes arrive the same way, to the end.
    await expect(row.getByTestId("task-status")).toHaveText("Succeeded", { timeout: 20_000 });

    const t = await timeline(page);
    const mine = t.events.filter((e) => e.data.includes(taskId));
    expect(mine.map((e) => JSON.parse(e.data) as { status: string }).map((e) => e.status)).toContain("SUCCEEDED");
    const firstEvent = Math.min(...t.events.filter((e) => e.at >= before).map((e) => e.at));
    const afterCall = t.lists.filter((at) => at >= before);
    // No poll while waiting for the task: every list request since the call followed a task event.
    expect(afterCall.filter((at) => at < firstEvent)).toEqual([]);
    expect(afterCall.length).toBeGreaterThan(0);
  } finally {
    await client.close();
    await context.close();
  }
}

test("a task an agent's call creates appears in the open Tasks page from the event stream, without polling", async ({ browser, baseURL }) => {
  await newTaskAppearsLive(browser, baseURL);
});

test("on a 390 px phone a new task appears live in the open Tasks page too", async ({ browser, baseURL }) => {
  await newTaskAppearsLive(browser, baseURL, PHONE);
});

test("a change that arrives while the list is still loading is not lost: the stale first answer is replaced", async ({ page }) => {
  const db = e2eDb();
  try {
    await recordTaskEvents(page);
    await signInAsAdmin(page);
    const me = await myUserId(page);
    // The first list answer is taken from the server at once but handed to the page only after the change.
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    let first = true;
    await page.route(
      (url) => url.pathname === "/api/v1/tasks",
      async (route) => {
        if (!first) return route.continue();
        first = false;
        const stale = await route.fetch();
        await released;
        await route.fulfill({ response: stale }).catch(() => undefined); // the page may have cancelled it
      },
    );
    const stream = page.waitForResponse((r) => new URL(r.url()).pathname === "/api/v1/tasks/events");
    await page.goto("/tasks");
    await stream;

    const task = await seedTask(db, { ownerId: me, toolName: `orders__late_${Math.random().toString(36).slice(2, 7)}`, status: "RUNNING" });
    await publishChange(db, { kind: "task", taskId: task.id, status: "RUNNING" });
    await expect.poll(async () => (await timeline(page)).events.some((e) => e.data.includes(task.id))).toBe(true);
    release();
    await expect(page.locator(`[data-testid="task-row"][data-id="${task.id}"]`)).toBeVisible();
  } finally {
    await db.$disconnect();
  }
});
