// The task monitor: a user follows their own tasks live, filters them, opens one and cancels it; nobody sees
// another user's tasks except admins. Tasks are seeded into the database as the engine leaves them.
import { expect, test, type Locator, type Page } from "./fixtures";
import type { Task } from "@/server/db/client";
import { publishChange } from "@/server/events/change-bus";
import { createUserViaApi, signIn, signInAsAdmin, uniqueEmail } from "./helpers";
import { e2eDb, myUserId, seedAgentSession, seedTask } from "./helpers-tasks";

const PASSWORD = "task-user-pass-1234";
const suffix = Math.random().toString(36).slice(2, 7);
const tool = (name: string) => `orders__${name}_${suffix}`;
const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000);

const db = e2eDb();
const ann = { email: uniqueEmail("tasks-ann"), id: "" };
const bob = { email: uniqueEmail("tasks-bob"), id: "" };
let t: Record<"running" | "succeeded" | "pending" | "failed" | "long" | "race" | "bobs" | "admins", Task>;

test.beforeAll(async ({ browser }) => {
  const page = await browser.newPage();
  await signInAsAdmin(page);
  const adminId = await myUserId(page);
  for (const u of [ann, bob])
    u.id = (await createUserViaApi(page.request, { email: u.email, role: "USER", password: PASSWORD })).id;
  await page.close();

  const session = await seedAgentSession(db, ann.id, "report-bot");
  t = {
    running: await seedTask(db, {
      ownerId: ann.id,
      toolName: tool("export"),
      status: "RUNNING",
      createdAt: minutesAgo(2),
      agentSessionId: session.id,
      progress: { progress: 3, total: 10, message: "page 3 of 10" },
    }),
    succeeded: await seedTask(db, {
      ownerId: ann.id,
      toolName: tool("count"),
      status: "SUCCEEDED",
      createdAt: minutesAgo(3),
      arguments: { since: "2024-01-01", region: "EU" },
      result: { content: [{ type: "text", text: "42 orders exported\nEU: 40, US: 2" }] },
    }),
    pending: await seedTask(db, {
      ownerId: ann.id,
      toolName: tool("queued"),
      status: "PENDING",
      createdAt: minutesAgo(4),
    }),
    failed: await seedTask(db, {
      ownerId: ann.id,
      toolName: tool("sync"),
      status: "FAILED",
      createdAt: minutesAgo(5),
      errorCode: "upstream_timeout",
      errorMessage: "The upstream did not answer within 30 s.",
    }),
    long: await seedTask(db, { ownerId: ann.id, toolName: tool("long"), status: "RUNNING", createdAt: minutesAgo(6) }),
    race: await seedTask(db, { ownerId: ann.id, toolName: tool("race"), status: "RUNNING", createdAt: minutesAgo(7) }),
    bobs: await seedTask(db, {
      ownerId: bob.id,
      toolName: tool("secret"),
      status: "RUNNING",
      createdAt: minutesAgo(1),
    }),
    admins: await seedTask(db, {
      ownerId: adminId,
      toolName: tool("mine"),
      status: "RUNNING",
      createdAt: minutesAgo(1),
    }),
  };
});

test.afterAll(async () => {
  await db.$disconnect();
});

async function signInAs(page: Page, email: string) {
  await signIn(page, email, PASSWORD);
  await expect(page.getByTestId("user-email")).toHaveText(email);
}

const row = (page: Page, task: Task): Locator => page.locator(`[data-testid="task-row"][data-id="${task.id}"]`);

async function confirmCancel(page: Page) {
  const dialog = page.getByRole("dialog", { name: "Cancel this task?" });
  await expect(dialog).toBeVisible();
  await dialog.getByRole("button", { name: "Cancel task" }).click();
}

