import { fileURLToPath } from "node:url";
import { expect, test, type APIRequestContext, type Page } from "./fixtures";
import type { TSandboxSupport } from "@/lib/sandbox-schemas";
import type { TServer, TToolSummary } from "@/lib/schemas";
import { installMounts } from "../server/sandbox/install-mounts";
import { signInAsAdmin } from "./helpers";

// The reference memory server over stdio, as in servers.spec.ts, started with the node that runs these tests.
const MEMORY_SERVER = fileURLToPath(
  new URL("../node_modules/@modelcontextprotocol/server-memory/dist/index.js", import.meta.url),
);

// The sandbox hides the gateway's install directory (this checkout): a server run from it gets read-only mounts of
// the packages it loads. The API registrations declare exactly those; the console test mounts node_modules whole,
// as an admin typing one path would.
const REPO_ROOT = fileURLToPath(new URL("..", import.meta.url));
const NODE_MODULES = fileURLToPath(new URL("../node_modules", import.meta.url));
const MEMORY_SERVER_MOUNTS = installMounts(REPO_ROOT, ["@modelcontextprotocol/server-memory"]);

type ServerWithTools = { server: TServer; tools: TToolSummary[] };

function uniqueSlug(prefix: string): string {
  return `${prefix}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
}

const registered: string[] = [];

test.afterEach(async ({ page }) => {
  // Stops the sandboxed processes the test started and keeps the Servers list short for other specs.
  while (registered.length) await page.request.delete(`/api/v1/servers/${registered.pop()}`);
});

async function sandboxSupport(request: APIRequestContext): Promise<TSandboxSupport> {
  const res = await request.get("/api/v1/sandbox");
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()) as TSandboxSupport;
}

/** Registers the memory server in bubblewrap (this host's default profile, as the first test checks). */
async function registerViaApi(request: APIRequestContext, slug: string): Promise<ServerWithTools> {
  const res = await request.post("/api/v1/servers", {
    data: {
      slug,
      name: `Sandboxed ${slug}`,
      transport: "stdio",
      command: process.execPath,
      args: [MEMORY_SERVER],
      env: { MEMORY_FILE_PATH: test.info().outputPath(`${slug}.jsonl`) },
      isolation: { profile: "bwrap", mounts: MEMORY_SERVER_MOUNTS },
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  registered.push(slug);
  return (await res.json()) as ServerWithTools;
}

async function getServer(request: APIRequestContext, slug: string): Promise<TServer> {
  return ((await (await request.get(`/api/v1/servers/${slug}`)).json()) as ServerWithTools).server;
}

async function openSettings(page: Page, slug: string) {
  await page.goto(`/servers/${slug}?tab=settings`);
  await expect(page.getByRole("tab", { name: "Settings" })).toHaveAttribute("aria-selected", "true");
  return page.getByRole("form", { name: "Sandbox settings" });
}

test("an admin registers a stdio server, which runs in the host's default sandbox (bubblewrap)", async ({ page }) => {
  await signInAsAdmin(page);
  const support = await sandboxSupport(page.request);
  expect(support.defaultProfile).toBe("bwrap");
  expect(support.profiles.find((p) => p.profile === "bwrap")?.available).toBe(true);

  const slug = uniqueSlug("sandboxed");
  await page.goto("/servers");
  await page.getByRole("button", { name: "Register server", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Register a server" });
  await dialog.getByLabel("Name", { exact: true }).fill(`Sandboxed ${slug}`);
  await dialog.getByLabel("Slug").fill(slug);
  await dialog.getByLabel("Command", { exact: true }).fill(process.execPath);
  await dialog.getByLabel("Arguments (one per line)").fill(MEMORY_SERVER);
  await dialog
    .getByLabel("Environment (KEY=VALUE lines)")
    .fill(`MEMORY_FILE_PATH=${test.info().outputPath("m.jsonl")}`);

  // The sandbox is under Advanced. The host's default is preselected; a profile this host cannot run is offered
  // disabled, with the reason.
  await dialog.locator("summary", { hasText: "Advanced" }).click();
  const profile = dialog.getByLabel("Sandbox profile");
  await expect(profile).toHaveValue("bwrap");
  for (const p of support.profiles) {
    const option = profile.locator(`option[value="${p.profile}"]`);
    if (p.available) await expect(option).toBeEnabled();
    else {
      await expect(option).toBeDisabled();
      await expect(option).toContainText(p.detail);
    }
  }
  await expect(dialog.getByTestId("sandbox-support")).toContainText("bwrap:");
  await expect(dialog.getByLabel("Memory (MB)")).toHaveValue("512");
  await expect(dialog.getByTestId("unsandboxed-warning")).toBeHidden();

  // Choosing "none" warns before anything is saved; back to bubblewrap for this server.
  await profile.selectOption("none");
  await expect(dialog.getByTestId("unsandboxed-warning")).toContainText("gateway's own privileges");
  await profile.selectOption("bwrap");
  await expect(dialog.getByTestId("unsandboxed-warning")).toBeHidden();
  await dialog.getByLabel("Processes", { exact: true }).fill("48");
  await dialog.getByRole("button", { name: "Add mount" }).click();
  await dialog.getByLabel("Mount 1 path").fill(NODE_MODULES);
  await expect(dialog.getByLabel("Mount 1 writable")).not.toBeChecked();

  await dialog.getByRole("button", { name: "Register server" }).click();
  registered.push(slug);
  await expect(dialog.getByTestId("register-progress")).toHaveAttribute("data-outcome", "up");
  await dialog.getByRole("button", { name: "Done" }).click();
  await expect(dialog).toBeHidden();

  const server = await getServer(page.request, slug);
  expect(server.isolation).toMatchObject({
    profile: "bwrap",
    memoryMb: 512,
    pids: 48,
    network: [],
    mounts: [{ path: NODE_MODULES, writable: false }],
  });

  const row = page.locator(`[data-testid="server-row"][data-slug="${slug}"]`);
  await expect(row.getByTestId("server-status")).toHaveText("Healthy");
  await expect(row.getByTestId("isolation-profile")).toHaveText("bwrap");
  await expect(row.getByTestId("unsandboxed-badge")).toHaveCount(0);

  await row.getByRole("link", { name: `Sandboxed ${slug}` }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Sandboxed ${slug}`);
  await expect(page.getByTestId("server-status").first()).toHaveText("Healthy");
  await expect(page.getByTestId("isolation-profile").first()).toHaveText("bwrap");
  await expect(page.getByTestId("isolation-profile").first()).toHaveAttribute("title", /48 processes/);
});

