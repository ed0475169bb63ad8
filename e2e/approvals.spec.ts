// Human approval end to end: a real agent (the SDK client on /mcp, in a session the admin made) calls the demo's
// high-risk orders__delete_order; the call is held, and an approver with the Approvals page open sees the
// request arrive live, decides it, and the agent follows its task to the real upstream result or the refusal.
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { expect, test, type Browser, type BrowserContext, type Locator, type Page } from "./fixtures";
import { ADMIN_EMAIL } from "./constants";
import { createUserViaApi, signIn, signInAsAdmin, uniqueEmail } from "./helpers";
import { connectAgent } from "./helpers-agent";

const TOOL = "orders__delete_order";
const PASSWORD = "approver-pass-1234";
const approverEmail = uniqueEmail("approver");
const secondApproverEmail = uniqueEmail("approver2");

type Held = { task_id: string; status: string; approval_id: string; approval_status: string };
type TaskStatus = { status: string; error_code: string | null; error_message: string | null };

/** The admin's agent, allowed only the high-risk delete. */
type Agent = {
  agentId: string;
  client: Client;
  hold(orderId: string, reason: string, intent?: string): Promise<Held>;
  status(taskId: string): Promise<TaskStatus>;
  close(): Promise<void>;
};

async function adminAgent(page: Page, baseURL: string | undefined): Promise<Agent> {
  const agentId = `cleanup-bot-${Math.random().toString(36).slice(2, 7)}`;
  const client = await connectAgent(page, baseURL, agentId, [TOOL]);
  return {
    agentId,
    client,
    async hold(orderId, reason, intent) {
      const answer = await client.callTool({
        name: TOOL,
        arguments: { order_id: orderId, reason },
        ...(intent && { _meta: { intent } }),
      });
      const held = answer.structuredContent as Held;
      expect(held).toMatchObject({ status: "AWAITING_APPROVAL", approval_status: "PENDING" });
      return held;
    },
    async status(taskId) {
      return (await client.callTool({ name: "get_task_status", arguments: { task_id: taskId } }))
        .structuredContent as TaskStatus;
    },
    close: () => client.close(),
  };
}

type State = Awaited<ReturnType<BrowserContext["storageState"]>>;
/** Signed-in sessions, made once: each test opens fresh browser contexts with them. */
let adminState: State;
let approverState: State;
let secondApproverState: State;

/** The admin, signed in. */
async function adminPage(browser: Browser): Promise<Page> {
  return (await browser.newContext({ storageState: adminState })).newPage();
}

/** The approver, signed in in a browser context of their own. */
async function approverPage(browser: Browser, opts: Parameters<Browser["newContext"]>[0] = {}): Promise<Page> {
  return (await browser.newContext({ ...opts, storageState: approverState })).newPage();
}

/** The admin's page and agent and an approver's page, for one test; all closed again after `run`. */
async function withAgentAndApprover(
  browser: Browser,
  baseURL: string | undefined,
  run: (actors: { page: Page; agent: Agent; approver: Page }) => Promise<void>,
  approverOpts: Parameters<Browser["newContext"]>[0] = {},
) {
  const page = await adminPage(browser);
  const agent = await adminAgent(page, baseURL);
  const approver = await approverPage(browser, approverOpts);
  try {
    await run({ page, agent, approver });
  } finally {
    await agent.close();
    await page.context().close();
    await approver.context().close();
  }
}

const row = (page: Page, id: string): Locator => page.locator(`[data-testid="approval-row"][data-id="${id}"]`);

/** Opens the queue and waits until it is loaded and live. */
async function openQueue(page: Page) {
  await page.goto("/approvals");
  await expect(page.getByRole("heading", { level: 1, name: "Approvals" })).toBeVisible();
  await expect(page.getByTestId("approvals-live")).toHaveAttribute("data-live", "true");
  await expect(page.getByRole("heading", { name: "Waiting for a decision" })).toBeVisible();
  await expect(page.getByRole("status").filter({ hasText: "Loading" })).toHaveCount(0);
}