test("a user sees their own running task with live progress and filters by state", async ({ page }) => {
  await signInAs(page, ann.email);
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Tasks" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Tasks" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Your tasks" })).toBeVisible();

  const running = row(page, t.running);
  await expect(running.getByTestId("task-status")).toHaveText("Running");
  const bar = running.getByRole("progressbar", { name: `Progress of ${tool("export")}` });
  await expect(bar).toHaveAttribute("aria-valuenow", "30");
  await expect(running).toContainText("page 3 of 10");
  await expect(running).toContainText("report-bot");
  // Another user's task is not listed, and a user has no owner column and no "Only mine".
  await expect(row(page, t.bobs)).toHaveCount(0);
  await expect(page.getByText(tool("secret"))).toHaveCount(0);
  await expect(page.getByRole("columnheader", { name: "Owner" })).toHaveCount(0);
  await expect(page.getByRole("switch", { name: "Only mine" })).toHaveCount(0);

  // Live: the engine reports progress and the bar moves without a reload; the duration ticks.
  const duration = running.getByTestId("task-duration");
  const before = await duration.textContent();
  // As the engine records progress: the row, then its change event (the list follows the event stream).
  await db.task.update({ where: { id: t.running.id }, data: { progress: 6, progressMessage: "page 6 of 10" } });
  await publishChange(db, { kind: "task", taskId: t.running.id, status: "RUNNING" });
  await expect(bar).toHaveAttribute("aria-valuenow", "60");
  await expect(running).toContainText("page 6 of 10");
  await expect(duration).not.toHaveText(before ?? "");

  const tabs = page.getByRole("tablist", { name: "Task states" });
  await tabs.getByRole("tab", { name: "Succeeded" }).click();
  await expect(page).toHaveURL(/\/tasks\?state=succeeded$/);
  await expect(page.getByRole("heading", { name: "Your tasks · succeeded" })).toBeVisible();
  await expect(row(page, t.succeeded)).toBeVisible();
  await expect(page.getByTestId("task-row")).toHaveCount(1);

  await tabs.getByRole("tab", { name: "Running" }).click();
  await expect(row(page, t.running)).toBeVisible();
  await expect(row(page, t.succeeded)).toHaveCount(0);
  for (const status of await page
    .getByTestId("task-row")
    .evaluateAll((rows) => rows.map((r) => r.getAttribute("data-status")))) {
    expect(status).toBe("RUNNING");
  }

  await tabs.getByRole("tab", { name: "Canceled" }).click();
  await expect(page.getByRole("heading", { name: "No canceled tasks" })).toBeVisible();

  // The state is in the URL: a reload keeps it.
  await page.goto("/tasks?state=failed");
  await expect(tabs.getByRole("tab", { name: "Failed" })).toHaveAttribute("aria-selected", "true");
  await expect(row(page, t.failed)).toContainText("upstream_timeout");
  await expect(page.getByTestId("task-row")).toHaveCount(1);
});

test("a task's detail shows its timeline, arguments and result preview", async ({ page }) => {
  await signInAs(page, ann.email);
  await page.goto("/tasks");
  await row(page, t.succeeded)
    .getByRole("link", { name: tool("count") })
    .click();
  await expect(page).toHaveURL(new RegExp(`/tasks/${t.succeeded.id}$`));
  await expect(page.getByRole("heading", { level: 1, name: tool("count") })).toBeVisible();
  await expect(page.getByTestId("task-status")).toHaveText("Succeeded");

  const events = page.getByRole("list", { name: "Task events" }).getByTestId("task-event");
  await expect(events).toHaveText([/^Submitted/, /^Started/, /^Succeeded.*Result \d+ B/]);
  await expect(page.getByTestId("task-result")).toHaveText("42 orders exported\nEU: 40, US: 2");
  expect(JSON.parse((await page.getByTestId("task-arguments").textContent()) ?? "")).toEqual({
    since: "2024-01-01",
    region: "EU",
  });
  await expect(page.getByRole("button", { name: /^Cancel/ })).toHaveCount(0);

  await page.getByRole("navigation", { name: "Breadcrumb" }).getByRole("link", { name: "Tasks" }).click();
  await expect(page).toHaveURL(/\/tasks$/);
  await row(page, t.failed).getByRole("link").click();
  await expect(page.getByTestId("task-error")).toContainText("upstream_timeout");
  await expect(page.getByTestId("task-error")).toContainText("The upstream did not answer within 30 s.");
  await expect(page.getByTestId("task-event").last()).toHaveAttribute("data-type", "failed");
  await expect(page.getByTestId("task-event").last()).toContainText("upstream_timeout");
});

test("a user cancels a running task and sees it canceled without a reload; a task that finished meanwhile answers 409", async ({
  page,
}) => {
  await signInAs(page, ann.email);
  await page.goto(`/tasks/${t.long.id}`);
  await expect(page.getByTestId("task-status")).toHaveText("Running");
  await page.getByRole("button", { name: `Cancel task ${tool("long")}` }).click();
  await confirmCancel(page);
  await expect(page.getByText(`Task ${tool("long")} canceled`)).toBeVisible();
  await expect(page.getByTestId("task-status")).toHaveText("Canceled");
  await expect(page.getByTestId("task-event").last()).toHaveAttribute("data-type", "canceled");
  await expect(page.getByTestId("task-event").last()).toContainText(`By ${ann.email}`);
  await expect(page.getByTestId("task-error")).toContainText("canceled");
  await expect(page.getByRole("button", { name: `Cancel task ${tool("long")}` })).toHaveCount(0);

  // From the list: the pending task.
  await page.goto("/tasks");
  await row(page, t.pending)
    .getByRole("button", { name: `Cancel task ${tool("queued")}` })
    .click();
  await confirmCancel(page);
  await expect(row(page, t.pending).getByTestId("task-status")).toHaveText("Canceled");
  await expect(row(page, t.pending).getByRole("button", { name: /^Cancel/ })).toHaveCount(0);

  // The task ends while the confirmation is open (its page keeps showing it running until then): 409, as a toast.
  await page.goto(`/tasks/${t.race.id}`);
  await expect(page.getByTestId("task-status")).toHaveText("Running");
  const stale: unknown = await (await page.request.get(`/api/v1/tasks/${t.race.id}`)).json();
  await page.route(`**/api/v1/tasks/${t.race.id}`, (route) => route.fulfill({ json: stale }));
  await db.task.update({ where: { id: t.race.id }, data: { status: "SUCCEEDED", finishedAt: new Date() } });
  await page.getByRole("button", { name: `Cancel task ${tool("race")}` }).click();
  await confirmCancel(page);
  await expect(page.getByText(/Could not cancel the task: .*already finished \(SUCCEEDED\)/)).toBeVisible();
  await page.unroute(`**/api/v1/tasks/${t.race.id}`);
  await expect(page.getByTestId("task-status")).toHaveText("Succeeded");
});

