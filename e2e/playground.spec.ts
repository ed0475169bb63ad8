import { fileURLToPath } from "node:url";
import { expect, test, type Page } from "./fixtures";
import type { TCodeRunResult } from "@/lib/codemode-schemas";
import type { TCreatedSession } from "@/lib/policy-schemas";
import { signInAsAdmin } from "./helpers";

// The reference "everything" server over stdio, unsandboxed (e2e/sandbox.spec.ts covers the sandbox): its
// tools echo, get-sum and get-structured-content (with an output schema) are what the programs call.
const EVERYTHING_SERVER = fileURLToPath(new URL("../node_modules/@modelcontextprotocol/server-everything/dist/index.js", import.meta.url));

const registered: string[] = [];
const sessions: string[] = [];

/** A slug that is also an identifier, so programs reach it as `tools.<slug>`. */
const uniqueSlug = () => `pg${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

async function registerEverything(page: Page): Promise<string> {
  const slug = uniqueSlug();
  const res = await page.request.post("/api/v1/servers", {
    data: { slug, name: `Everything ${slug}`, transport: "stdio", command: process.execPath, args: [EVERYTHING_SERVER, "stdio"], isolation: { profile: "none" } },
  });
  expect(res.status(), await res.text()).toBe(201);
  registered.push(slug);
  return slug;
}

/** Runs what the editor holds with the Run button, and answers the API's answer to it. */
async function run(page: Page, code: string, how: "button" | "keys" = "button"): Promise<TCodeRunResult> {
  const editor = page.getByLabel("Program", { exact: true });
  await editor.fill(code);
  const answered = page.waitForResponse((r) => r.url().endsWith("/api/v1/codemode/run") && r.request().method() === "POST");
  if (how === "keys") await editor.press("ControlOrMeta+Enter");
  else await page.getByTestId("run-button").click();
  const res = await answered;
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()) as TCodeRunResult;
}

const TWO_CALLS = (slug: string) => `const sum = await tools.${slug}["get-sum"]({ a: 2, b: 40 });
const weather = await tools.${slug}["get-structured-content"]({ location: "Chicago" });
console.log("sum: " + sum.content[0].text);
console.log(\`it is \${weather.conditions} in Chicago\`);
return { sum: sum.content[0].text, temperature: weather.temperature };`;

test.afterEach(async ({ page }) => {
  while (sessions.length) await page.request.delete(`/api/v1/sessions/${sessions.pop()}`);
  while (registered.length) await page.request.delete(`/api/v1/servers/${registered.pop()}`);
});

test("a program calls two tools and the playground shows its value, its logs, each call and its audit story", async ({ page }) => {
  await signInAsAdmin(page);
  const slug = await registerEverything(page);
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Code playground" }).click();
  await expect(page).toHaveURL(/\/playground$/);
  await expect(page.getByRole("heading", { level: 1, name: "Code playground" })).toBeVisible();
  await expect(page.getByLabel("Run with")).toHaveValue("");
  await expect(page.getByLabel("Run with").locator("option:checked")).toHaveText("My permissions");

  // The types of the caller's own permissions, folded until opened.
  const panel = page.getByTestId("declarations-panel");
  await expect(panel.getByTestId("tool-count")).toHaveText(/^\d+ tools?$/);
  await expect(page.getByTestId("declarations")).toBeHidden();
  await panel.getByText("The types your program can use").click();
  const declarations = page.getByTestId("declarations");
  await expect(declarations).toBeVisible();
  await expect(declarations).toContainText(`${slug}: {`);
  await expect(declarations).toContainText(`/** Returns the sum of two numbers */\n    "get-sum"(args: {`);
  await expect(declarations).toContainText(`"get-structured-content"`);
  await expect(declarations).toContainText("declare const workspace");
  // The example lists what the types offer.
  const lines = page.getByLabel("Program", { exact: true }).locator(".cm-line");
  await expect(lines.nth(0)).toHaveText("// The tools this program may call:");
  await expect(lines.nth(1)).toHaveText(/^\/\/ {3}await tools\./);

  const answer = await run(page, TWO_CALLS(slug), "keys");
  const output = page.getByTestId("run-output");
  await expect(output.getByRole("heading", { name: "The run finished" })).toBeVisible();
  const value = JSON.parse((await page.getByTestId("run-result").textContent()) ?? "") as unknown;
  expect(value).toEqual({ sum: "The sum of 2 and 40 is 42.", temperature: 36 });
  await expect(page.getByTestId("run-log")).toHaveText(["sum: The sum of 2 and 40 is 42.", "it is Light rain / drizzle in Chicago"]);
  await expect(page.getByTestId("run-error")).toHaveCount(0);
  await expect(page.getByTestId("run-summary")).toContainText("2 tool calls");

  const rows = page.getByTestId("call-row");
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(0)).toHaveAttribute("data-tool", `${slug}__get-sum`);
  await expect(rows.nth(1)).toHaveAttribute("data-tool", `${slug}__get-structured-content`);
  for (const row of await rows.all()) {
    await expect(row).toHaveAttribute("data-status", "ok");
    await expect(row.getByTestId("call-status")).toHaveText("OK");
    await expect(row).toContainText("Allowed");
    await expect(row).toContainText(/\d ms$/);
  }

  // The run's own audit event, whose page tells the story of the request: the run and both calls.
  const audit = page.getByTestId("run-audit-link");
  await expect(audit).toHaveText("Audit story of this run");
  await expect(audit).toHaveAttribute("href", /^\/audit\/\d+$/);
  await audit.click();
  await expect(page.getByRole("heading", { level: 1, name: "execute_code" })).toBeVisible();
  await expect(page.getByTestId("audit-story")).toContainText(answer.requestId);
  expect(await page.getByTestId("audit-story-step").count()).toBeGreaterThanOrEqual(3);
});