test.beforeAll(async ({ browser }) => {
  const page = await browser.newPage();
  await signInAsAdmin(page);
  adminState = await page.context().storageState();
  for (const email of [approverEmail, secondApproverEmail])
    await createUserViaApi(page.request, { email, role: "APPROVER", password: PASSWORD });
  await page.context().close();
  const signedIn = async (email: string) => {
    const p = await browser.newPage();
    await signIn(p, email, PASSWORD);
    await expect(p.getByTestId("user-email")).toHaveText(email);
    const state = await p.context().storageState();
    await p.context().close();
    return state;
  };
  approverState = await signedIn(approverEmail);
  secondApproverState = await signedIn(secondApproverEmail);
});

/** Pending requests as the API counts them (the badge's source), for a badge that reads it. */
async function pendingCount(page: Page): Promise<number> {
  const res = await page.request.get("/api/v1/approvals?status=PENDING&limit=99");
  expect(res.status()).toBe(200);
  return ((await res.json()) as { items: unknown[] }).items.length;
}

/** Opens a page and waits until the approvals stream the nav badge listens on is open. */
async function gotoWithLiveBadge(page: Page, path: string) {
  const stream = page.waitForResponse((r) => r.url().endsWith("/api/v1/approvals/events"));
  await page.goto(path);
  await stream;
}

test("the Approvals nav badge counts pending requests live on any page and drops when one is decided", async ({
  browser,
  baseURL,
}) => {
  await withAgentAndApprover(browser, baseURL, async ({ agent, approver }) => {
    await gotoWithLiveBadge(approver, "/settings");
    const before = await pendingCount(approver);
    const badge = approver.getByTestId("nav-badge-approvals");
    if (before > 0) await expect(badge).toHaveText(String(before));
    else await expect(badge).toHaveCount(0);

    const held = await agent.hold("ORD-10211", "Counted by the badge");
    await expect(badge).toHaveText(String(before + 1));
    await expect(badge).toHaveAccessibleName(`${before + 1} pending`);

    const decided = await approver.request.post(`/api/v1/approvals/${held.approval_id}/decision`, {
      data: { decision: "reject", comment: "badge test" },
    });
    expect(decided.status(), await decided.text()).toBe(200);
    if (before > 0) await expect(badge).toHaveText(String(before));
    else await expect(badge).toHaveCount(0);
  });
});

test("an approver approves a delete that appears live, and the agent receives the real result", async ({
  browser,
  baseURL,
}) => {
  await withAgentAndApprover(browser, baseURL, async ({ agent, approver }) => {
    await openQueue(approver);
    const held = await agent.hold(
      "ORD-10201",
      "Duplicate of ORD-10200, created by a retry",
      "Remove the duplicate order the customer complained about",
    );
    expect(await agent.status(held.task_id)).toMatchObject({ status: "AWAITING_APPROVAL" });

    // The request shows up without a reload.
    const r = row(approver, held.approval_id);
    await expect(r).toBeVisible();
    await expect(r).toContainText(TOOL);
    await expect(r).toContainText(ADMIN_EMAIL);
    await expect(r).toContainText("high-risk");
    await expect(r.getByTestId("approval-age")).toHaveText(/\d+ s/);

    await r.getByRole("link", { name: TOOL }).click();
    await expect(approver).toHaveURL(new RegExp(`/approvals/${held.approval_id}$`));
    await expect(approver.getByRole("heading", { level: 1, name: TOOL })).toBeVisible();
    await expect(approver.getByTestId("approval-status")).toHaveText("Pending");
    await expect(approver.getByTestId("approval-justification")).toHaveText(
      "Remove the duplicate order the customer complained about",
    );
    const args = approver.getByTestId("argument-row");
    await expect(args).toHaveCount(2);
    await expect(approver.locator('[data-testid="argument-row"][data-name="order_id"]')).toContainText("ORD-10201");
    await expect(approver.locator('[data-testid="argument-row"][data-name="order_id"]')).toContainText("required");
    await expect(approver.locator('[data-testid="argument-row"][data-name="reason"]')).toContainText(
      "Duplicate of ORD-10200",
    );
    await expect(approver.getByTestId("approval-task")).toContainText("Awaiting approval");

    await approver.getByTestId("decision-comment").fill("Confirmed with the customer: duplicate");
    await approver.getByTestId("approve-button").click();
    await expect(approver.getByText(`Approved ${TOOL}`)).toBeVisible();
    await expect(approver.getByTestId("approval-status")).toHaveText("Approved");
    await expect(approver.getByTestId("approval-decision")).toContainText(`Approved by ${approverEmail}`);
    await expect(approver.getByTestId("approval-decision")).toContainText("Confirmed with the customer: duplicate");
    await expect(approver.getByTestId("approve-button")).toHaveCount(0);

    // The agent follows its task to the upstream's answer.
    await expect.poll(async () => (await agent.status(held.task_id)).status, { timeout: 20_000 }).toBe("SUCCEEDED");
    const result = await agent.client.callTool({ name: "get_task_result", arguments: { task_id: held.task_id } });
    expect((result.content as { type: string; text: string }[])[0]!.text).toBe("Deleted order ORD-10201.");
    await expect(approver.getByTestId("approval-task")).toContainText("Succeeded");
  });
});

