import { fileURLToPath } from "node:url";
import { expect, test, type APIRequestContext, type Page } from "./fixtures";
import type { TServer, TToolSummary } from "@/lib/schemas";
import { signInAsAdmin } from "./helpers";

// The reference memory server over stdio, started with the node that runs these tests. Each test gives it
// its own MEMORY_FILE_PATH, so nothing is written next to the package in node_modules.
const MEMORY_SERVER = fileURLToPath(
  new URL("../node_modules/@modelcontextprotocol/server-memory/dist/index.js", import.meta.url),
);
const EVERYTHING_SERVER = fileURLToPath(
  new URL("../node_modules/@modelcontextprotocol/server-everything/dist/index.js", import.meta.url),
);
// A fixture whose tools change with CATALOG_VARIANT, run through tsx.
const CATALOG_SERVER = fileURLToPath(new URL("./fixtures/catalog-server.ts", import.meta.url));
const TSX_LOADER = fileURLToPath(new URL("../node_modules/tsx/dist/loader.mjs", import.meta.url));

type ServerWithTools = { server: TServer; tools: TToolSummary[] };

// These tests are about registering and running servers, and write MEMORY_FILE_PATH under test-results: they
// run unsandboxed, chosen explicitly (e2e/sandbox.spec.ts covers the sandbox).
const UNSANDBOXED = { isolation: { profile: "none" } } as const;

/** A unique slug per call, so tests never collide in the shared database. */
function uniqueSlug(prefix: string): string {
  return `${prefix}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
}

const registered: string[] = [];

async function registerMemoryViaApi(request: APIRequestContext, slug: string): Promise<ServerWithTools> {
  const res = await request.post("/api/v1/servers", {
    data: {
      slug,
      name: `Memory ${slug}`,
      transport: "stdio",
      command: process.execPath,
      args: [MEMORY_SERVER],
      env: { MEMORY_FILE_PATH: test.info().outputPath(`${slug}.jsonl`) },
      ...UNSANDBOXED,
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  registered.push(slug);
  const body = (await res.json()) as ServerWithTools;
  expect(body.server.status).not.toBe("DOWN");
  return body;
}

/** The call form starts as fields from the schema; these tests type raw JSON. */
async function rawJson(page: Page) {
  const toggle = page.getByRole("switch", { name: "Raw JSON" });
  if ((await toggle.getAttribute("aria-checked")) !== "true") await toggle.click();
  return page.getByLabel("Arguments (JSON)");
}

async function runCall(page: Page, args: string) {
  await (await rawJson(page)).fill(args);
  await page.getByRole("button", { name: "Run call" }).click();
  return page.getByTestId("call-result");
}

test.afterEach(async ({ page }) => {
  // Stops the upstream processes the test started and keeps the Servers list short for other specs.
  while (registered.length) await page.request.delete(`/api/v1/servers/${registered.pop()}`);
});

test("an admin registers the memory server and sees its tools", async ({ page }) => {
  const slug = uniqueSlug("memory");
  await signInAsAdmin(page);
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Servers & Tools" }).click();
  await expect(page).toHaveURL(/\/servers$/);

  await page.getByRole("button", { name: "Register server", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Register a server" });
  await expect(dialog).toBeVisible();
  await dialog.getByLabel("Name", { exact: true }).fill(`Memory ${slug}`);
  // The slug follows the name until it is edited.
  await expect(dialog.getByLabel("Slug")).toHaveValue(`memory-${slug}`);
  await dialog.getByLabel("Slug").fill(slug);
  await expect(dialog.getByLabel("stdio")).toBeChecked();
  await dialog.getByLabel("Command", { exact: true }).fill(process.execPath);
  await dialog.getByLabel("Arguments (one per line)").fill(MEMORY_SERVER);
  await dialog
    .getByLabel("Environment (KEY=VALUE lines)")
    .fill(`MEMORY_FILE_PATH=${test.info().outputPath("memory.jsonl")}`);
  // The file lives under test-results, which a sandbox cannot write: this server runs unsandboxed. The sandbox
  // is under Advanced, closed at first.
  await expect(dialog.getByLabel("Sandbox profile")).toBeHidden();
  await dialog.locator("summary", { hasText: "Advanced" }).click();
  await dialog.getByLabel("Sandbox profile").selectOption("none");
  await dialog.getByRole("button", { name: "Register server" }).click();
  registered.push(slug);

  // The dialog follows the steps, then lists the tools it found.
  const progress = dialog.getByTestId("register-progress");
  await expect(progress).toHaveAttribute("data-outcome", "up");
  await expect(progress.getByTestId("register-step")).toHaveCount(3);
  for (const step of await progress.getByTestId("register-step").all())
    await expect(step).toHaveAttribute("data-state", "done");
  await expect(dialog.getByTestId("registered-tools")).toContainText("create_entities");
  await dialog.getByRole("button", { name: "Done" }).click();
  await expect(dialog).toBeHidden();
  const api = (await (await page.request.get(`/api/v1/servers/${slug}`)).json()) as ServerWithTools;
  const toolCount = api.tools.length;
  expect(toolCount).toBeGreaterThan(0);
  const toast = page.locator("[data-sonner-toast]").filter({ hasText: `Registered Memory ${slug}` });
  await expect(toast).toContainText(`${toolCount} tools discovered.`);

  const row = page.locator(`[data-testid="server-row"][data-slug="${slug}"]`);
  await expect(row.getByTestId("server-status")).toHaveText("Healthy");
  await expect(row).toContainText(`v${api.server.activeVersion}`);
  await expect(row.getByRole("switch", { name: `Memory ${slug} enabled` })).toBeChecked();

  await row.getByRole("link", { name: `Memory ${slug}` }).click();
  await expect(page).toHaveURL(new RegExp(`/servers/${slug}$`));
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Memory ${slug}`);
  await expect(page.getByRole("tab", { name: /Tools/ })).toHaveAttribute("aria-selected", "true");
  await expect(page.getByTestId("tool-row")).toHaveCount(toolCount);
  for (const tool of ["create_entities", "read_graph", "search_nodes"]) {
    await expect(
      page.locator(`[data-testid="tool-row"][data-name="${slug}__${tool}"]`).getByRole("link", { name: tool }),
    ).toBeVisible();
  }

  // The first version lists everything the server offered.
  await page.getByRole("tab", { name: "Versions" }).click();
  await expect(page).toHaveURL(/\?tab=versions$/);
  const version = page.locator(`[data-testid="version"][data-version="${api.server.activeVersion}"]`);
  await expect(version).toContainText("Active");
  await expect(version.getByRole("list", { name: "Added" }).first()).toContainText("create_entities");
});