test("a runaway program stops at the timeout with a TimeoutError, and Run waits for it", async ({ page }) => {
  await signInAsAdmin(page, "/playground");
  // The types arrive after the page is live; typing before then would be typing into HTML React has not taken over yet.
  await expect(page.getByTestId("declarations-panel").getByTestId("tool-count")).toHaveText(/^\d+ tools?$/);
  await page.getByLabel("Timeout (ms)").fill("300");
  const answer = await run(page, "while (true) {}");
  expect(answer.error?.name).toBe("TimeoutError");
  await expect(page.getByRole("heading", { name: "The run failed" })).toBeVisible();
  await expect(page.getByTestId("run-error-name")).toHaveText("TimeoutError");
  await expect(page.getByTestId("run-error")).toContainText("300 ms");
  await expect(page.getByTestId("call-row")).toHaveCount(0);
  await expect(page.getByTestId("run-result")).toHaveCount(0);

  // A longer one: the button is disabled and counts the seconds while the program runs.
  await page.getByLabel("Timeout (ms)").fill("2000");
  await page.getByLabel("Program", { exact: true }).fill("while (true) {}");
  await page.getByTestId("run-button").click();
  await expect(page.getByTestId("run-button")).toBeDisabled();
  await expect(page.getByTestId("run-button")).toHaveText(/^Running… \d+\.\d s$/);
  await expect(page.getByTestId("run-button")).toHaveText("Run", { timeout: 15_000 });
  await expect(page.getByTestId("run-error")).toContainText("2000 ms");

  // A timeout out of range is caught before anything runs.
  await page.getByLabel("Timeout (ms)").fill("50");
  await page.getByTestId("run-button").click();
  await expect(page.getByRole("alert").filter({ hasText: "Give whole milliseconds from 100" })).toBeVisible();
});

test("with an agent session's permissions, a tool its whitelist leaves out is refused", async ({ page }) => {
  await signInAsAdmin(page);
  const slug = await registerEverything(page);
  const agentId = `pg-agent-${Date.now().toString(36)}`;
  const res = await page.request.post("/api/v1/sessions", { data: { agentId, tools: [`${slug}__get-sum`] } });
  expect(res.status(), await res.text()).toBe(201);
  const session = (await res.json()) as TCreatedSession;
  sessions.push(session.id);

  await page.goto("/playground");
  const runWith = page.getByLabel("Run with");
  await expect(runWith.locator(`option[value="${session.id}"]`)).toHaveText(new RegExp(`^Agent ${agentId} · created `));
  await runWith.selectOption(session.id);
  await expect(page.getByText(`limited to this session's whitelist (${slug}__get-sum)`)).toBeVisible();
  // Its types hold only what the session may call.
  await expect(page.getByTestId("tool-count")).toHaveText("1 tool");
  await page.getByText("The types your program can use").click();
  await expect(page.getByTestId("declarations")).toContainText(`"get-sum"`);
  await expect(page.getByTestId("declarations")).not.toContainText("echo");

  const answer = await run(
    page,
    `try {
  await tools.${slug}.echo({ message: "hello" });
} catch (e) {
  console.log(e.name);
}
return (await tools.${slug}["get-sum"]({ a: 1, b: 2 })).content[0].text;`,
  );
  expect(answer.calls.map((c) => c.status)).toEqual(["refused", "ok"]);
  await expect(page.getByTestId("run-log")).toHaveText(["ToolCallRefused"]);
  await expect(page.getByTestId("run-result")).toHaveText('"The sum of 1 and 2 is 3."');
  const refused = page.locator(`[data-testid="call-row"][data-tool="${slug}__echo"]`);
  await expect(refused).toHaveAttribute("data-status", "refused");
  await expect(refused.getByTestId("call-status")).toHaveText("Refused");
  expect(answer.calls[0]!.decision).toBe("deny");
  await expect(refused).toContainText("Denied");
  await expect(refused.getByTestId("call-code")).toHaveText(answer.calls[0]!.code!);
  expect(answer.calls[0]!.code).toBeTruthy();
  await expect(page.locator(`[data-testid="call-row"][data-tool="${slug}__get-sum"]`)).toHaveAttribute("data-status", "ok");
});