test("an approver rejects with a comment and the agent's task ends CANCELED with the reason", async ({
  browser,
  baseURL,
}) => {
  await withAgentAndApprover(browser, baseURL, async ({ agent, approver }) => {
    const held = await agent.hold("ORD-10202", "Customer asked to cancel");
    await approver.goto(`/approvals/${held.approval_id}`);
    await expect(approver.getByTestId("approval-status")).toHaveText("Pending");
    // Rejecting needs a comment: the agent is told it.
    await approver.getByTestId("reject-button").click();
    await expect(approver.getByRole("alert").filter({ hasText: "Say why you reject it" })).toBeVisible();
    await expect(approver.getByTestId("approval-status")).toHaveText("Pending");
    await approver.getByTestId("decision-comment").fill("Paid orders are cancelled, not deleted");
    await approver.getByTestId("reject-button").click();
    await expect(approver.getByTestId("approval-status")).toHaveText("Rejected");
    await expect(approver.getByTestId("approval-decision")).toHaveAttribute("data-decision", "reject");

    const s = await agent.status(held.task_id);
    expect(s).toMatchObject({ status: "CANCELED", error_code: "approval_rejected" });
    expect(s.error_message).toContain("Paid orders are cancelled, not deleted");
    await expect(approver.getByTestId("approval-task")).toContainText("Canceled");
  });
});

test("the requester opening their own request cannot approve it", async ({ browser, baseURL }) => {
  const page = await adminPage(browser);
  const agent = await adminAgent(page, baseURL);
  try {
    const held = await agent.hold("ORD-10207", "Test order");
    await page.goto(`/approvals/${held.approval_id}`);
    await expect(page.getByTestId("approval-status")).toHaveText("Pending");
    await expect(page.getByTestId("decision-blocked")).toContainText("Your own request");
    await expect(page.getByTestId("approve-button")).toHaveCount(0);
    await expect(page.getByTestId("reject-button")).toHaveCount(0);
    // In the queue, their own row cannot be selected for a bulk decision either.
    await page.goto("/approvals");
    await expect(row(page, held.approval_id).getByTestId("approval-select")).toBeDisabled();
    await expect(row(page, held.approval_id)).toContainText("Your own request");
    // The API says the same (403).
    const res = await page.request.post(`/api/v1/approvals/${held.approval_id}/decision`, {
      data: { decision: "approve" },
    });
    expect(res.status()).toBe(403);
    // They may withdraw it, which cancels the held call.
    await page.goto(`/approvals/${held.approval_id}`);
    await page.getByTestId("revoke-button").click();
    await page
      .getByRole("dialog", { name: "Withdraw this request?" })
      .getByRole("button", { name: "Withdraw" })
      .click();
    await expect(page.getByTestId("approval-status")).toHaveText("Withdrawn");
    expect(await agent.status(held.task_id)).toMatchObject({ status: "CANCELED", error_code: "approval_withdrawn" });
  } finally {
    await agent.close();
    await page.context().close();
  }
});

