// A tool's page: the rules in force for it as the gateway applies them, and "Try a call" as a form built from its
// input schema (fields by type, enums as selects, booleans, nested objects and arrays), with raw JSON a switch away;
// and the example requests an admin writes for search_tools, checked as typed.
import { fileURLToPath } from "node:url";
import { expect, test, type APIRequestContext, type Page } from "./fixtures";
import type { TGrant, TRule } from "@/lib/policy-schemas";
import type { TToolSummary } from "@/lib/schemas";
import { ADMIN_EMAIL } from "./constants";
import { signInAsAdmin } from "./helpers";
import { myUserId } from "./helpers-tasks";

const EVERYTHING_SERVER = fileURLToPath(new URL("../node_modules/@modelcontextprotocol/server-everything/dist/index.js", import.meta.url));
const MEMORY_SERVER = fileURLToPath(new URL("../node_modules/@modelcontextprotocol/server-memory/dist/index.js", import.meta.url));
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };

const registered: string[] = [];
const grants: string[] = [];

/** A reference server over stdio, unsandboxed (e2e/sandbox.spec.ts covers the sandbox). */
async function register(request: APIRequestContext, prefix: string, args: string[], env: Record<string, string> = {}): Promise<string> {
  const slug = `${prefix}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const res = await request.post("/api/v1/servers", {
    data: { slug, name: slug, transport: "stdio", command: process.execPath, args, env, isolation: { profile: "none" } },
  });
  expect(res.status(), await res.text()).toBe(201);
  registered.push(slug);
  return slug;
}

test.afterEach(async ({ page }) => {
  while (grants.length) await page.request.delete(`/api/v1/grants/${grants.pop()}`);
  while (registered.length) await page.request.delete(`/api/v1/servers/${registered.pop()}`);
});

test("a tool's page lists the rules in force: who may call it, its tier, parameter rules, argument checking and rate limit", async ({ page }) => {
  await signInAsAdmin(page);
  const slug = await register(page.request, "rules", [EVERYTHING_SERVER, "stdio"]);
  const tool = `${slug}__get-sum`;
  const grant = await page.request.post("/api/v1/grants", { data: { kind: "tool", pattern: `${slug}__*`, userId: await myUserId(page) } });
  expect(grant.status(), await grant.text()).toBe(201);
  grants.push(((await grant.json()) as TGrant).id);
  for (const rule of [
    { kind: "value", argument: "a", min: 0, max: 100 },
    { kind: "row_cap", argument: "b", max: 50 },
  ]) {
    const res = await page.request.post(`/api/v1/tools/${tool}/rules`, { data: rule });
    expect(res.status(), await res.text()).toBe(201);
    expect(((await res.json()) as TRule).kind).toBe(rule.kind);
  }
  expect((await page.request.patch(`/api/v1/tools/${tool}`, { data: { riskTier: "HIGH", rateLimitPerMinute: 30, strict: true } })).status()).toBe(200);

  await page.goto(`/tools/${tool}`);
  const rules = page.getByTestId("rules-in-force");
  await expect(rules.getByRole("heading", { name: "Rules in force" })).toBeVisible();
  await expect(rules.getByTestId("rule-step-callers")).toContainText(`${ADMIN_EMAIL} (grant ${slug}__*)`);
  await expect(rules.getByTestId("rule-step-tier")).toContainText("High risk: each call waits until an approver says yes.");
  await expect(rules.getByTestId("rule-in-force")).toHaveText(["Value on a: ≥ 0 · ≤ 100", "Row cap on b: at most 50 rows"]);
  await expect(rules.getByTestId("rule-step-arguments")).toContainText("arguments it does not declare are refused (strict)");
  await expect(rules.getByTestId("rule-step-rate-limit")).toContainText("30 calls a minute (this tool's own limit)");

  // A change in the settings beside it shows in the rules at once.
  await page.getByLabel("Risk tier").selectOption("LOW");
  await expect(rules.getByTestId("rule-step-tier")).toContainText("Low risk: calls run without waiting for a person.");
});

/** Fills get-sum's form, is told which field is wrong, runs it, and carries the values to JSON and back. */
async function sumByForm(page: Page, slug: string) {
  await page.goto(`/tools/${slug}__get-sum`);
  const form = page.getByRole("form", { name: "Try a call" });
  const a = form.getByLabel("a (required)");
  const b = form.getByLabel("b (required)");
  await expect(form.getByText("First number")).toBeVisible();

  // A wrong type is named by its field, and nothing is sent.
  await a.fill("two");
  await b.fill("40");
  await form.getByRole("button", { name: "Run call" }).click();
  await expect(form.getByRole("alert")).toContainText("a must be a number");
  await expect(a).toHaveAttribute("aria-invalid", "true");
  await expect(a).toHaveAccessibleDescription(/must be a number/);
  await expect(page.getByTestId("call-result")).toHaveCount(0);

  await a.fill("2");
  await form.getByRole("button", { name: "Run call" }).click();
  const result = page.getByTestId("call-result");
  await expect(result).toHaveAttribute("data-outcome", "success");
  await expect(result).toContainText("The sum of 2 and 40 is 42.");

  // To raw JSON and back: the values go along both ways.
  const raw = page.getByRole("switch", { name: "Raw JSON" });
  await raw.click();
  const json = page.getByLabel("Arguments (JSON)");
  expect(JSON.parse(await json.inputValue())).toEqual({ a: 2, b: 40 });
  await json.fill('{"a": 5, "b": 6}');
  await raw.click();
  await expect(a).toHaveValue("5");
  await expect(b).toHaveValue("6");
  await form.getByRole("button", { name: "Run call" }).click();
  await expect(result).toContainText("The sum of 5 and 6 is 11.");
}

test("Try a call is a form from the input schema: a wrong type is named by field, a call runs, JSON and back keeps the values", async ({ page }) => {
  await signInAsAdmin(page);
  const slug = await register(page.request, "form", [EVERYTHING_SERVER, "stdio"]);
  await sumByForm(page, slug);

  // An enum is a select, a boolean a checkbox with its default, descriptions are hints.
  await page.goto(`/tools/${slug}__get-annotated-message`);
  const form = page.getByRole("form", { name: "Try a call" });
  const kind = form.getByLabel("messageType (required)");
  await expect(kind.locator("option")).toHaveText(["Choose…", "error", "success", "debug"]);
  await expect(kind).toHaveValue("0");
  await expect(kind).toHaveAccessibleDescription("Type of message to demonstrate different annotation patterns");
  const image = form.getByLabel("includeImage");
  await expect(image).not.toBeChecked();
  await expect(image).toHaveAccessibleDescription(/Whether to include an example image · Default: false/);
  await kind.selectOption("success");
  await form.getByRole("button", { name: "Run call" }).click();
  await expect(page.getByTestId("call-result")).toHaveAttribute("data-outcome", "success");
  await expect(page.getByTestId("call-result")).toContainText("Operation completed successfully");
});

test("the form draws arrays of nested objects: an admin adds an entity with an observation and the call stores it", async ({ page }) => {
  await signInAsAdmin(page);
  const slug = await register(page.request, "form-mem", [MEMORY_SERVER], { MEMORY_FILE_PATH: test.info().outputPath("memory.jsonl") });
  await page.goto(`/tools/${slug}__create_entities`);
  const form = page.getByRole("form", { name: "Try a call" });
  const entity = form.getByRole("group", { name: "entities[0]" });
  await entity.getByLabel("name (required)").fill("Ada");
  await entity.getByLabel("entityType (required)").fill("person");
  await entity.getByRole("button", { name: "Add to observations" }).click();
  await entity.getByLabel("observations[0]", { exact: true }).fill("writes tests");
  await form.getByRole("button", { name: "Add to entities" }).click();
  await expect(form.getByRole("group", { name: "entities[1]" })).toBeVisible();
  await form.getByRole("button", { name: "Remove entities[1]" }).click();
  await form.getByRole("button", { name: "Run call" }).click();
  const result = page.getByTestId("call-result");
  await expect(result).toHaveAttribute("data-outcome", "success");
  await expect(result.getByTestId("structured-content")).toContainText('"name": "Ada"');
  await expect(result.getByTestId("structured-content")).toContainText('"writes tests"');
});

test("on a 390 px phone the call form fits, names a wrong field and runs the call", async ({ browser, baseURL }) => {
  const context = await browser.newContext({ ...PHONE, baseURL });
  const page = await context.newPage();
  try {
    await signInAsAdmin(page);
    const slug = await register(page.request, "form-phone", [EVERYTHING_SERVER, "stdio"]);
    await sumByForm(page, slug);
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
    const rules = await page.getByTestId("rules-in-force").boundingBox();
    expect(rules && rules.x >= 0 && rules.x + rules.width <= 390).toBe(true);
  } finally {
    while (registered.length) await page.request.delete(`/api/v1/servers/${registered.pop()}`);
    await context.close();
  }
});

test("an admin writes a tool's example requests: a repeat is refused as typed, the rest are saved trimmed and the API returns them", async ({ page }) => {
  await signInAsAdmin(page);
  const slug = await register(page.request, "examples", [EVERYTHING_SERVER, "stdio"]);
  const tool = `${slug}__get-sum`;
  await page.goto(`/tools/${tool}`);
  const field = page.getByLabel(/^Example requests/);
  const save = page.getByRole("button", { name: "Save example requests" });
  await expect(field).toHaveValue("");
  await expect(field).toHaveAccessibleDescription(/search_tools/);
  await expect(save).toBeDisabled();
  // server-everything is a package Portcullis ships requests for (D176): they are listed, and apply until replaced.
  const before = (await (await page.request.get(`/api/v1/tools/${tool}`)).json()) as TToolSummary;
  const shipped = before.shippedExampleRequests.length;
  expect(shipped).toBeGreaterThanOrEqual(7);
  const settingsRegion = page.getByRole("region", { name: "Settings" });
  await settingsRegion.getByText(`${shipped} requests ship with Portcullis for this tool and apply until you write your own`).click();
  await expect(settingsRegion.getByText(before.shippedExampleRequests[0]!, { exact: true })).toBeVisible();

  // The third line repeats the first in other case: said beside the field, and nothing can be sent.
  const requests = "  add up my two invoice totals  \n\n  what do 17 and 25 make  ";
  await field.fill(`${requests}\nADD UP MY TWO INVOICE TOTALS`);
  const settings = page.getByRole("region", { name: "Settings" });
  await expect(settings.getByRole("alert")).toHaveText("Example request 3 repeats request 1.");
  await expect(field).toHaveAttribute("aria-invalid", "true");
  await expect(field).toHaveAccessibleDescription(/Example request 3 repeats request 1\./);
  await expect(save).toBeDisabled();

  await field.fill(requests);
  await expect(settings.getByRole("alert")).toHaveCount(0);
  await expect(field).not.toHaveAttribute("aria-invalid");
  await save.click();
  await expect(page.locator("[data-sonner-toast]").filter({ hasText: `${tool} has 2 example requests for search` })).toBeVisible();
  await expect(field).toHaveValue("add up my two invoice totals\nwhat do 17 and 25 make");
  await expect(save).toBeDisabled();
  await expect(settingsRegion.getByText(`Yours replace the ${shipped} requests that ship with Portcullis for this tool`)).toBeVisible();

  await page.reload();
  await expect(page.getByLabel(/^Example requests/)).toHaveValue("add up my two invoice totals\nwhat do 17 and 25 make");
  const saved = await page.request.get(`/api/v1/tools/${tool}`);
  expect(saved.status()).toBe(200);
  expect(((await saved.json()) as TToolSummary).exampleRequests).toEqual(["add up my two invoice totals", "what do 17 and 25 make"]);
});
