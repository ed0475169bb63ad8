import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { expect, test, type Page } from "./fixtures";
import { signInAsAdmin } from "./helpers";

// A stdio server that writes two lines to stderr and crashes on a missing module, the way an npm server
// with a broken install does. Unsandboxed: the script lives under test-results (e2e/sandbox.spec.ts covers the sandbox).
const CRASH = `console.error("loading the catalogue");\nrequire("portcullis-missing-module");\n`;

test("a crashing server reads Down in the list and the header, and its page shows the crash's stderr, searchable and copyable", async ({ page, context }) => {
  const slug = `crash-${Date.now().toString(36)}`;
  const script = test.info().outputPath("crash.js");
  writeFileSync(script, CRASH);
  await signInAsAdmin(page);
  const res = await page.request.post("/api/v1/servers", {
    data: { slug, name: `Crash ${slug}`, transport: "stdio", command: process.execPath, args: [script], isolation: { profile: "none" } },
  });
  expect(res.status(), await res.text()).toBe(201);

  try {
    await page.goto("/servers");
    const row = page.locator(`[data-testid="server-row"][data-slug="${slug}"]`);
    await expect(row.getByTestId("server-status")).toHaveText("Down");
    await expect(row.getByTestId("server-error")).toContainText("Cannot find module 'portcullis-missing-module'");

    await row.getByRole("link", { name: `Crash ${slug}` }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Crash ${slug}`);
    // The header, the alert and the Tools tab tell the list's story: down, never "connected".
    await expect(page.getByTestId("server-status")).toHaveText("Down");
    await expect(page.getByTestId("server-last-error")).toContainText("Error: Cannot find module 'portcullis-missing-module'");
    await expect(page.getByTestId("server-no-tools")).toContainText("has not connected");

    await page.getByRole("tab", { name: "Logs" }).click();
    await expect(page).toHaveURL(/\?tab=logs$/);
    const logs = page.getByTestId("server-logs");
    await expect(logs.getByTestId("server-log-lines").first()).toContainText("loading the catalogue");
    await expect(logs.getByTestId("server-log-lines").first()).toContainText("Error: Cannot find module 'portcullis-missing-module'");

    await logs.getByPlaceholder("Search the logs").fill("cannot find");
    const first = logs.getByTestId("server-log-lines").first();
    await expect(first).toContainText("Cannot find module");
    await expect(first).not.toContainText("loading the catalogue");

    await context.grantPermissions(["clipboard-read", "clipboard-write"]);
    // The copy of the crashed process's own log: the server keeps restarting with backoff, so the first section
    // may by now be a newer attempt's (empty) log.
    const crashed = logs.getByRole("region").filter({ hasText: "Cannot find module" }).last();
    await crashed.getByRole("button", { name: "Copy log" }).click();
    await expect(page.locator("[data-sonner-toast]").filter({ hasText: "Log copied to the clipboard" })).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toContain("loading the catalogue");

    // Back on the list, the same state as the header.
    await page.getByRole("link", { name: "Servers & Tools" }).first().click();
    await expect(row.getByTestId("server-status")).toHaveText("Down");
  } finally {
    await page.request.delete(`/api/v1/servers/${slug}`);
  }
});

async function transparentSessionLogs(page: Page, phone: boolean) {
  const slug = `everything-${Date.now().toString(36)}`;
  const everything = fileURLToPath(new URL("../node_modules/@modelcontextprotocol/server-everything/dist/index.js", import.meta.url));
  await signInAsAdmin(page);
  const res = await page.request.post("/api/v1/servers", {
    data: { slug, name: `Everything ${slug}`, transport: "stdio", command: process.execPath, args: [everything, "stdio"], isolation: { profile: "none" } },
  });
  expect(res.status(), await res.text()).toBe(201);
  const minted = await page.request.post("/api/v1/sessions", { data: { agentId: "logs-e2e", tools: [`${slug}__*`] } });
  expect(minted.status(), await minted.text()).toBe(201);
  const { token } = (await minted.json()) as { token: string };
  // An agent on /mcp/s/<slug>: its own upstream process, not the pooled one.
  const client = new Client({ name: "logs-e2e", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL(`/mcp/s/${slug}`, test.info().project.use.baseURL), {
    requestInit: { headers: { authorization: `Bearer ${token}` } },
  });
  try {
    await client.connect(transport);
    await client.listTools();
    const session = (transport.sessionId ?? "").slice(0, 8);
    expect(session).toHaveLength(8);

    await page.goto(`/servers/${slug}?tab=logs`);
    const logs = page.getByTestId("server-logs");
    const own = logs.getByRole("region", { name: `Session ${session} · running` });
    await expect(own.getByTestId("server-log-lines")).toContainText("Starting default (STDIO) server...");

    await transport.terminateSession();
    await expect(logs.getByRole("region", { name: `Session ${session} · ended` })).toBeVisible();
    if (phone) {
      // Long log lines scroll inside their box, not the page.
      expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
    }
  } finally {
    await client.close().catch(() => undefined);
    await page.request.delete(`/api/v1/servers/${slug}`);
  }
}

test("a transparent session's process stderr shows on the Logs tab, marked with its session", async ({ page }) => {
  await transparentSessionLogs(page, false);
});

test.describe("at phone width", () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test("a transparent session's process stderr shows on the Logs tab, and the page does not scroll sideways", async ({ page }) => {
    await transparentSessionLogs(page, true);
  });
});