test("an approver approves two requests at once with one comment", async ({ browser, baseURL }) => {
  await withAgentAndApprover(browser, baseURL, async ({ agent, approver }) => {
    await openQueue(approver);
    const one = await agent.hold("ORD-10203", "Test order, batch cleanup");
    const two = await agent.hold("ORD-10204", "Test order, batch cleanup");
    for (const h of [one, two]) await row(approver, h.approval_id).getByTestId("approval-select").check();
    await expect(approver.getByRole("toolbar", { name: "Bulk actions" })).toContainText("2 selected");
    await approver.getByTestId("bulk-approve").click();
    const dialog = approver.getByRole("dialog", { name: "Approve 2 requests?" });
    await dialog.getByLabel("Comment (optional)").fill("Batch cleanup of test orders");
    await dialog.getByTestId("bulk-confirm").click();
    await expect(approver.getByText("Approved 2 requests")).toBeVisible();
    await expect(row(approver, one.approval_id)).toHaveCount(0);
    await expect(row(approver, two.approval_id)).toHaveCount(0);

    for (const h of [one, two]) {
      await expect.poll(async () => (await agent.status(h.task_id)).status, { timeout: 20_000 }).toBe("SUCCEEDED");
    }
    const detail = (await (await approver.request.get(`/api/v1/approvals/${two.approval_id}`)).json()) as {
      status: string;
      decisionComment: string;
    };
    expect(detail).toMatchObject({ status: "USED", decisionComment: "Batch cleanup of test orders" });
  });
});

test("the history lists decided requests and filters them by outcome and requester", async ({ browser, baseURL }) => {
  await withAgentAndApprover(browser, baseURL, async ({ agent, approver }) => {
    const approved = await agent.hold("ORD-10205", "History check");
    const rejected = await agent.hold("ORD-10206", "History check");
    for (const [h, decision] of [
      [approved, "approve"],
      [rejected, "reject"],
    ] as const) {
      const res = await approver.request.post(`/api/v1/approvals/${h.approval_id}/decision`, {
        data: { decision, comment: `history ${decision}` },
      });
      expect(res.status(), await res.text()).toBe(200);
    }

    await approver.goto("/approvals");
    const tabs = approver.getByRole("tablist", { name: "Approval lists" });
    await tabs.getByRole("tab", { name: "History" }).click();
    await expect(approver).toHaveURL(/\/approvals\?tab=history$/);
    // Newest first.
    await expect(approver.getByTestId("approval-row").first()).toHaveAttribute("data-id", rejected.approval_id);
    await expect(row(approver, approved.approval_id).getByTestId("approval-status")).toHaveText("Approved");
    await expect(row(approver, rejected.approval_id).getByTestId("approval-status")).toHaveText("Rejected");

    const filters = approver.getByRole("search", { name: "Filter the history" });
    await filters.getByLabel("Outcome").selectOption({ label: "Rejected" });
    await filters.getByLabel("Tool", { exact: true }).fill(TOOL);
    await filters.getByRole("button", { name: "Filter" }).click();
    await expect(row(approver, approved.approval_id)).toHaveCount(0);
    await expect(row(approver, rejected.approval_id)).toContainText("history reject");
    for (const status of await approver
      .getByTestId("approval-row")
      .evaluateAll((rows) => rows.map((r) => r.getAttribute("data-status")))) {
      expect(status).toBe("REJECTED");
    }

    await filters.getByLabel("Outcome").selectOption({ label: "Approved" });
    await filters.getByLabel("Requester e-mail").fill(approverEmail);
    await filters.getByRole("button", { name: "Filter" }).click();
    await expect(approver.getByTestId("history-empty")).toHaveText("No decided requests match these filters.");
    await filters.getByLabel("Requester e-mail").fill(ADMIN_EMAIL);
    const today = new Date().toLocaleDateString("en-CA"); // yyyy-mm-dd in the browser's zone (both run here)
    await filters.getByLabel("From").fill(today);
    await filters.getByLabel("To", { exact: true }).fill(today);
    await filters.getByRole("button", { name: "Filter" }).click();
    await expect(row(approver, approved.approval_id)).toBeVisible();
    await expect(row(approver, rejected.approval_id)).toHaveCount(0);

    await filters.getByRole("button", { name: "Clear" }).click();
    await expect(row(approver, rejected.approval_id)).toBeVisible();
  });
});

