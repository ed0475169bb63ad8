import { expect, test, type Locator, type Page } from "@playwright/test";
import type { TServer, TToolSummary } from "@/lib/schemas";
import { signInAsAdmin } from "./helpers";

// Package servers in the console (issue 18 §1) and the Register dialog's sticky footer and Advanced part
// (§3), at desktop and phone width. Installs come from the real npm registry.
type ServerWithTools = { server: TServer; tools: TToolSummary[] };

const MEMORY_PACKAGE = "@modelcontextprotocol/server-memory";
const WIDTHS = [
  { name: "desktop", viewport: { width: 1280, height: 800 } },
  { name: "phone", viewport: { width: 390, height: 844 } },
] as const;

function uniqueSlug(prefix: string): string {
  return `${prefix}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
}

const registered: string[] = [];
test.afterEach(async ({ page }) => {
  while (registered.length) await page.request.delete(`/api/v1/servers/${registered.pop()}`);
});

async function openRegisterDialog(page: Page): Promise<Locator> {
  await signInAsAdmin(page);
  await page.goto("/servers");
  await page.getByRole("button", { name: "Register server", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Register a server" });
  await expect(dialog).toBeVisible();
  return dialog;
}

for (const { name: width, viewport } of WIDTHS) {
  test.describe(`at ${width} width`, () => {
    test.use({ viewport, ...(width === "phone" && { isMobile: true, hasTouch: true }) });

    test("an npx command typed into the stdio form is recognised and turned into a filled package form", async ({
      page,
    }) => {
      const dialog = await openRegisterDialog(page);
      await expect(dialog.getByLabel("stdio")).toBeChecked();
      await expect(dialog.getByTestId("package-suggestion")).toHaveCount(0);
      await dialog.getByLabel("Command", { exact: true }).fill("/usr/bin/node");
      await expect(dialog.getByTestId("package-suggestion")).toHaveCount(0);

      await dialog.getByLabel("Command", { exact: true }).fill("npx -y @modelcontextprotocol/server-everything@^2026.1.0");
      await dialog.getByLabel("Arguments (one per line)").fill("stdio");
      await dialog.getByLabel("Environment (KEY=VALUE lines)").fill("LOG_LEVEL=debug");
      const note = dialog.getByTestId("package-suggestion");
      await expect(note).toContainText("npm package @modelcontextprotocol/server-everything at ^2026.1.0");
      await expect(note).toBeInViewport();
      await note.getByRole("button", { name: "Register as a package" }).click();

      await expect(dialog.getByRole("radio", { name: /^Package/ })).toBeChecked();
      await expect(dialog.getByLabel("Command", { exact: true })).toHaveCount(0);
      await expect(dialog.getByLabel("Registry")).toHaveValue("npm");
      await expect(dialog.getByLabel("Package name")).toHaveValue("@modelcontextprotocol/server-everything");
      await expect(dialog.getByLabel("Package name")).toBeFocused();
      await expect(dialog.getByLabel("Version or range (optional)")).toHaveValue("^2026.1.0");
      await expect(dialog.getByLabel("Extra arguments (one per line)")).toHaveValue("stdio");
      await expect(dialog.getByLabel("Environment (KEY=VALUE lines)")).toHaveValue("LOG_LEVEL=debug");
    });

    test("the main button stays in view with Advanced closed and open, and Advanced holds the sandbox", async ({
      page,
    }) => {
      const dialog = await openRegisterDialog(page);
      const register = dialog.getByRole("button", { name: "Register server" });
      const body = dialog.getByTestId("dialog-body");
      const advanced = dialog.getByTestId("advanced-fields");

      // Closed: the sandbox and timeouts are out of the way.
      await expect(advanced).not.toHaveAttribute("open");
      await expect(dialog.getByLabel("Sandbox profile")).toBeHidden();
      await expect(dialog.getByLabel("Connect timeout (ms) (optional)")).toBeHidden();
      await expect(register).toBeInViewport({ ratio: 1 });

      await advanced.locator("summary").click();
      await expect(advanced).toHaveAttribute("open");
      const isolation = advanced.getByTestId("isolation-fields");
      await expect(isolation.getByLabel("Sandbox profile")).toBeVisible();
      await expect(isolation.getByLabel("Memory (MB)")).toBeVisible();
      await expect(advanced.getByLabel("Connect timeout (ms) (optional)")).toBeVisible();
      // Only the advanced part holds the sandbox.
      await expect(dialog.getByTestId("isolation-fields")).toHaveCount(1);

      // The body is taller than the screen and scrolls; the footer does not move with it.
      expect(await body.evaluate((el) => el.scrollHeight > el.clientHeight)).toBe(true);
      for (const to of ["bottom", "top"] as const) {
        await body.evaluate((el, end) => el.scrollTo({ top: end === "bottom" ? el.scrollHeight : 0 }), to);
        await expect(register).toBeInViewport({ ratio: 1 });
      }
      await isolation.getByLabel("Memory (MB)").scrollIntoViewIfNeeded();
      await expect(register).toBeInViewport({ ratio: 1 });

      // Nothing scrolls sideways.
      expect(await body.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0);

      // A package server is started by the gateway too: it has the sandbox; a URL server does not.
      await dialog.getByRole("radio", { name: /^Package/ }).check();
      await expect(advanced.getByTestId("isolation-fields")).toBeVisible();
      await dialog.getByLabel("Streamable HTTP").check();
      await expect(advanced.getByTestId("isolation-fields")).toHaveCount(0);
      await expect(advanced.getByLabel("Connect timeout (ms) (optional)")).toBeVisible();
    });

    test("a package name npm could never hold is refused before anything is sent", async ({ page }) => {
      const dialog = await openRegisterDialog(page);
      const slug = uniqueSlug("badpkg");
      await dialog.getByLabel("Name", { exact: true }).fill(slug);
      await dialog.getByRole("radio", { name: /^Package/ }).check();
      await dialog.getByLabel("Package name").fill("Not A Package");
      let posted = false;
      page.on("request", (r) => {
        if (r.method() === "POST" && r.url().endsWith("/api/v1/servers")) posted = true;
      });
      await dialog.getByRole("button", { name: "Register server" }).click();
      await expect(dialog.getByRole("alert")).toContainText("is not an npm package name");
      expect(posted).toBe(false);
    });
  });
}
