import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { expect, test, type APIRequestContext, type Page } from "./fixtures";
import type { TCreatedSession, TEffectiveGrant, TGrant, TPolicyTool, TRule } from "@/lib/policy-schemas";
import type { TUser } from "@/lib/schemas";
import { createUserViaApi, signInAsAdmin, uniqueEmail } from "./helpers";

// The demo "orders" upstream registered on the first start offers these tools.
const QUERY = "orders__query_orders";
const EXPORT = "orders__export_orders";
const UPDATE = "orders__update_order";
type Tier = TPolicyTool["riskTier"];

// What each test changed, undone afterwards so the other specs find the demo tools as they were.
const cleanup: (() => Promise<unknown>)[] = [];
test.afterEach(async () => {
  while (cleanup.length) await cleanup.pop()!();
});

async function policyTools(request: APIRequestContext): Promise<TPolicyTool[]> {
  const res = await request.get("/api/v1/policy/tools");
  expect(res.status(), await res.text()).toBe(200);
  return ((await res.json()) as { items: TPolicyTool[] }).items;
}

async function tierOf(request: APIRequestContext, name: string): Promise<Tier> {
  const tool = (await policyTools(request)).find((t) => t.name === name);
  expect(tool, `${name} is listed`).toBeDefined();
  return tool!.riskTier;
}

/** Puts a tool's tier back after the test. */
async function restoreTierAfterwards(request: APIRequestContext, name: string) {
  const tier = await tierOf(request, name);
  cleanup.push(() => request.patch(`/api/v1/tools/${name}`, { data: { riskTier: tier } }));
  return tier;
}

async function listRules(request: APIRequestContext, tool: string): Promise<TRule[]> {
  const res = await request.get(`/api/v1/tools/${tool}/rules`);
  expect(res.status(), await res.text()).toBe(200);
  return ((await res.json()) as { items: TRule[] }).items;
}

/** Deletes, after the test, every rule of the tool it did not have before. */
async function removeNewRulesAfterwards(request: APIRequestContext, tool: string) {
  const before = new Set((await listRules(request, tool)).map((r) => r.id));
  cleanup.push(async () => {
    for (const r of await listRules(request, tool))
      if (!before.has(r.id)) await request.delete(`/api/v1/tools/${tool}/rules/${r.id}`);
  });
  return before.size;
}

async function addRule(request: APIRequestContext, tool: string, body: Record<string, unknown>): Promise<TRule> {
  const res = await request.post(`/api/v1/tools/${tool}/rules`, { data: body });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()) as TRule;
}

async function me(request: APIRequestContext): Promise<TUser> {
  return ((await (await request.get("/api/v1/me")).json()) as { user: TUser }).user;
}

/** Gives the signed-in admin `orders__*` in person for this test, unless their role grants it already. */
async function ensureAdminHoldsOrders(request: APIRequestContext): Promise<TUser> {
  const admin = await me(request);
  const res = await request.get(`/api/v1/users/${admin.id}/grant`);
  expect(res.status(), await res.text()).toBe(200);
  const held = (await res.json()) as TEffectiveGrant;
  if (!held.callableTools.includes(QUERY)) {
    const created = await request.post("/api/v1/grants", {
      data: { kind: "tool", pattern: "orders__*", userId: admin.id },
    });
    expect(created.status(), await created.text()).toBe(201);
    const grant = (await created.json()) as TGrant;
    cleanup.push(() => request.delete(`/api/v1/grants/${grant.id}`));
  }
  return admin;
}

async function openPolicies(page: Page, tab?: string) {
  await signInAsAdmin(page);
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Policies" }).click();
  await expect(page).toHaveURL(/\/policies$/);
  await expect(page.getByRole("heading", { level: 1, name: "Policies" })).toBeVisible();
  if (tab) await page.getByRole("tab", { name: tab }).click();
}

const toolRow = (page: Page, name: string) => page.locator(`[data-testid="policy-tool-row"][data-name="${name}"]`);