test("an approver also allows the tool for the session a while, and revokes that standing approval", async ({
  browser,
  baseURL,
}) => {
  await withAgentAndApprover(browser, baseURL, async ({ page, agent, approver }) => {
    const held = await agent.hold("ORD-10214", "Cleanup, first of several");
    await approver.goto(`/approvals/${held.approval_id}`);
    await approver.getByLabel("Also allow this tool for this session for").selectOption({ label: "15 minutes" });
    await approver.getByTestId("approve-button").click();
    await expect(approver.getByTestId("approval-status")).toHaveText("Approved");

    // The next delete of that session runs without asking.
    const direct = await agent.client.callTool({
      name: TOOL,
      arguments: { order_id: "ORD-10215", reason: "Cleanup, second" },
    });
    expect((direct.content as { type: string; text: string }[])[0]!.text).toBe("Deleted order ORD-10215.");

    const list = (await (await approver.request.get("/api/v1/approvals?kind=STANDING&status=APPROVED")).json()) as {
      items: { id: string; agentId: string | null }[];
    };
    const standing = list.items.find((a) => a.agentId === agent.agentId);
    expect(standing).toBeDefined();
    await approver.goto("/approvals?tab=history");
    await expect(row(approver, standing!.id)).toContainText("Standing approval");
    await row(approver, standing!.id).getByRole("link", { name: TOOL }).click();
    await expect(approver).toHaveURL(new RegExp(`/approvals/${standing!.id}$`));
    await expect(approver.getByRole("heading", { level: 1, name: TOOL })).toBeVisible();
    await expect(approver.getByTestId("approval-status")).toHaveText("Approved");
    await approver.getByTestId("revoke-button").click();
    await approver
      .getByRole("dialog", { name: "Withdraw this standing approval?" })
      .getByRole("button", { name: "Withdraw" })
      .click();
    await expect(approver.getByText(`Approval of ${TOOL} withdrawn`)).toBeVisible();
    await expect(approver.getByTestId("approval-status")).toHaveText("Withdrawn");
    await expect(approver.getByTestId("revoke-button")).toHaveCount(0);

    // Held again from now on.
    const again = await agent.hold("ORD-10216", "Cleanup, third");
    // Leave no request waiting: the requester withdraws it.
    expect((await page.request.post(`/api/v1/approvals/${again.approval_id}/revoke`)).status()).toBe(200);
  });
});

test("a tool set to need a second approver runs only after two different approvers approve", async ({
  browser,
  baseURL,
}) => {
  const page = await adminPage(browser);
  await page.goto(`/tools/${TOOL}`);
  const second = page.getByRole("switch", { name: "Needs a second approver" });
  await expect(second).toHaveAttribute("aria-checked", "false");
  await second.click();
  await expect(second).toHaveAttribute("aria-checked", "true");
  await expect(page.getByText(`${TOOL} now needs two approvers for each high-risk call`)).toBeVisible();
  const agent = await adminAgent(page, baseURL);
  const approver = await approverPage(browser);
  try {
    const held = await agent.hold("ORD-10208", "Two approvers");
    await approver.goto("/approvals");
    await expect(row(approver, held.approval_id).getByTestId("approval-count")).toHaveText("0 of 2 approvals");
    await approver.goto(`/approvals/${held.approval_id}`);
    await approver.getByTestId("approve-button").click();
    await expect(approver.getByTestId("decision-blocked")).toHaveText(
      "You already approved; waiting for a second approver",
    );
    await expect(approver.getByTestId("approval-status")).toHaveText("Pending");
    expect(await agent.status(held.task_id)).toMatchObject({ status: "AWAITING_APPROVAL" });

    // A second approver completes it, and the call runs.
    const other = await (await browser.newContext({ storageState: secondApproverState })).newPage();
    await other.goto(`/approvals/${held.approval_id}`);
    await expect(other.getByTestId("approval-count")).toHaveText("Needs 2 approvers: 1 of 2 so far.");
    await other.getByTestId("approve-button").click();
    await expect(other.getByTestId("approval-status")).toHaveText("Approved");
    await expect(other.getByTestId("approval-decision")).toHaveCount(2);
    await other.context().close();
    await expect.poll(async () => (await agent.status(held.task_id)).status, { timeout: 20_000 }).toBe("SUCCEEDED");
  } finally {
    await agent.close();
    await approver.context().close();
    const res = await page.request.patch(`/api/v1/tools/${TOOL}`, { data: { requiredApprovals: 1 } });
    expect(res.status()).toBe(200);
    await page.context().close();
  }
});