test("a user cannot see another user's task, not even by its address", async ({ page }) => {
  await signInAs(page, ann.email);
  await page.goto("/tasks");
  await expect(row(page, t.running)).toBeVisible();
  await expect(row(page, t.bobs)).toHaveCount(0);
  await page.goto(`/tasks/${t.bobs.id}`);
  await expect(page.getByRole("heading", { name: "There is no such task" })).toBeVisible();
  await expect(page.getByText(tool("secret"))).toHaveCount(0);
  expect((await page.request.get(`/api/v1/tasks/${t.bobs.id}`)).status()).toBe(404);
});

test("an admin sees everyone's tasks with their owners, and only their own with “Only mine”", async ({ page }) => {
  await signInAsAdmin(page, "/tasks");
  await expect(page.getByRole("heading", { name: "Everyone's tasks" })).toBeVisible();
  await expect(row(page, t.running)).toContainText(ann.email);
  await expect(row(page, t.bobs)).toContainText(bob.email);
  await expect(row(page, t.admins)).toBeVisible();

  const onlyMine = page.getByRole("switch", { name: "Only mine" });
  await onlyMine.click();
  await expect(onlyMine).toHaveAttribute("aria-checked", "true");
  await expect(page.getByRole("heading", { name: "Your tasks" })).toBeVisible();
  await expect(row(page, t.admins)).toBeVisible();
  await expect(row(page, t.running)).toHaveCount(0);
  await expect(row(page, t.bobs)).toHaveCount(0);
  await expect(page.getByRole("columnheader", { name: "Owner" })).toHaveCount(0);

  await onlyMine.click();
  await expect(row(page, t.bobs)).toBeVisible();
  // An admin may open anyone's task.
  await row(page, t.bobs).getByRole("link").click();
  await expect(page.getByRole("heading", { level: 1, name: tool("secret") })).toBeVisible();
  await expect(page.getByText(bob.email)).toBeVisible();
});

test("a user with more than a page of tasks pages through them", async ({ page }) => {
  await signInAsAdmin(page);
  const cy = { email: uniqueEmail("tasks-cy") };
  const id = (await createUserViaApi(page.request, { email: cy.email, role: "USER", password: PASSWORD })).id;
  for (let i = 0; i < 52; i++) {
    await seedTask(db, {
      ownerId: id,
      toolName: tool(`batch${i}`),
      status: "SUCCEEDED",
      createdAt: minutesAgo(60 - i),
    });
  }
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/signin$/);
  await signInAs(page, cy.email);
  await page.goto("/tasks");
  const pager = page.getByRole("navigation", { name: "Task pages" });
  await expect(page.getByTestId("task-row")).toHaveCount(50);
  await expect(page.getByTestId("task-row").first()).toContainText(tool("batch51"));
  await expect(pager).toContainText("Page 1");
  await pager.getByRole("button", { name: "Next" }).click();
  await expect(pager).toContainText("Page 2");
  await expect(page.getByTestId("task-row")).toHaveCount(2);
  await expect(page.getByTestId("task-row").last()).toContainText(tool("batch0"));
  await expect(pager.getByRole("button", { name: "Next" })).toBeDisabled();
  await pager.getByRole("button", { name: "Previous" }).click();
  await expect(page.getByTestId("task-row")).toHaveCount(50);
});

test.describe("at phone width", () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test("the task list and a task's detail fit a 390 px screen without sideways scrolling", async ({ page }) => {
    const overflow = () =>
      page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    await signInAs(page, ann.email);
    await page.goto("/tasks");
    const running = row(page, t.running);
    await expect(running.getByRole("progressbar", { name: `Progress of ${tool("export")}` })).toBeVisible();
    await expect(running.getByTestId("task-status")).toBeVisible();
    expect(await overflow()).toBeLessThanOrEqual(0);

    await page.goto(`/tasks/${t.succeeded.id}`);
    await expect(page.getByTestId("task-result")).toBeVisible();
    await expect(page.getByRole("list", { name: "Task events" })).toBeVisible();
    expect(await overflow()).toBeLessThanOrEqual(0);
  });
});