test("an admin adds a value rule and a row cap to a tool, with live validation, then deletes one", async ({ page }) => {
  await openPolicies(page);
  const initial = await removeNewRulesAfterwards(page.request, QUERY);
  const row = toolRow(page, QUERY);
  await expect(row.getByTestId("rule-count")).toHaveText(String(initial));

  await row.getByRole("button", { name: QUERY, exact: true }).click();
  const dialog = page.getByRole("dialog", { name: `Rules for ${QUERY}` });
  await expect(dialog).toBeVisible();
  const add = dialog.getByRole("button", { name: "Add rule" });

  // A value rule: the schema's messages show while typing, before anything is sent.
  await dialog.getByLabel("Rule kind").selectOption("value");
  await dialog.getByLabel("Argument", { exact: true }).fill("customer_email");
  await expect(dialog.getByText("give at least one constraint")).toBeVisible();
  await expect(add).toBeDisabled();
  await dialog.getByLabel("Pattern (regular expression)").fill("([a-z");
  await expect(dialog.getByLabel("Pattern (regular expression)")).toHaveAttribute("aria-invalid", "true");
  await expect(dialog.getByText("not a valid regular expression")).toBeVisible();
  await expect(add).toBeDisabled();
  await dialog.getByLabel("Pattern (regular expression)").fill("[^@]+@example\\.com");
  await expect(dialog.getByText("not a valid regular expression")).toBeHidden();
  await dialog.getByLabel("Minimum value").fill("10");
  await dialog.getByLabel("Maximum value").fill("5");
  await expect(dialog.getByText("min cannot exceed max")).toBeVisible();
  await expect(add).toBeDisabled();
  await dialog.getByLabel("Minimum value").fill("");
  await dialog.getByLabel("Maximum value").fill("");
  await expect(dialog.getByText("min cannot exceed max")).toBeHidden();
  await dialog.getByLabel("Maximum length").fill("254");
  await expect(add).toBeEnabled();
  await add.click();
  const valueRule = dialog.locator('[data-testid="rule"][data-kind="value"]').filter({ hasText: "customer_email" });
  await expect(valueRule).toContainText("matches /[^@]+@example\\.com/");
  await expect(valueRule).toContainText("at most 254 characters");
  // The form is ready for the next rule.
  await expect(dialog.getByLabel("Argument", { exact: true })).toHaveValue("");

  // A row cap: a maximum below 1 is refused as it is typed.
  await dialog.getByLabel("Rule kind").selectOption("row_cap");
  await dialog.getByLabel("Argument", { exact: true }).fill("limit");
  await dialog.getByLabel("Maximum rows").fill("0");
  await expect(dialog.getByTestId("field-error")).toBeVisible();
  await expect(add).toBeDisabled();
  await dialog.getByLabel("Maximum rows").fill("25");
  await add.click();
  await expect(dialog.locator('[data-testid="rule"][data-kind="row_cap"]').filter({ hasText: "limit" })).toContainText(
    "at most 25 rows",
  );

  await dialog.getByRole("button", { name: "Close" }).click();
  await expect(dialog).toBeHidden();
  await expect(row.getByTestId("rule-count")).toHaveText(String(initial + 2));

  await row.getByRole("button", { name: `Edit rules of ${QUERY}` }).click();
  await expect(dialog).toBeVisible();
  await dialog.getByRole("button", { name: "Delete rule: Value on customer_email" }).click();
  await expect(valueRule).toHaveCount(0);
  await dialog.getByRole("button", { name: "Close" }).click();
  await expect(row.getByTestId("rule-count")).toHaveText(String(initial + 1));
  const left = await listRules(page.request, QUERY);
  expect(left.filter((r) => r.argument === "customer_email")).toHaveLength(0);
  expect(left.filter((r) => r.kind === "row_cap" && r.argument === "limit" && r.config.max === 25)).toHaveLength(1);
});