test("at desktop width, too, Why and Arguments come before the decision buttons", async ({ browser, baseURL }) => {
  await withAgentAndApprover(browser, baseURL, async ({ agent, approver }) => {
    const held = await agent.hold("ORD-10213", "Order of the page");
    await approver.goto(`/approvals/${held.approval_id}`);
    await expect(approver.getByTestId("approve-button")).toBeVisible();
    const top = async (testId: string) => (await approver.getByTestId(testId).first().boundingBox())!.y;
    const approveAt = await top("approve-button");
    expect(await top("approval-justification")).toBeLessThan(approveAt);
    expect(await top("argument-row")).toBeLessThan(approveAt);
    await approver.getByTestId("decision-comment").fill("Only a test");
    await approver.getByTestId("reject-button").click();
    await expect(approver.getByTestId("approval-status")).toHaveText("Rejected");
  });
});

test.describe("at phone width", () => {
  test("on a phone the request reads Why and Arguments before Approve, and the menu button shows the pending count", async ({
    browser,
    baseURL,
  }) => {
    await withAgentAndApprover(
      browser,
      baseURL,
      async ({ agent, approver }) => {
        await gotoWithLiveBadge(approver, "/");
        const held = await agent.hold("ORD-10212", "Read me before approving", "Clean up a test order");
        await expect(approver.getByTestId("menu-badge-approvals")).toHaveText(
          new RegExp(`${await pendingCount(approver)}$`),
        );
        await approver.getByRole("button", { name: "Open menu" }).click();
        await expect(approver.getByRole("dialog", { name: "Menu" }).getByTestId("nav-badge-approvals")).toBeVisible();
        await approver.getByRole("button", { name: "Close menu" }).click();

        await approver.goto(`/approvals/${held.approval_id}`);
        const top = async (testId: string) => (await approver.getByTestId(testId).first().boundingBox())!.y;
        await expect(approver.getByTestId("approve-button")).toBeVisible();
        const approveAt = await top("approve-button");
        expect(await top("approval-justification")).toBeLessThan(approveAt);
        expect(await top("approval-reason")).toBeLessThan(approveAt);
        expect(await top("argument-row")).toBeLessThan(approveAt);
        await approver.getByTestId("decision-comment").fill("Only a test");
        await approver.getByTestId("reject-button").click();
        await expect(approver.getByTestId("approval-status")).toHaveText("Rejected");
      },
      { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true },
    );
  });

  test("the queue and a request fit a 390 px screen without sideways scrolling", async ({ browser, baseURL }) => {
    await withAgentAndApprover(
      browser,
      baseURL,
      async ({ agent, approver }) => {
        const overflow = () =>
          approver.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
        const held = await agent.hold(
          "ORD-10209",
          "A rather long reason that has to wrap on a small phone screen without pushing the layout sideways",
        );
        await openQueue(approver);
        await expect(row(approver, held.approval_id).getByTestId("approval-select")).toBeVisible();
        expect(await overflow()).toBeLessThanOrEqual(0);
        await approver.goto(`/approvals/${held.approval_id}`);
        await expect(approver.getByTestId("approve-button")).toBeVisible();
        await expect(approver.getByTestId("argument-row").first()).toBeVisible();
        expect(await overflow()).toBeLessThanOrEqual(0);
        await approver.getByTestId("decision-comment").fill("Not today");
        await approver.getByTestId("reject-button").click();
        await expect(approver.getByTestId("approval-status")).toHaveText("Rejected");
      },
      {
        viewport: { width: 390, height: 844 },
        isMobile: true,
        hasTouch: true,
      },
    );
  });
});