/** Highlighting and completion as a person meets them: typed text coloured by kind, suggestions from the types. */
async function editorHighlightsAndCompletes(page: Page, slug: string) {
  await expect(page.getByTestId("tool-count")).toHaveText(/^\d+ tools?$/);
  const editor = page.getByLabel("Program", { exact: true });
  await editor.fill('const answer = 42; // the note\nreturn "text";');
  const colour = (text: string) => editor.getByText(text, { exact: true }).evaluate((el) => getComputedStyle(el).color);
  const plain = await editor.evaluate((el) => getComputedStyle(el).color);
  const keyword = await colour("const");
  const number = await colour("42");
  const comment = await colour("// the note");
  const string = await colour('"text"');
  // Each kind of token has a colour of its own, none of them the plain text's.
  expect(new Set([plain, keyword, number, comment, string]).size).toBe(5);

  await editor.fill("");
  await editor.pressSequentially("await tools.");
  const suggestions = page.getByRole("listbox");
  await suggestions.getByRole("option", { name: slug, exact: true }).click();
  await expect(editor).toHaveText(`await tools.${slug}`);
  await editor.pressSequentially(".");
  await suggestions.getByRole("option", { name: /^get-sum\(/ }).click();
  // Not an identifier: reached with brackets.
  await expect(editor).toHaveText(`await tools.${slug}["get-sum"]`);

  await editor.fill("");
  await editor.pressSequentially("workspace.");
  for (const method of ["get", "set", "list", "delete"])
    await expect(suggestions.getByRole("option", { name: new RegExp(`^${method}\\(`) })).toBeVisible();
}

test("the editor highlights the program and completes tools., a server's tools and workspace. from the types", async ({ page }) => {
  await signInAsAdmin(page);
  const slug = await registerEverything(page);
  await page.goto("/playground");
  await editorHighlightsAndCompletes(page, slug);
});

test.describe("at phone width", () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test("the playground fits a phone: the editor and the tables scroll inside themselves", async ({ page }) => {
    await signInAsAdmin(page);
    const slug = await registerEverything(page);
    await page.getByRole("button", { name: "Open menu" }).click();
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Code playground" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Code playground" })).toBeVisible();
    await page.getByText("The types your program can use").click();
    await expect(page.getByTestId("declarations")).toContainText(`"get-sum"`);

    // TypeScript: the types are stripped before the program runs; a long line scrolls inside the editor.
    await page.getByText("TypeScript", { exact: true }).click();
    await expect(page.getByRole("radio", { name: "TypeScript" })).toBeChecked();
    const long = `const label: string = "${"x".repeat(200)}";`;
    await run(page, `${long}\n${TWO_CALLS(slug)}`);
    await expect(page.getByTestId("call-row")).toHaveCount(2);
    await expect(page.getByTestId("run-log")).toHaveCount(2);

    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    // The editor's text scrolls inside its own scroller; the editor's frame stays on the screen.
    const scrolls = await page
      .getByLabel("Program", { exact: true })
      .evaluate((el) => { const scroller = el.closest(".cm-scroller")!; return scroller.scrollWidth > scroller.clientWidth; });
    expect(scrolls).toBe(true);
    const box = await page.getByTestId("code-editor").boundingBox();
    expect(box && box.x >= 0 && box.x + box.width <= 390).toBe(true);
    for (const row of await page.getByTestId("call-row").all()) {
      const b = await row.boundingBox();
      expect(b && b.x + b.width <= 390).toBe(true);
    }
  });

  test("on a phone the editor highlights and completes too", async ({ page }) => {
    await signInAsAdmin(page);
    const slug = await registerEverything(page);
    await page.goto("/playground");
    await editorHighlightsAndCompletes(page, slug);
  });
});
