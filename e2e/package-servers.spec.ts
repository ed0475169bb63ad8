import { expect, test, type Locator, type Page } from "./fixtures";
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
  await signInAsAdmin(page, "/servers");
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

      await dialog
        .getByLabel("Command", { exact: true })
        .fill("npx -y @modelcontextprotocol/server-everything@^2026.1.0");
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

      await expect(isolation.locator('option[value="docker"]')).not.toContainText("package servers");
      // A package server is started by the gateway too: it has the sandbox (not Docker: it runs from a host
      // directory); a URL server does not.
      await dialog.getByRole("radio", { name: /^Package/ }).check();
      await expect(advanced.getByTestId("isolation-fields")).toBeVisible();
      await expect(isolation.locator('option[value="docker"]')).toBeDisabled();
      await expect(isolation.locator('option[value="docker"]')).toContainText(
        "unavailable: package servers run from a host directory",
      );
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

    test("a stdio npx command registered anyway answers with the package hint; the connect timeout is set under Advanced and changed in the settings", async ({
      page,
    }) => {
      const dialog = await openRegisterDialog(page);
      const slug = uniqueSlug("npx");
      await dialog.getByLabel("Name", { exact: true }).fill(`Npx ${slug}`);
      await dialog.getByLabel("Slug").fill(slug);
      await dialog.getByLabel("Command", { exact: true }).fill(`npx -y ${MEMORY_PACKAGE}`);
      await expect(dialog.getByTestId("package-suggestion")).toBeVisible();
      await dialog.locator("summary", { hasText: "Advanced" }).click();
      // The shortest bound there is: npx cannot fetch the package inside the sandbox in time, so it fails fast.
      await dialog.getByLabel("Connect timeout (ms) (optional)").fill("1000");
      await dialog.getByRole("button", { name: "Register server" }).click();
      registered.push(slug);

      const progress = dialog.getByTestId("register-progress");
      await expect(progress).toHaveAttribute("data-outcome", "down", { timeout: 30_000 });
      await expect(dialog.getByTestId("register-hint")).toContainText(
        `fetches and runs the npm package ${MEMORY_PACKAGE} at every start`,
      );
      await expect(dialog.getByTestId("register-error")).not.toBeEmpty();
      const created = (await (await page.request.get(`/api/v1/servers/${slug}`)).json()) as ServerWithTools;
      expect(created.server).toMatchObject({ transport: "stdio", connectTimeoutMs: 1000 });
      await dialog.getByRole("button", { name: "Done" }).click();
      await expect(dialog).toBeHidden();

      await page.goto(`/servers/${slug}?tab=settings`);
      await expect(page.getByTestId("server-connect-timeout")).toHaveText("1 s");
      const field = page.getByLabel("Connect timeout (ms)");
      await expect(field).toHaveValue("1000");
      await field.fill("");
      await page.getByRole("button", { name: "Save connect timeout" }).click();
      // Empty is no value: the browser keeps the form from being sent.
      expect(await field.evaluate((el: HTMLInputElement) => el.validity.valueMissing)).toBe(true);
      await field.fill("45000");
      await page.getByRole("button", { name: "Save connect timeout" }).click();
      await expect(page.getByText(`Npx ${slug} may take 45 s to connect`)).toBeVisible();
      await expect(page.getByTestId("server-connect-timeout")).toHaveText("45 s");
      const saved = (await (await page.request.get(`/api/v1/servers/${slug}`)).json()) as ServerWithTools;
      expect(saved.server.connectTimeoutMs).toBe(45000);
    });

    test("a package server registered through the dialog shows its steps, then its tools, and its page the installed version", async ({
      page,
    }) => {
      test.setTimeout(180_000);
      const dialog = await openRegisterDialog(page);
      const slug = uniqueSlug("pkg");
      await dialog.getByLabel("Name", { exact: true }).fill(`Memory package ${slug}`);
      await dialog.getByLabel("Slug").fill(slug);
      await dialog.getByRole("radio", { name: /^Package/ }).check();
      await dialog.getByLabel("Package name").fill(MEMORY_PACKAGE);
      // Every step the dialog marks as in progress, in order, as the gateway reports them.
      await dialog.evaluate((el) => {
        const seen: string[] = [];
        (window as unknown as { stepsSeen: string[] }).stepsSeen = seen;
        new MutationObserver(() => {
          const current = el.querySelector('[data-testid="register-step"][data-state="current"]');
          const phase = current?.getAttribute("data-phase");
          if (phase && seen.at(-1) !== phase) seen.push(phase);
        }).observe(el, { subtree: true, childList: true, attributes: true, attributeFilter: ["data-state"] });
      });
      await dialog.getByRole("button", { name: "Register server" }).click();
      registered.push(slug);

      const progress = dialog.getByTestId("register-progress");
      await expect(progress.getByTestId("register-step")).toHaveText([
        /Installing the package/,
        /Starting the server/,
        /Initializing the MCP session/,
        /Listing tools/,
      ]);
      await expect(progress).toHaveAttribute("data-outcome", "up", { timeout: 150_000 });
      for (const step of await progress.getByTestId("register-step").all())
        await expect(step).toHaveAttribute("data-state", "done");
      const seen = await page.evaluate(() => (window as unknown as { stepsSeen: string[] }).stepsSeen);
      const order = ["installing", "starting", "initializing", "listing_tools"];
      expect(seen[0]).toBe("installing");
      expect(seen.map((p) => order.indexOf(p))).toEqual([...seen.map((p) => order.indexOf(p))].sort((a, b) => a - b));

      const api = (await (await page.request.get(`/api/v1/servers/${slug}`)).json()) as ServerWithTools;
      expect(api.server.transport).toBe("npm");
      expect(api.server.phase).toBeNull();
      const tools = dialog.getByTestId("registered-tools");
      await expect(tools).toContainText(`${api.tools.length} tools found`);
      for (const t of api.tools) await expect(tools.getByText(t.tool, { exact: true })).toBeVisible();
      await expect(dialog.getByRole("button", { name: "Done" })).toBeInViewport({ ratio: 1 });

      await dialog.getByRole("link", { name: "Open the server" }).click();
      await expect(page).toHaveURL(new RegExp(`/servers/${slug}$`));
      const card = page.getByTestId("package-card");
      await expect(card.getByTestId("package-name")).toHaveText(MEMORY_PACKAGE);
      await expect(card.getByTestId("package-range")).toHaveText("latest");
      expect(api.server.package?.version).toMatch(/^\d+\.\d+\.\d+/);
      await expect(card.getByTestId("package-version")).toHaveText(api.server.package?.version ?? "");
      expect(api.server.package?.integrity).toBeTruthy();
      await expect(card.getByTestId("package-integrity")).toHaveAttribute("title", api.server.package?.integrity ?? "");
      await expect(page.getByTestId("tool-row")).toHaveCount(api.tools.length);

      // Installed from "latest" just now: checking for updates finds it is the newest, and offers no upgrade.
      await card.getByRole("button", { name: "Check for updates" }).click();
      await expect(card.getByTestId("package-latest")).toHaveText(
        `Up to date: ${api.server.package?.version ?? ""} is the newest in latest`,
      );
      await expect(card.getByRole("button", { name: /^Upgrade to/ })).toHaveCount(0);
    });

    test("the upgrade action shows current → latest and starts the latest as a canary with its tool diff", async ({
      page,
    }) => {
      test.setTimeout(240_000);
      await signInAsAdmin(page);
      const slug = uniqueSlug("pkgup");
      // Installed at the newest release the range allows, then moved back to an older one, so the range now
      // resolves to a newer version than the server runs.
      const created = await page.request.post("/api/v1/servers", {
        data: {
          slug,
          name: `Upgrade ${slug}`,
          transport: "npm",
          package: { name: MEMORY_PACKAGE, version: "^2026.1.0" },
        },
        timeout: 180_000,
      });
      expect(created.status(), await created.text()).toBe(201);
      registered.push(slug);
      const newest = ((await created.json()) as ServerWithTools).server.package?.version ?? "";
      const older = await page.request.post(`/api/v1/servers/${slug}/package/upgrade`, {
        data: { version: "2026.7.4" },
        timeout: 180_000,
      });
      expect(older.status(), await older.text()).toBe(202);
      const promoted = await page.request.patch(`/api/v1/servers/${slug}`, { data: { action: "promote" } });
      expect(promoted.status(), await promoted.text()).toBe(200);
      const latest = (await (await page.request.get(`/api/v1/servers/${slug}/package/latest`)).json()) as {
        current: string;
        latest: string;
      };
      expect(latest).toMatchObject({ current: "2026.7.4", latest: newest });

      await page.goto(`/servers/${slug}`);
      const card = page.getByTestId("package-card");
      await expect(card.getByTestId("package-version")).toHaveText("2026.7.4");
      await card.getByRole("button", { name: "Check for updates" }).click();
      await expect(card.getByTestId("package-latest")).toHaveText(`2026.7.4 → ${newest} (newest in ^2026.1.0)`);
      await card.getByRole("button", { name: `Upgrade to ${newest}` }).click();
      await expect(page.getByText(`Upgrading Upgrade ${slug} to ${newest}`)).toBeVisible({ timeout: 120_000 });

      // The new version runs as a canary; its changes against the active version are the version diff.
      await page.getByRole("tab", { name: /Canary/ }).click();
      await expect(page.getByRole("heading", { name: /^Canary v/ })).toBeVisible();
      const versions = (await (await page.request.get(`/api/v1/servers/${slug}/versions`)).json()) as {
        items: {
          canary: boolean;
          diff: { empty: boolean; tools: { added: string[]; removed: string[]; changed: { name: string }[] } };
        }[];
      };
      const canary = versions.items.find((v) => v.canary);
      expect(canary).toBeDefined();
      const diff = page.getByRole("region", { name: "What the canary changes" });
      if (canary?.diff.empty) await expect(diff).toContainText("Same definitions as the version before");
      else
        for (const name of [
          ...(canary?.diff.tools.added ?? []),
          ...(canary?.diff.tools.removed ?? []),
          ...(canary?.diff.tools.changed.map((c) => c.name) ?? []),
        ])
          await expect(diff).toContainText(name);
      // The package card says a canary runs instead of offering another upgrade.
      await expect(card.getByTestId("package-upgrade")).toContainText("A canary");
    });
  });
}