test("a bulk tier change shows in History and Revert restores the tier", async ({ page }) => {
  await openPolicies(page);
  const before = {
    [EXPORT]: await restoreTierAfterwards(page.request, EXPORT),
    [UPDATE]: await restoreTierAfterwards(page.request, UPDATE),
  };
  // A tier neither tool has, so both really change.
  const target = (["LOW", "MEDIUM", "HIGH"] as const).find((t) => t !== before[EXPORT] && t !== before[UPDATE])!;

  await page.getByLabel(`Select ${EXPORT}`).check();
  await page.getByLabel(`Select ${UPDATE}`).check();
  await expect(page.getByTestId("selected-count")).toHaveText("2 selected");
  await page.getByLabel("Tier for the selected tools").selectOption(target);
  await page.getByRole("button", { name: "Set tier" }).click();
  await expect(page.locator("[data-sonner-toast]").filter({ hasText: "2 tools are now" })).toBeVisible();
  await expect(toolRow(page, EXPORT)).toHaveAttribute("data-tier", target);
  await expect(toolRow(page, UPDATE)).toHaveAttribute("data-tier", target);
  await expect(page.getByTestId("selected-count")).toHaveText("0 selected");
  expect(await tierOf(page.request, EXPORT)).toBe(target);

  await page.getByRole("tab", { name: "History" }).click();
  await expect(page).toHaveURL(/\?tab=history$/);
  const changes = page.getByTestId("policy-change");
  const exportChange = changes.filter({ hasText: `${EXPORT}: tier ${before[EXPORT]} → ${target}` }).first();
  await expect(exportChange).toBeVisible();
  await expect(changes.filter({ hasText: `${UPDATE}: tier ${before[UPDATE]} → ${target}` }).first()).toBeVisible();
  await expect(exportChange).toContainText("admin@example.com");

  await exportChange.getByRole("button", { name: /^Revert/ }).click();
  const confirm = page.getByRole("dialog", { name: "Revert this change?" });
  await expect(confirm).toContainText(`${EXPORT}: tier ${before[EXPORT]} → ${target}`);
  await confirm.getByRole("button", { name: "Revert", exact: true }).click();
  await expect(confirm).toBeHidden();
  await expect(changes.filter({ hasText: `${EXPORT}: tier ${target} → ${before[EXPORT]}` }).first()).toBeVisible();
  expect(await tierOf(page.request, EXPORT)).toBe(before[EXPORT]);
  expect(await tierOf(page.request, UPDATE)).toBe(target);

  await page.getByRole("tab", { name: "Tools" }).click();
  await expect(toolRow(page, EXPORT)).toHaveAttribute("data-tier", before[EXPORT]);
});

test("the simulator denies a call that breaks a rule, with the rule's reason, and allows a valid one", async ({
  page,
}) => {
  await openPolicies(page);
  await ensureAdminHoldsOrders(page.request);
  const tier = await restoreTierAfterwards(page.request, QUERY);
  if (tier === "HIGH") await page.request.patch(`/api/v1/tools/${QUERY}`, { data: { riskTier: "LOW" } });
  await removeNewRulesAfterwards(page.request, QUERY);
  const rule = await addRule(page.request, QUERY, { kind: "value", argument: "status", enum: ["pending", "shipped"] });
  await addRule(page.request, QUERY, { kind: "row_cap", argument: "limit", max: 10 });

  await page.getByRole("tab", { name: "Simulator" }).click();
  await page.getByLabel("Tool", { exact: true }).selectOption(QUERY);
  const args = page.getByLabel("Arguments (JSON)");
  const simulateButton = page.getByRole("button", { name: "Simulate" });
  await args.fill('{"status": ');
  await expect(page.getByText("Not valid JSON")).toBeVisible();
  await expect(simulateButton).toBeDisabled();

  await args.fill('{"status": "cancelled"}');
  await expect(simulateButton).toBeEnabled();
  await simulateButton.click();
  const decision = page.getByTestId("decision");
  await expect(decision).toHaveAttribute("data-decision", "deny");
  await expect(decision.getByTestId("decision-badge")).toHaveText("Denied");
  await expect(decision.getByTestId("decision-step")).toHaveText("Parameter rule");
  await expect(decision.getByTestId("decision-code")).toHaveText("policy_denied");
  await expect(decision.getByTestId("decision-reason")).toContainText(
    'argument `status` must be one of "pending", "shipped"',
  );
  await expect(decision.getByTestId("decision-rule")).toHaveText(rule.id);

  await args.fill('{"status": "pending", "limit": 50}');
  await simulateButton.click();
  await expect(decision).toHaveAttribute("data-decision", "allow");
  await expect(decision.getByTestId("decision-badge")).toHaveText("Allowed");
  await expect(decision.getByTestId("decision-rule")).toHaveText("—");
  // The row cap lowered the limit on its way to the server.
  await expect(decision.getByTestId("decision-arguments")).toContainText('"limit": 10');
});