test("setting the profile to none marks the server Unsandboxed on the list, its page and its tools", async ({
  page,
}) => {
  await signInAsAdmin(page);
  const slug = uniqueSlug("unsandboxed");
  const { server: registeredServer, tools } = await registerViaApi(page.request, slug);
  expect(registeredServer.status).toBe("HEALTHY");

  const form = await openSettings(page, slug);
  const profile = form.getByLabel("Sandbox profile");
  await expect(profile).toHaveValue("bwrap");
  await expect(page.getByTestId("unsandboxed-badge")).toHaveCount(0);
  await profile.selectOption("none");
  await expect(form.getByTestId("unsandboxed-warning")).toContainText("Unsandboxed.");
  // Nothing to allow or mount without a sandbox: those fields go away.
  await expect(form.getByLabel(/Network allowlist/)).toHaveCount(0);
  await form.getByRole("button", { name: "Save isolation" }).click();
  await expect(page.locator("[data-sonner-toast]").filter({ hasText: "now runs unsandboxed" })).toBeVisible();

  expect((await getServer(page.request, slug)).isolation?.profile).toBe("none");
  const header = page.getByTestId("unsandboxed-badge").first();
  await expect(header).toHaveText("Unsandboxed");
  await expect(header).toHaveAttribute("title", /gateway's own privileges/);
  await expect(page.getByTestId("process-card").getByTestId("unsandboxed-badge")).toBeVisible();

  await page.goto("/servers");
  const row = page.locator(`[data-testid="server-row"][data-slug="${slug}"]`);
  await expect(row.getByTestId("unsandboxed-badge")).toHaveText("Unsandboxed");
  await expect(row.getByTestId("isolation-profile")).toHaveCount(0);

  // A tool of the server says so too, on its page.
  const tool = tools.find((t) => !t.removed);
  expect(tool).toBeDefined();
  await page.goto(`/tools/${encodeURIComponent(tool!.name)}`);
  await expect(page.getByTestId("gateway-name")).toHaveText(tool!.name);
  await expect(page.getByTestId("unsandboxed-badge")).toBeVisible();
});

test("a bad host in the network allowlist is refused with the API's reason and nothing is saved", async ({ page }) => {
  await signInAsAdmin(page);
  const slug = uniqueSlug("allowlist");
  await registerViaApi(page.request, slug);

  const form = await openSettings(page, slug);
  const network = form.getByLabel(/Network allowlist/);
  await network.fill("api.example.com:443\nbad host");
  await form.getByRole("button", { name: "Save isolation" }).click();

  const errors = form.getByTestId("network-errors");
  await expect(errors).toContainText("“bad host”");
  await expect(errors).toContainText("host:port");
  await expect(network).toHaveAttribute("aria-invalid", "true");
  expect((await getServer(page.request, slug)).isolation?.network).toEqual([]);

  // Fixed, it saves.
  await network.fill("api.example.com:443");
  await form.getByRole("button", { name: "Save isolation" }).click();
  await expect(errors).toHaveCount(0);
  await expect
    .poll(async () => (await getServer(page.request, slug)).isolation?.network)
    .toEqual(["api.example.com:443"]);
});

test("the Process card shows what a running sandboxed server uses against its limits", async ({ page }) => {
  await signInAsAdmin(page);
  const slug = uniqueSlug("process");
  await registerViaApi(page.request, slug);

  await page.goto(`/servers/${slug}`);
  const card = page.getByTestId("process-card");
  await expect(card.getByRole("heading", { name: "Process" })).toBeVisible();
  await expect(card.getByTestId("isolation-profile")).toHaveText("bwrap");
  // Sampling may not have run yet when the page opens; the card refreshes every 5 s.
  await expect(card.getByTestId("process-memory")).toHaveText(/^\d+(\.\d)? MB of 512 MB/, { timeout: 20_000 });
  await expect(card.getByTestId("process-processes")).toHaveText(/^[1-9]\d* of 64/);
  await expect(card.getByRole("meter", { name: "Memory used" })).toHaveAttribute("aria-valuemax", "512");
  // The first sample is taken as the process starts, when its cgroup may have been charged nothing yet (0.0 MB);
  // a later one shows what the running server holds.
  const meter = card.getByRole("meter", { name: "Memory used" });
  await expect.poll(async () => Number(await meter.getAttribute("aria-valuenow")), { timeout: 20_000 }).toBeGreaterThan(0);
  expect(Number(await meter.getAttribute("aria-valuenow"))).toBeLessThan(512);
  await expect(card.getByTestId("process-restarts")).toHaveText("0");
  await expect(card.getByTestId("process-sampled")).not.toHaveText("Not yet");

  // The card polls: a later sample replaces the first one without a reload.
  const first = await card.getByTestId("process-sampled").textContent();
  await expect(card.getByTestId("process-sampled")).not.toHaveText(first ?? "", { timeout: 15_000 });
});

test.describe("at phone width", () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test("the sandbox settings and the process card fit without sideways scrolling", async ({ page }) => {
    await signInAsAdmin(page);
    const slug = uniqueSlug("phone");
    await registerViaApi(page.request, slug);

    await page.goto(`/servers/${slug}`);
    await expect(page.getByTestId("process-card").getByTestId("process-memory")).toBeVisible({ timeout: 20_000 });
    const form = await openSettings(page, slug);
    await form.getByRole("button", { name: "Add mount" }).click();
    await form.getByLabel("Mount 1 path").fill("/srv/a/rather/long/path/to/some/data");
    await expect(form.getByLabel("Mount 1 writable")).toBeVisible();
    await expect(page.getByTestId("task-credentials")).toBeVisible();
    await page.getByRole("switch", { name: "Credentials per task" }).click();
    await expect(page.getByLabel("Schema 1 name")).toHaveValue("public");
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);
    await page.screenshot({ path: test.info().outputPath("sandbox-settings-390.png"), fullPage: true });
  });
});
