import { fileURLToPath } from "node:url";
import { expect, test } from "./fixtures";
import type { TServerWithTools } from "@/lib/schemas";
import { signInAsAdmin } from "./helpers";

const MEMORY_SERVER = fileURLToPath(
  new URL("../node_modules/@modelcontextprotocol/server-memory/dist/index.js", import.meta.url),
);

let slug = "";

test.afterEach(async ({ page }) => {
  if (slug) await page.request.delete(`/api/v1/servers/${slug}`);
});

test("an admin sets a rate limit on a server and overrides it on one tool", async ({ page }) => {
  slug = `limits-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  await signInAsAdmin(page);
  const res = await page.request.post("/api/v1/servers", {
    data: {
      slug,
      name: `Limits ${slug}`,
      transport: "stdio",
      command: process.execPath,
      args: [MEMORY_SERVER],
      env: { MEMORY_FILE_PATH: test.info().outputPath(`${slug}.jsonl`) },
      isolation: { profile: "none" }, // writes under test-results, which a sandbox cannot
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  expect(((await res.json()) as TServerWithTools).server.rateLimitPerMinute).toBeNull();

  // The server: its Settings tab sets the limit each of its tools gets.
  await page.goto(`/servers/${slug}`);
  const connection = page.getByRole("region", { name: "Connection" });
  await expect(connection).toContainText("Gateway default");
  await page.getByRole("tab", { name: "Settings" }).click();
  await page.getByLabel("Rate limit per tool (calls per minute)").fill("120");
  await page.getByRole("button", { name: "Save rate limit" }).click();
  await expect(page.getByText(`Each tool of Limits ${slug} takes at most 120 calls a minute`)).toBeVisible();
  await expect(connection).toContainText("120 calls / min");

  // A tool: empty shows what it inherits; its own value wins, and clearing it goes back to the server's.
  const tool = `${slug}__read_graph`;
  await page.goto(`/tools/${tool}`);
  const field = page.getByLabel("Rate limit (calls per minute)");
  await expect(field).toHaveValue("");
  await expect(field).toHaveAttribute("placeholder", "120 (server)");
  await field.fill("30");
  await page.getByRole("button", { name: "Save rate limit" }).click();
  await expect(page.getByText(`${tool} takes at most 30 calls a minute`)).toBeVisible();
  const saved = await page.request.get(`/api/v1/tools/${tool}`);
  expect(((await saved.json()) as { rateLimitPerMinute: number | null }).rateLimitPerMinute).toBe(30);

  await page.reload();
  await expect(page.getByLabel("Rate limit (calls per minute)")).toHaveValue("30");
  await page.getByLabel("Rate limit (calls per minute)").fill("");
  await page.getByRole("button", { name: "Save rate limit" }).click();
  await expect(page.getByText(`${tool} uses its server's rate limit`)).toBeVisible();
  await expect(page.getByLabel("Rate limit (calls per minute)")).toHaveAttribute("placeholder", "120 (server)");
});