test("a read-only SQL rule added in the editor lets a SELECT through and refuses a DELETE", async ({ page }) => {
  const RUN_SQL = "orders__run_sql";
  await openPolicies(page);
  await ensureAdminHoldsOrders(page.request);
  // A high tier would ask for approval before any rule is looked at.
  await restoreTierAfterwards(page.request, RUN_SQL);
  await page.request.patch(`/api/v1/tools/${RUN_SQL}`, { data: { riskTier: "LOW" } });
  await removeNewRulesAfterwards(page.request, RUN_SQL);
  await page.reload();

  await toolRow(page, RUN_SQL)
    .getByRole("button", { name: `Edit rules of ${RUN_SQL}` })
    .click();
  const dialog = page.getByRole("dialog", { name: `Rules for ${RUN_SQL}` });
  await dialog.getByLabel("Rule kind").selectOption("sql_readonly");
  await dialog.getByLabel("Argument", { exact: true }).fill("sql");
  await dialog.getByLabel(/Extra denied functions/).fill("pg_sleep, dblink");
  await dialog.getByRole("button", { name: "Add rule" }).click();
  await expect(dialog.locator('[data-testid="rule"][data-kind="sql_readonly"]')).toContainText(
    "also refuses pg_sleep, dblink",
  );
  await dialog.getByRole("button", { name: "Close" }).click();

  await page.getByRole("tab", { name: "Simulator" }).click();
  await page.getByLabel("Tool", { exact: true }).selectOption(RUN_SQL);
  const decision = page.getByTestId("decision");
  await page.getByLabel("Arguments (JSON)").fill('{"sql": "SELECT id FROM orders LIMIT 1"}');
  await page.getByRole("button", { name: "Simulate" }).click();
  await expect(decision).toHaveAttribute("data-decision", "allow");
  await page.getByLabel("Arguments (JSON)").fill('{"sql": "DELETE FROM orders"}');
  await page.getByRole("button", { name: "Simulate" }).click();
  await expect(decision).toHaveAttribute("data-decision", "deny");
  await expect(decision.getByTestId("decision-reason")).toContainText("must be one read-only SQL statement");
});

test("a tier changed in the console is enforced on the agent's next call", async ({ page, baseURL }) => {
  await openPolicies(page);
  await ensureAdminHoldsOrders(page.request);
  const tier = await restoreTierAfterwards(page.request, QUERY);
  if (tier === "HIGH") await page.request.patch(`/api/v1/tools/${QUERY}`, { data: { riskTier: "LOW" } });

  const created = await page.request.post("/api/v1/sessions", {
    data: { agentId: "e2e-policies", tools: ["orders__*"], paths: [] },
  });
  expect(created.status(), await created.text()).toBe(201);
  const session = (await created.json()) as TCreatedSession;
  cleanup.push(() => page.request.delete(`/api/v1/sessions/${session.id}`));

  const client = new Client({ name: "e2e-policies", version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL("/mcp", baseURL), {
      requestInit: { headers: { authorization: `Bearer ${session.token}` } },
    }),
  );
  cleanup.push(() => client.close());

  const first = await client.callTool({ name: QUERY, arguments: {} });
  expect(first.isError ?? false, JSON.stringify(first.content)).toBe(false);

  await page.reload();
  await toolRow(page, QUERY).getByLabel(`Risk tier of ${QUERY}`).selectOption("HIGH");
  await expect(page.locator("[data-sonner-toast]").filter({ hasText: `${QUERY} is now high risk` })).toBeVisible();
  await expect(toolRow(page, QUERY)).toHaveAttribute("data-tier", "HIGH");

  // Now the call is held for a person: not run, answered with the approval and the task it will run as.
  const second = await client.callTool({ name: QUERY, arguments: {} });
  expect(second.isError ?? false).toBe(false);
  expect(second.structuredContent).toMatchObject({ status: "AWAITING_APPROVAL", approval_status: "PENDING" });

  // The simulator, asked about the same session, says the same.
  await page.getByRole("tab", { name: "Simulator" }).click();
  await page.getByLabel("Tool", { exact: true }).selectOption(QUERY);
  await page.getByLabel("An agent session").check();
  await page.getByLabel("Session id").fill(session.id);
  await page.getByRole("button", { name: "Simulate" }).click();
  const decision = page.getByTestId("decision");
  await expect(decision).toHaveAttribute("data-decision", "require_approval");
  await expect(decision.getByTestId("decision-badge")).toHaveText("Needs approval");
  await expect(decision.getByTestId("decision-step")).toHaveText("Risk tier");
  await expect(decision.getByTestId("decision-code")).toHaveText("approval_required");
});

