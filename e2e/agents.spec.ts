import { isGatewayTool } from "@/server/mcp/gateway-tools";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { McpError } from "@modelcontextprotocol/sdk/types.js";
import { expect, test, type Page } from "./fixtures";
import type { TAgentSession, TSessionSettings } from "@/lib/policy-schemas";
import { createUserViaApi, signIn, signInAsAdmin, uniqueEmail } from "./helpers";

const TOOL = "orders__query_orders";
const OTHER_TOOL = "orders__update_order";

const unique = (prefix: string) => `${prefix}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

function sdkClient(url: string, token: string) {
  const client = new Client({ name: "portcullis-e2e", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: { headers: { Authorization: `Bearer ${token}` } },
  });
  return { client, transport };
}

async function openAgents(page: Page) {
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Agents" }).click();
  await expect(page).toHaveURL(/\/agents$/);
  await expect(page.getByRole("heading", { level: 1, name: "Agents" })).toBeVisible();
}

test.describe.serial("an agent session from the console", () => {
  const agent = unique("sdk-bot");
  let token = "";
  let url = "";

  test("connect an agent from the console and use the token with the SDK", async ({ page, baseURL }) => {
    url = `${baseURL}/mcp`;
    await signInAsAdmin(page);
    await openAgents(page);

    await page.getByRole("button", { name: "Connect an agent" }).click();
    const dialog = page.getByRole("dialog", { name: "Connect an agent" });
    await expect(dialog).toBeVisible();
    await dialog.getByLabel("Agent name").fill(agent);
    await dialog.getByLabel(TOOL, { exact: true }).check();
    // Admins hold every tool and path: the hints say so.
    await expect(dialog.getByRole("list", { name: "Tool patterns you hold" })).toBeVisible();
    await expect(dialog.getByLabel("Lifetime (minutes)")).not.toHaveValue("");
    await dialog.getByRole("button", { name: "Create session" }).click();

    const connected = page.getByRole("dialog", { name: "Your agent is connected" });
    await expect(connected).toBeVisible();
    token = await connected.getByLabel("Agent session token").inputValue();
    expect(token).toMatch(/^pcs_/);
    await expect(connected.getByLabel("Endpoint URL", { exact: true })).toHaveValue(url);
    await expect(connected.getByRole("button", { name: "Copy token" })).toBeVisible();
    await expect(connected.getByTestId("granted-tools")).toHaveText(TOOL);
    await expect(connected.getByTestId("dropped")).toHaveCount(0);

    for (const [tab, id] of [
      ["MCP SDK", "config-sdk"],
      ["Claude Desktop", "config-claude"],
      ["Claude Code", "config-claude-code"],
      ["Cursor", "config-cursor"],
      ["VS Code", "config-vscode"],
    ] as const) {
      await connected.getByRole("tab", { name: tab }).click();
      await expect(connected.getByRole("tab", { name: tab })).toHaveAttribute("aria-selected", "true");
      const snippet = connected.getByTestId(id);
      await expect(snippet).toBeVisible();
      await expect(snippet).toContainText(token);
      await expect(snippet).toContainText(url);
    }
    // The keyboard moves between the tabs (components/tabs.tsx's TabList): arrows wrap around, Home and End.
    const selected = connected.getByRole("tab", { selected: true });
    await connected.getByRole("tab", { name: "VS Code" }).press("ArrowRight");
    await expect(selected).toHaveText("MCP SDK");
    await expect(selected).toBeFocused();
    await expect(connected.getByTestId("config-sdk")).toBeVisible();
    await selected.press("ArrowLeft");
    await expect(selected).toHaveText("VS Code");
    await selected.press("Home");
    await expect(selected).toHaveText("MCP SDK");
    await selected.press("End");
    await expect(selected).toHaveText("VS Code");
    await expect(selected).toBeFocused();
    await expect(connected.getByRole("tab").and(connected.locator('[tabindex="0"]'))).toHaveCount(1);
    await expect(connected.getByTestId("config-sdk")).toContainText("StreamableHTTPClientTransport");
    await expect(connected.getByTestId("config-sdk")).toContainText(
      `requestInit: { headers: { Authorization: "Bearer ${token}" } }`,
    );
    expect(JSON.parse((await connected.getByTestId("config-claude").textContent()) ?? "")).toEqual({
      mcpServers: {
        portcullis: { command: "npx", args: ["-y", "mcp-remote", url, "--header", `Authorization: Bearer ${token}`] },
      },
    });
    expect(JSON.parse((await connected.getByTestId("config-cursor").textContent()) ?? "")).toEqual({
      mcpServers: { portcullis: { url, headers: { Authorization: `Bearer ${token}` } } },
    });
    await expect(connected.getByTestId("config-claude-code")).toHaveText(
      `claude mcp add --transport http portcullis ${url} --header 'Authorization: Bearer ${token}'`,
    );
    expect(JSON.parse((await connected.getByTestId("config-vscode").textContent()) ?? "")).toEqual({
      servers: { portcullis: { type: "http", url, headers: { Authorization: `Bearer ${token}` } } },
    });

    await connected.getByRole("button", { name: "Done" }).click();
    await expect(connected).toBeHidden();
    const row = page.locator(`[data-testid="session-row"][data-agent="${agent}"]`);
    await expect(row).toHaveCount(1);
    await expect(row.getByTestId("session-status")).toHaveText("Active");
    await expect(row).toContainText(TOOL);
    await expect(row).not.toContainText(token);

    // The token at work: the session sees and calls only its whitelist.
    const { client, transport } = sdkClient(url, token);
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      // The session's one tool, plus the gateway's task tools every session has.
      expect(tools.map((t) => t.name).filter((n) => !isGatewayTool(n))).toEqual([TOOL]);
      expect(tools.map((t) => t.name)).toContain("get_task_status");

      const result = await client.callTool({ name: TOOL, arguments: {} });
      expect(result.isError, JSON.stringify(result.content)).toBeFalsy();

      const other = await client
        .callTool({ name: OTHER_TOOL, arguments: { order_id: "ORD-10001", status: "paid" } })
        .then(
          (r) => ({ result: r, error: undefined }),
          (e: unknown) => ({ result: undefined, error: e }),
        );
      if (other.error) expect(other.error).toBeInstanceOf(McpError);
      else {
        expect(other.result?.isError).toBe(true);
        expect(JSON.stringify(other.result?.content)).toMatch(/whitelist|not allowed|may not/i);
      }
    } finally {
      await client.close();
    }
  });

  test("revoking the session in the table refuses its token", async ({ page }) => {
    // A serial group: Playwright runs this only after the previous test connected and kept the token.
    expect(token, "the previous test's session token").toMatch(/^pcs_/);
    await signInAsAdmin(page, "/agents");
    const row = page.locator(`[data-testid="session-row"][data-agent="${agent}"]`);
    await expect(row.getByTestId("session-status")).toHaveText("Active");

    // A client that is connected when the session is revoked is cut off as well.
    const live = sdkClient(url, token);
    await live.client.connect(live.transport);
    expect((await live.client.listTools()).tools.map((t) => t.name).filter((n) => !isGatewayTool(n))).toEqual([TOOL]);

    await row.getByRole("button", { name: `Revoke ${agent}` }).click();
    const confirm = page.getByRole("dialog", { name: "Revoke this session?" });
    await expect(confirm).toContainText(agent);
    await confirm.getByRole("button", { name: "Revoke session" }).click();
    await expect(confirm).toBeHidden();
    await expect(row.getByTestId("session-status")).toHaveText("Revoked");
    await expect(row.getByRole("button", { name: /Revoke/ })).toHaveCount(0);

    const list = (await (await page.request.get("/api/v1/sessions")).json()) as { items: TAgentSession[] };
    expect(list.items.find((s) => s.agentId === agent)?.status).toBe("revoked");

    await expect(live.client.listTools()).rejects.toMatchObject({ code: 401 });
    await live.client.close();

    const { client, transport } = sdkClient(url, token);
    await expect(client.connect(transport)).rejects.toMatchObject({ code: 401 });
    await client.close();
  });
});

test("a lifetime above the administrator's maximum is refused before sending", async ({ page }) => {
  await signInAsAdmin(page);
  const settings = (await (await page.request.get("/api/v1/settings/sessions")).json()) as TSessionSettings;
  const maxMinutes = Math.floor(settings.maxTtlSeconds / 60);
  await page.goto("/agents");

  await page.getByRole("button", { name: "Connect an agent" }).click();
  const dialog = page.getByRole("dialog", { name: "Connect an agent" });
  const agent = unique("too-long");
  await dialog.getByLabel("Agent name").fill(agent);
  await dialog.getByLabel(TOOL, { exact: true }).check();
  const lifetime = dialog.getByLabel("Lifetime (minutes)");
  await expect(lifetime).toHaveValue(String(Math.round(settings.defaultTtlSeconds / 60)));
  await lifetime.fill(String(maxMinutes + 1));
  await expect(dialog.getByText(new RegExp(`^At most ${maxMinutes} minutes`))).toBeVisible();
  await expect(lifetime).toHaveAttribute("aria-invalid", "true");

  // Submitting keeps the dialog open and creates nothing.
  await dialog.getByRole("button", { name: "Create session" }).click();
  await expect(dialog).toBeVisible();
  await expect(lifetime).toBeFocused();
  const list = (await (await page.request.get("/api/v1/sessions")).json()) as { items: TAgentSession[] };
  expect(list.items.some((s) => s.agentId === agent)).toBe(false);

  // The maximum itself is fine; an empty name and no tool are caught as well.
  await lifetime.fill(String(maxMinutes));
  await expect(dialog.getByText(new RegExp(`^At most ${maxMinutes} minutes`))).toHaveCount(0);
  await dialog.getByLabel("Agent name").fill("");
  await dialog.getByLabel(TOOL, { exact: true }).uncheck();
  await dialog.getByRole("button", { name: "Create session" }).click();
  await expect(dialog.getByText("Give the agent a name")).toBeVisible();
  await expect(dialog.getByText("Pick at least one tool, or add a pattern.")).toBeVisible();
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(dialog).toBeHidden();
});

test("an agent registered with a callback URL gets its webhook signing secret once", async ({ page }) => {
  await signInAsAdmin(page, "/agents");
  await page.getByRole("button", { name: "Connect an agent" }).click();
  const dialog = page.getByRole("dialog", { name: "Connect an agent" });
  const agent = unique("hook-bot");
  await dialog.getByLabel("Agent name").fill(agent);
  await dialog.getByLabel(TOOL, { exact: true }).check();
  const callback = dialog.getByLabel("Callback URL");
  await callback.fill("ftp://ci.example.test/hook");
  // The message shows once the field is left (so typing is not interrupted); a submit then focuses the field.
  await callback.blur();
  await expect(dialog.getByText(/^Enter an http:\/\/ or https:\/\/ URL/)).toBeVisible();
  await expect(callback).toHaveAttribute("aria-invalid", "true");
  await dialog.getByRole("button", { name: "Create session" }).click();
  await expect(callback).toBeFocused();

  await callback.fill("https://ci.example.test/portcullis-hook");
  await dialog.getByRole("button", { name: "Create session" }).click();
  const connected = page.getByRole("dialog", { name: "Your agent is connected" });
  await expect(connected).toBeVisible();
  const secret = await connected.getByLabel("Webhook signing secret").inputValue();
  expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
  await expect(connected.getByRole("button", { name: "Copy signing secret" })).toBeVisible();
  await expect(connected).toContainText("https://ci.example.test/portcullis-hook");
  await connected.getByRole("button", { name: "Done" }).click();

  const res = await page.request.get("/api/v1/sessions");
  const text = await res.text();
  const mine = (JSON.parse(text) as { items: TAgentSession[] }).items.find((s) => s.agentId === agent);
  expect(mine?.callbackUrl).toBe("https://ci.example.test/portcullis-hook");
  expect(text).not.toContain(secret);

  // Without a callback URL there is no secret to show.
  await page.getByRole("button", { name: "Connect an agent" }).click();
  await dialog.getByLabel("Agent name").fill(unique("no-hook-bot"));
  await dialog.getByLabel(TOOL, { exact: true }).check();
  await dialog.getByRole("button", { name: "Create session" }).click();
  await expect(connected.getByLabel("Agent session token")).toHaveValue(/^pcs_/);
  await expect(connected.getByLabel("Webhook signing secret")).toHaveCount(0);
  await connected.getByRole("button", { name: "Done" }).click();
});

test.describe("session lifetime settings", () => {
  let original: TSessionSettings | null = null;
  test.afterEach(async ({ page }) => {
    if (original) await page.request.patch("/api/v1/settings/sessions", { data: original });
  });

  test("an admin shortens the maximum lifetime and the connect form enforces it", async ({ page }) => {
    await signInAsAdmin(page);
    original = (await (await page.request.get("/api/v1/settings/sessions")).json()) as TSessionSettings;
    await page.goto("/agents");
    const card = page.getByRole("region", { name: "Session lifetime" });
    await card.getByLabel("Default (minutes)").fill("30");
    await card.getByLabel("Maximum (minutes)").fill("20");
    await expect(card.getByText("The default cannot be longer than the maximum.")).toBeVisible();
    await expect(card.getByRole("button", { name: "Save lifetime" })).toBeDisabled();
    await card.getByLabel("Maximum (minutes)").fill("90");
    await card.getByRole("button", { name: "Save lifetime" }).click();
    await expect(page.getByText("Session lifetime saved")).toBeVisible();
    const saved = (await (await page.request.get("/api/v1/settings/sessions")).json()) as TSessionSettings;
    expect(saved).toEqual({ defaultTtlSeconds: 1800, maxTtlSeconds: 5400 });

    await page.getByRole("button", { name: "Connect an agent" }).click();
    const dialog = page.getByRole("dialog", { name: "Connect an agent" });
    await expect(dialog.getByLabel("Lifetime (minutes)")).toHaveValue("30");
    await dialog.getByLabel("Lifetime (minutes)").fill("91");
    await expect(dialog.getByText(/^At most 90 minutes/)).toBeVisible();
  });
});

test("a user gives an agent part of their grant and is told what was dropped", async ({ page }) => {
  await signInAsAdmin(page);
  const email = uniqueEmail("agent-user");
  const user = await createUserViaApi(page.request, { email, role: "USER", password: "user-pass-1234" });
  const grant = await page.request.post("/api/v1/grants", {
    data: { kind: "tool", pattern: "orders__query_*", userId: user.id },
  });
  expect(grant.status(), await grant.text()).toBe(201);
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/signin$/);
  await signIn(page, email, "user-pass-1234");
  await expect(page.getByTestId("user-email")).toHaveText(email);
  await openAgents(page);

  // Admin-only parts stay hidden.
  await expect(page.getByRole("switch", { name: "Everyone's sessions" })).toHaveCount(0);
  await expect(page.getByRole("region", { name: "Session lifetime" })).toHaveCount(0);
  await expect(page.getByRole("heading", { name: "You have not connected an agent yet" })).toBeVisible();

  await page.getByRole("button", { name: "Connect your first agent" }).click();
  const dialog = page.getByRole("dialog", { name: "Connect an agent" });
  // What the user holds (the grant above, plus what the demo gives every USER) is offered; nothing more.
  await expect(dialog.getByRole("list", { name: "Tool patterns you hold" })).toContainText("orders__query_*");
  const callable = dialog.getByRole("list", { name: "Tools you may call" });
  await expect(callable.getByLabel(TOOL, { exact: true })).toBeVisible();
  await expect(callable.getByLabel("orders__delete_order", { exact: true })).toHaveCount(0);
  const agent = unique("pattern-bot");
  await dialog.getByLabel("Agent name").fill(agent);
  await dialog.getByLabel(TOOL, { exact: true }).check();
  await dialog.getByLabel("Tool pattern", { exact: true }).fill("orders export");
  await dialog.getByRole("button", { name: "Add pattern", exact: true }).click();
  await expect(dialog.getByText(/printable ASCII/)).toBeVisible();
  await dialog.getByLabel("Tool pattern", { exact: true }).fill("orders__delete_*");
  await dialog.getByRole("button", { name: "Add pattern", exact: true }).click();
  await expect(dialog.getByRole("list", { name: "Added patterns" })).toHaveText(/orders__delete_\*/);
  await dialog.getByLabel("Allowed paths").fill("reports/");
  await dialog.getByLabel("Lifetime (minutes)").focus();
  await expect(dialog.getByText(/^Line 1: must be an absolute path/)).toBeVisible();
  await dialog.getByLabel("Allowed paths").fill("/srv/reports/");
  await dialog.getByRole("button", { name: "Create session" }).click();

  // The user holds neither delete tools nor that path: both are dropped, and the dialog says so.
  const connected = page.getByRole("dialog", { name: "Your agent is connected" });
  await expect(connected).toBeVisible();
  await expect(connected.getByTestId("granted-tools")).toHaveText(TOOL);
  await expect(connected.getByTestId("granted-paths")).toHaveText("None");
  const dropped = connected.getByTestId("dropped");
  await expect(dropped).toContainText("orders__delete_*");
  await expect(dropped).toContainText("/srv/reports");
  await connected.getByRole("button", { name: "Done" }).click();

  const rows = page.getByTestId("session-row");
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toHaveAttribute("data-agent", agent);
  await expect(rows.first().getByTestId("session-status")).toHaveText("Active");

  // An admin sees it only in everyone's sessions, with whose it is.
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/signin$/);
  await signInAsAdmin(page, "/agents");
  const theirs = page.locator(`[data-testid="session-row"][data-agent="${agent}"]`);
  await expect(page.getByRole("heading", { name: "Your agent sessions" })).toBeVisible();
  await expect(theirs).toHaveCount(0);
  await page.getByRole("switch", { name: "Everyone's sessions" }).click();
  await expect(page.getByRole("heading", { name: "Everyone's sessions" })).toBeVisible();
  await expect(page.getByRole("columnheader", { name: "User" })).toBeVisible();
  await expect(theirs).toContainText(email);
});

test("Connect an agent says that no paths means no resources and offers the paths the user holds", async ({ page }) => {
  await signInAsAdmin(page);
  const email = uniqueEmail("paths-user");
  const user = await createUserViaApi(page.request, { email, role: "USER", password: "user-pass-1234" });
  for (const pattern of ["/srv/reports", "orders://order/"]) {
    const grant = await page.request.post("/api/v1/grants", { data: { kind: "path", pattern, userId: user.id } });
    expect(grant.status(), await grant.text()).toBe(201);
  }
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/signin$/);
  await signIn(page, email, "user-pass-1234");
  await expect(page.getByTestId("user-email")).toHaveText(email);
  await openAgents(page);
  await page.getByRole("button", { name: "Connect your first agent" }).click();
  const dialog = page.getByRole("dialog", { name: "Connect an agent" });

  const warning = dialog.getByTestId("no-paths-warning");
  await expect(warning).toHaveText(/No paths means no resources/);
  await dialog.getByRole("button", { name: "Add path /srv/reports" }).click();
  await expect(dialog.getByLabel("Allowed paths")).toHaveValue("/srv/reports");
  await expect(warning).toHaveCount(0);
  await expect(dialog.getByRole("button", { name: "Add path /srv/reports" })).toBeDisabled();
  await dialog.getByRole("button", { name: "+ all of them" }).click();
  // Every held path once, the one already listed first (USER also holds the demo's sample directory).
  await expect(dialog.getByLabel("Allowed paths")).toHaveValue(/^\/srv\/reports\n(.+\n)*orders:\/\/order\/(\n.+)*$/);
  await expect(dialog.getByRole("button", { name: "+ all of them" })).toBeDisabled();
  await dialog.getByLabel("Allowed paths").fill("");
  await expect(warning).toBeVisible();
  await dialog.getByRole("button", { name: "Add path orders://order/" }).click();

  await dialog.getByLabel("Agent name").fill(unique("paths-bot"));
  await dialog.getByLabel(TOOL, { exact: true }).check();
  await dialog.getByRole("button", { name: "Create session" }).click();
  const connected = page.getByRole("dialog", { name: "Your agent is connected" });
  await expect(connected.getByTestId("granted-paths")).toHaveText("orders://order/");
});

test.describe("at phone width", () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test("the Agents page and the connected dialog fit without sideways scrolling", async ({ page }) => {
    await signInAsAdmin(page, "/agents");
    await expect(page.getByRole("heading", { level: 1, name: "Agents" })).toBeVisible();
    const overflow = () =>
      page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(await overflow()).toBeLessThanOrEqual(0);

    await page.getByRole("button", { name: "Connect an agent" }).click();
    const dialog = page.getByRole("dialog", { name: "Connect an agent" });
    await dialog.getByLabel("Agent name").fill(unique("phone-bot"));
    await dialog.getByLabel(TOOL, { exact: true }).check();
    await dialog.getByRole("button", { name: "Create session" }).click();
    const connected = page.getByRole("dialog", { name: "Your agent is connected" });
    await expect(connected.getByTestId("config-sdk")).toBeVisible();
    expect(await overflow()).toBeLessThanOrEqual(0);
    const box = await connected.boundingBox();
    expect(box && box.x >= 0 && box.x + box.width <= 390).toBe(true);
    await connected.getByRole("button", { name: "Done" }).click();
    await expect(page.getByTestId("session-row").first()).toBeVisible();
    expect(await overflow()).toBeLessThanOrEqual(0);
  });
});
