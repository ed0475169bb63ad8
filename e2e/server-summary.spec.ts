// The server's summary for agents (the line code mode's browse_catalog shows) at a desktop and a 390 px phone:
// written in the register dialog, refused there as typed when it breaks the rule, changed and cleared on the
// server's Settings tab; the REST API refuses hostile input with a stable code per field and keeps what it had.
import { fileURLToPath } from "node:url";
import { expect, test, type Page } from "./fixtures";
import type { TServer } from "@/lib/schemas";
import { noSidewaysScroll, signInAsAdmin } from "./helpers";

const MEMORY_SERVER = fileURLToPath(
  new URL("../node_modules/@modelcontextprotocol/server-memory/dist/index.js", import.meta.url),
);

const VIEWPORTS = [
  { name: "desktop", width: 1280, height: 800 },
  { name: "phone", width: 390, height: 844 },
] as const;

const registered: string[] = [];

test.afterEach(async ({ page }) => {
  while (registered.length) await page.request.delete(`/api/v1/servers/${registered.pop()}`);
});

async function serverOf(page: Page, slug: string): Promise<TServer> {
  const res = await page.request.get(`/api/v1/servers/${slug}`);
  expect(res.status()).toBe(200);
  return ((await res.json()) as { server: TServer }).server;
}

for (const vp of VIEWPORTS) {
  test(`${vp.name}: an admin writes a server's summary for agents when registering it and changes it on its settings`, async ({
    page,
  }) => {
    await page.setViewportSize({ width: vp.width, height: vp.height });
    const slug = `summary-${vp.name}-${Date.now().toString(36)}`;
    await signInAsAdmin(page, "/servers");
    await page.getByRole("button", { name: "Register server", exact: true }).click();
    const dialog = page.getByRole("dialog", { name: "Register a server" });
    await dialog.getByLabel("Name", { exact: true }).fill(`Notes ${vp.name}`);
    await dialog.getByLabel("Slug").fill(slug);
    const summary = dialog.getByLabel("Summary for agents");
    await expect(summary).toBeVisible();
    const box = await summary.boundingBox();
    expect(box && box.x >= 0 && box.x + box.width <= vp.width).toBe(true);

    // Too long: said at once, beside the field, and nothing is sent.
    await summary.fill("x".repeat(201));
    await expect(dialog.getByRole("alert")).toHaveText("The summary is at most 200 characters.");
    await expect(summary).toHaveAttribute("aria-invalid", "true");
    await dialog.getByLabel("Command", { exact: true }).fill(process.execPath);
    await dialog.getByLabel("Arguments (one per line)").fill(MEMORY_SERVER);
    await dialog.getByLabel("Environment (KEY=VALUE lines)").fill(`MEMORY_FILE_PATH=${test.info().outputPath("memory.jsonl")}`);
    await dialog.locator("summary", { hasText: "Advanced" }).click();
    await dialog.getByLabel("Sandbox profile").selectOption("none");
    await dialog.getByRole("button", { name: "Register server" }).click();
    await expect(dialog.getByTestId("register-progress")).toHaveCount(0);
    expect((await page.request.get(`/api/v1/servers/${slug}`)).status()).toBe(404);
    await noSidewaysScroll(page);

    await summary.fill("  A knowledge graph of people, projects and notes  ");
    await expect(dialog.getByRole("alert")).toHaveCount(0);
    await dialog.getByRole("button", { name: "Register server" }).click();
    registered.push(slug);
    await expect(dialog.getByTestId("register-progress")).toHaveAttribute("data-outcome", "up");
    await dialog.getByRole("button", { name: "Done" }).click();
    expect((await serverOf(page, slug)).summary).toBe("A knowledge graph of people, projects and notes");

    // The Settings tab shows it and changes it.
    await page.goto(`/servers/${slug}?tab=settings`);
    const field = page.getByRole("textbox", { name: /^Summary for agents/ });
    await expect(field).toHaveValue("A knowledge graph of people, projects and notes");
    await noSidewaysScroll(page);
    await field.fill("Remembers entities and their relations");
    await page.getByRole("button", { name: "Save summary" }).click();
    await expect(page.locator("[data-sonner-toast]").filter({ hasText: "Remembers entities and their relations" })).toBeVisible();
    expect((await serverOf(page, slug)).summary).toBe("Remembers entities and their relations");
    // Cleared: the line is derived again (from the server's instructions or tool names).
    await field.fill("");
    await page.getByRole("button", { name: "Save summary" }).click();
    await expect(page.locator("[data-sonner-toast]").filter({ hasText: "summary is derived again" })).toBeVisible();
    expect((await serverOf(page, slug)).summary).toBeNull();
  });
}

test("PATCH /api/v1/servers/{slug} – refuses a hostile summary with validation_failed and a code per field, keeping the summary", async ({
  page,
}) => {
  await signInAsAdmin(page);
  const slug = `summary-api-${Date.now().toString(36)}`;
  const created = await page.request.post("/api/v1/servers", {
    data: {
      slug,
      name: "Summary API",
      summary: "Kept through every refusal",
      transport: "stdio",
      command: process.execPath,
      args: [MEMORY_SERVER],
      env: { MEMORY_FILE_PATH: test.info().outputPath("memory.jsonl") },
      isolation: { profile: "none" },
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  registered.push(slug);
  const cases: [string, string][] = [
    ["two\nlines", "summary_control_character"],
    ["bidi \u202e override", "summary_control_character"],
    ["x".repeat(201), "summary_too_long"],
    ["nul \u0000 inside", "unstorable_text"],
    ["lone \ud800 surrogate", "unstorable_text"],
  ];
  for (const [summary, code] of cases) {
    const res = await page.request.patch(`/api/v1/servers/${slug}`, { data: { summary } });
    expect(res.status(), JSON.stringify(summary)).toBe(422);
    const body = (await res.json()) as { error: { code: string; details: { path: string; code?: string }[] } };
    expect(body.error.code).toBe("validation_failed");
    expect(body.error.details).toEqual([expect.objectContaining({ path: "summary", code })]);
  }
  expect((await serverOf(page, slug)).summary).toBe("Kept through every refusal");
});