test("an admin grants a tool pattern to a user and sees it in the user's effective access", async ({ page }) => {
  await openPolicies(page);
  const email = uniqueEmail("grantee");
  const user = await createUserViaApi(page.request, { email, role: "USER", password: "grantee-pass-1234" });
  await page.reload();
  await page.getByRole("tab", { name: "Grants" }).click();

  const form = page.getByRole("form", { name: "Add a grant" });
  // What only the server can judge (a path grant must be absolute) comes back under the field it concerns.
  await form.getByLabel("Grant kind").selectOption("path");
  await form.getByLabel("Pattern", { exact: true }).fill("reports/q3");
  await form.getByRole("button", { name: "Add grant" }).click();
  await expect(form.getByTestId("field-error")).toContainText("must be an absolute path");
  await expect(form.getByLabel("Pattern", { exact: true })).toHaveAttribute("aria-invalid", "true");

  await form.getByLabel("Grant kind").selectOption("tool");
  await form.getByLabel("Pattern", { exact: true }).fill("orders query");
  await expect(form.getByText("a tool grant is a tool name or a pattern")).toBeVisible();
  await expect(form.getByRole("button", { name: "Add grant" })).toBeDisabled();
  await form.getByLabel("Pattern", { exact: true }).fill("orders__query_*");
  await form.getByLabel("One user").check();
  await form.getByLabel("User", { exact: true }).selectOption({ label: email });
  await form.getByRole("button", { name: "Add grant" }).click();

  const group = page.locator(`[data-testid="grant-group"][data-holder="user:${user.id}"]`);
  await expect(group.locator('[data-testid="grant"][data-pattern="orders__query_*"]')).toBeVisible();
  const grants = ((await (await page.request.get("/api/v1/grants")).json()) as { items: TGrant[] }).items;
  const grant = grants.find((g) => g.userId === user.id && g.pattern === "orders__query_*");
  expect(grant).toBeDefined();
  cleanup.push(() => page.request.delete(`/api/v1/grants/${grant!.id}`));

  await page.getByLabel("Show the access of").selectOption({ label: email });
  const access = page.getByTestId("effective-grant");
  await expect(access.getByRole("list", { name: "Tool patterns" })).toContainText("orders__query_*");
  await expect(access.getByRole("list", { name: "Tool patterns" })).toContainText("Granted to this user");
  await expect(access.getByRole("list", { name: "Callable tools" })).toContainText(QUERY);

  await group.getByRole("button", { name: /^Delete grant orders__query_\*/ }).click();
  await expect(group).toHaveCount(0);
  await expect(access).not.toContainText("Granted to this user");
});

test.describe("at phone width", () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test("every Policies tab fits the screen without scrolling sideways", async ({ page }) => {
    await signInAsAdmin(page, "/policies");
    for (const tab of ["Tools", "Grants", "Simulator", "History"]) {
      await page.getByRole("tab", { name: tab }).click();
      await expect(page.getByRole("tab", { name: tab })).toHaveAttribute("aria-selected", "true");
      await expect(page.getByRole("tabpanel")).not.toContainText("Loading");
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      expect(overflow, `${tab} tab overflows`).toBeLessThanOrEqual(0);
    }
  });
});