test("the Resources & prompts tab shows what the server offers besides tools and where agents reach it", async ({ page }) => {
  await signInAsAdmin(page);
  const slug = uniqueSlug("everything");
  const res = await page.request.post("/api/v1/servers", {
    data: { slug, name: `Everything ${slug}`, transport: "stdio", command: process.execPath, args: [EVERYTHING_SERVER, "stdio"], ...UNSANDBOXED },
  });
  expect(res.status(), await res.text()).toBe(201);
  registered.push(slug);
  const offerings = (await (await page.request.get(`/api/v1/servers/${slug}/offerings`)).json()) as {
    resources: { name: string }[];
    prompts: { name: string }[];
  };
  expect(offerings.resources.length).toBeGreaterThan(0);
  expect(offerings.prompts.length).toBeGreaterThan(0);

  await page.goto(`/servers/${slug}`);
  await page.getByRole("tab", { name: "Resources & prompts" }).click();
  await expect(page).toHaveURL(/\?tab=offerings$/);
  await expect(page.getByText(`/mcp/s/${slug}`)).toBeVisible();
  await expect(page.getByRole("heading", { name: /^Resources \(/ })).toContainText(`(${offerings.resources.length})`);
  await expect(page.getByRole("heading", { name: /^Prompts \(/ })).toContainText(`(${offerings.prompts.length})`);
  await expect(page.getByText(offerings.prompts[0]!.name, { exact: true })).toBeVisible();
});

test("an admin opens a tool, sees its schema and lint findings, and tries a call that succeeds", async ({ page }) => {
  const slug = uniqueSlug("mem-call");
  await signInAsAdmin(page);
  const { tools } = await registerMemoryViaApi(page.request, slug);
  const tool = tools.find((t) => t.tool === "create_entities");
  expect(tool).toBeDefined();

  await page.goto(`/servers/${slug}`);
  await page.getByRole("link", { name: "create_entities", exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/tools/${slug}__create_entities$`));
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(tool?.title ?? "create_entities");
  await expect(page.getByTestId("gateway-name")).toHaveText(`${slug}__create_entities`);
  await expect(page.getByTestId("tool-description")).toHaveText(tool?.description ?? "");

  // The input schema as a property table, nested array items included.
  const schema = page.getByRole("table", { name: "Input schema" });
  await expect(schema.locator('[data-path="entities"]')).toContainText("array of object");
  const entityType = schema.locator('[data-path="entities[].entityType"]');
  await expect(entityType).toContainText("string");
  await expect(entityType).toContainText("required");
  await expect(entityType).toContainText("The type of the entity");

  // Lint findings with severity, path and message.
  const findings = page.getByTestId("lint-finding");
  await expect(page.getByRole("heading", { name: `Lint findings (${tool?.lintFindings.length})` })).toBeVisible();
  await expect(findings).toHaveCount(tool?.lintFindings.length ?? 0);
  const noDescription = findings.filter({ hasText: "param-missing-description" }).first();
  await expect(noDescription).toContainText("Warning");
  await expect(noDescription).toContainText("entities");
  await expect(noDescription).toContainText("has no description");

  // The arguments start as an example built from the schema's required properties.
  const example = JSON.parse(await (await rawJson(page)).inputValue()) as unknown;
  expect(example).toEqual({ entities: [{ name: "", entityType: "", observations: [] }] });

  const result = await runCall(
    page,
    JSON.stringify({ entities: [{ name: "Ada", entityType: "person", observations: ["writes tests"] }] }),
  );
  await expect(result).toHaveAttribute("data-outcome", "success");
  await expect(result).toContainText("The call succeeded");
  await expect(result.getByTestId("structured-content")).toContainText('"name": "Ada"');

  // The call really reached the server.
  const graph = await page.request.post(`/api/v1/tools/${slug}__read_graph/call`, { data: { arguments: {} } });
  expect(graph.status()).toBe(200);
  expect(JSON.stringify(await graph.json())).toContain("writes tests");
});

test("a call with bad arguments shows the validation error naming the path", async ({ page }) => {
  const slug = uniqueSlug("mem-bad");
  await signInAsAdmin(page);
  await registerMemoryViaApi(page.request, slug);
  await page.goto(`/tools/${slug}__create_entities`);

  // Not JSON at all: caught before anything is sent.
  await (await rawJson(page)).fill("{ entities: ");
  await page.getByRole("button", { name: "Run call" }).click();
  await expect(page.getByRole("form", { name: "Try a call" }).getByRole("alert")).toContainText(
    "The arguments are not valid JSON",
  );
  await expect(page.getByTestId("call-result")).toHaveCount(0);

  const result = await runCall(page, JSON.stringify({ entities: [{ name: "Ada" }] }));
  await expect(result).toHaveAttribute("data-outcome", "error");
  await expect(result).toContainText("The tool returned an error");
  await expect(result).toContainText("invalid_arguments");
  const problems = result.getByRole("list", { name: "Problems" }).getByRole("listitem");
  await expect(problems.filter({ hasText: "missing required property entityType" })).toContainText("/entities/0");
  await expect(problems.filter({ hasText: "missing required property observations" })).toContainText("/entities/0");
});

test("disabling a tool removes it from the server's callable tools", async ({ page }) => {
  const slug = uniqueSlug("mem-off");
  const name = `${slug}__delete_entities`;
  await signInAsAdmin(page);
  await registerMemoryViaApi(page.request, slug);
  await page.goto(`/servers/${slug}`);

  const toggle = page.getByRole("switch", { name: `${name} enabled` });
  await expect(toggle).toBeChecked();
  await toggle.click();
  await expect(page.getByText(`${name} is disabled: agents can no longer call it`)).toBeVisible();
  await expect(toggle).not.toBeChecked();

  // Stored, and refused by the gateway.
  const list = (await (await page.request.get("/api/v1/tools")).json()) as { items: TToolSummary[] };
  expect(list.items.find((t) => t.name === name)?.enabled).toBe(false);
  expect(list.items.find((t) => t.name === `${slug}__read_graph`)?.enabled).toBe(true);
  const refused = await page.request.post(`/api/v1/tools/${name}/call`, { data: { arguments: { entityNames: [] } } });
  expect(refused.status()).toBe(404);
  expect(((await refused.json()) as { error: { message: string } }).error.message).toContain(
    "disabled by an administrator",
  );

  // The tool page says so, and a call from it is refused.
  await page.getByRole("link", { name: "delete_entities", exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/tools/${name}$`));
  await expect(page.getByRole("switch", { name: "Enabled" })).not.toBeChecked();
  await expect(page.getByRole("main")).toContainText("Disabled");
  const result = await runCall(page, '{"entityNames": []}');
  await expect(result).toHaveAttribute("data-outcome", "error");
  await expect(result).toContainText("disabled by an administrator");

  // Enabled again, it passes the gateway's checks again: as a destructive tool it is HIGH (waits for an
  // approval) until an admin lowers its tier.
  await page.getByRole("switch", { name: "Enabled" }).click();
  await expect(page.getByText(`${name} is enabled`)).toBeVisible();
  await expect(page.getByRole("switch", { name: "Enabled" })).toBeChecked();
  const held = await runCall(page, '{"entityNames": []}');
  await expect(held).toHaveAttribute("data-outcome", "error");
  await expect(held).toContainText("approval_required");
  expect((await page.request.patch(`/api/v1/tools/${name}`, { data: { riskTier: "MEDIUM" } })).status()).toBe(200);
  const again = await runCall(page, '{"entityNames": []}');
  await expect(again).toHaveAttribute("data-outcome", "success");
});

test("a server that cannot start shows DOWN with its error", async ({ page }) => {
  const id = uniqueSlug("e2e");
  const name = `Broken ${id}`;
  const slug = `broken-${id}`; // derived from the name
  await signInAsAdmin(page, "/servers");
  await page.getByRole("button", { name: "Register server", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Register a server" });
  await dialog.getByLabel("Name", { exact: true }).fill(name);
  await dialog.getByLabel("Command", { exact: true }).fill("/nonexistent/portcullis-e2e-server");
  await dialog.getByRole("button", { name: "Register server" }).click();
  registered.push(slug);

  // The dialog says which step failed and why; the first step of a command is starting it.
  const progress = dialog.getByTestId("register-progress");
  await expect(progress).toHaveAttribute("data-outcome", "down");
  await expect(progress.locator('[data-testid="register-step"][data-state="failed"]')).toHaveCount(1);
  await expect(dialog.getByTestId("register-error")).toContainText("ENOENT");
  await dialog.getByRole("button", { name: "Done" }).click();
  await expect(dialog).toBeHidden();

  const toast = page.locator("[data-sonner-toast]").filter({ hasText: `Registered ${name}, but it could not connect` });
  await expect(toast).toContainText("ENOENT");
  const row = page.locator(`[data-testid="server-row"][data-slug="${slug}"]`);
  await expect(row.getByTestId("server-status")).toHaveText("Down");
  await expect(row.getByTestId("server-status")).toHaveAttribute("title", /ENOENT/);
  await expect(row.getByTestId("server-error")).toContainText("/nonexistent/portcullis-e2e-server");

  // Retrying tries to connect again, and says it is still down.
  await row.getByRole("button", { name: `Retry connecting to ${name}` }).click();
  await expect(page.getByText(`${name} is still down`)).toBeVisible();
  await expect(row.getByTestId("server-status")).toHaveText("Down");

  await row.getByRole("link", { name }).click();
  await expect(page.getByRole("alert").filter({ hasText: "The server is down" })).toContainText("ENOENT");
  await expect(page.getByRole("heading", { name: "No tools discovered" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Retry" })).toBeVisible();
});

test("an admin starts a canary with new launch settings, sees its breaking changes, and promotes it", async ({
  page,
}) => {
  const slug = uniqueSlug("catalog");
  await signInAsAdmin(page);
  const res = await page.request.post("/api/v1/servers", {
    data: {
      slug,
      name: `Catalog ${slug}`,
      transport: "stdio",
      command: process.execPath,
      args: ["--import", TSX_LOADER, CATALOG_SERVER],
      ...UNSANDBOXED,
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  registered.push(slug);

  await page.goto(`/servers/${slug}?tab=canary`);
  const form = page.getByRole("form", { name: "Start a canary" });
  // The launch settings start from the active version's.
  await expect(form.getByLabel("Command", { exact: true })).toHaveValue(process.execPath);
  await expect(form.getByLabel("Arguments (one per line)")).toHaveValue(
    ["--import", TSX_LOADER, CATALOG_SERVER].join("\n"),
  );
  await form.getByLabel("Environment (KEY=VALUE lines)").fill("CATALOG_VARIANT=2");
  await form.getByLabel("Share in percent").fill("25");
  await form.getByRole("button", { name: "Start canary" }).click();
  await expect(page.getByText("Canary v2.0.0 started")).toBeVisible();
  await expect(page.getByTestId("canary-share")).toHaveText("25%");

  // What the canary changes, breaking parts first in line.
  const diff = page.getByRole("region", { name: "What the canary changes" });
  await expect(diff.getByRole("list", { name: "Added" })).toContainText("count_items");
  await expect(diff.getByRole("list", { name: "Removed (breaking)" })).toContainText("list_items");
  const change = diff.getByTestId("diff-change");
  await expect(change).toHaveAttribute("data-breaking", "true");
  await expect(change).toContainText("find_item");
  await expect(change).toContainText("sku is newly required");

  await page.getByLabel("Share of sessions on the canary").fill("50");
  await expect(page.getByText("Canary share set to 50%")).toBeVisible();
  const after = (await (await page.request.get(`/api/v1/servers/${slug}`)).json()) as ServerWithTools;
  expect(after.server.canaryPercent).toBe(50);

  await page.getByRole("button", { name: "Promote v2.0.0" }).click();
  await expect(page.getByText("v2.0.0 promoted")).toBeVisible();
  await expect(page.getByRole("form", { name: "Start a canary" })).toBeVisible();
  const promoted = (await (await page.request.get(`/api/v1/servers/${slug}`)).json()) as ServerWithTools;
  expect(promoted.server).toMatchObject({ activeVersion: "2.0.0", canaryVersion: null });

  await page.getByRole("tab", { name: /Versions/ }).click();
  await expect(page.locator('[data-testid="version"][data-version="2.0.0"]')).toContainText("Active");
  await expect(page.locator('[data-testid="version"][data-version="2.0.0"]')).toContainText("Breaking changes");
});

test("an admin removes a server after confirming, and its page is gone", async ({ page }) => {
  const slug = uniqueSlug("mem-rm");
  await signInAsAdmin(page);
  await registerMemoryViaApi(page.request, slug);
  await page.goto(`/servers/${slug}`);
  await page.getByRole("button", { name: "Remove" }).click();
  const confirm = page.getByRole("dialog", { name: `Remove Memory ${slug}?` });
  await expect(confirm).toContainText("cannot be undone");
  await confirm.getByRole("button", { name: "Remove server" }).click();
  await expect(page).toHaveURL(/\/servers$/);
  await expect(page.getByText(`Memory ${slug} removed`)).toBeVisible();
  await expect(page.locator(`[data-testid="server-row"][data-slug="${slug}"]`)).toHaveCount(0);
  registered.splice(registered.indexOf(slug), 1);

  expect((await page.request.get(`/api/v1/servers/${slug}`)).status()).toBe(404);
  await page.goto(`/servers/${slug}`);
  await expect(page.getByRole("heading", { name: `There is no server “${slug}”` })).toBeVisible();
});

test("server and tool pages send a signed-out visitor to sign in, keeping the destination", async ({
  playwright,
  baseURL,
}) => {
  const stranger = await playwright.request.newContext({ baseURL });
  for (const path of ["/servers/memory", "/tools", "/tools/memory__read_graph"]) {
    const res = await stranger.get(path, { maxRedirects: 0 });
    expect(res.status(), path).toBe(307);
    expect(res.headers().location, path).toMatch(new RegExp(`/signin\\?callbackUrl=${encodeURIComponent(path)}$`));
  }
  await stranger.dispose();
});

test("the built-in server is listed as built in; its page shows the gateway's own tools without connection or server actions", async ({ page }) => {
  await signInAsAdmin(page, "/servers");
  const row = page.locator('[data-testid="server-row"][data-slug="portcullis"]');
  await expect(row.getByTestId("server-status")).toHaveText("Built in");
  await expect(row.getByRole("button", { name: /Retry/ })).toHaveCount(0);
  await row.getByRole("link", { name: "Portcullis (built-in)" }).click();
  await expect(page).toHaveURL(/\/servers\/portcullis$/);
  await expect(page.getByTestId("server-status")).toHaveText("Built in");
  await expect(page.getByTestId("tool-row")).toHaveCount(9);
  await expect(page.getByRole("button", { name: "Remove" })).toHaveCount(0);
  await expect(page.getByRole("tab", { name: "Logs" })).toHaveCount(0);
});
