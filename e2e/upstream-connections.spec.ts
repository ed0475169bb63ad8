// Per-user upstream credentials end to end (issue 22): an admin sets an OAuth-protected upstream to act as each
// user on the server's Authentication tab; two users each connect their own account through the real provider's
// login page from their Connections page, and their agents' `whoami` calls through /mcp reach the upstream as
// themselves; a third user's agent gets `upstream_auth_required`, whose link opens the Connections page on that
// server. An admin sees who is connected and disconnects one (revoked at the provider; their agent is told to
// connect again). The provider (oidc-provider) and the protected upstream MCP server are real processes this test
// starts.
import type { Browser, Page } from "@playwright/test";
import { startUpstreamIdp, type UpstreamIdp } from "@/server/test/upstream-idp";
import { expect, test, waitForHydration } from "./fixtures";
import { createUserViaApi, noSidewaysScroll, signIn, signInAsAdmin, uniqueEmail } from "./helpers";
import { connectAgent } from "./helpers-agent";

const PASSWORD = "user-pass-1234";
const ACCOUNTS = {
  "admin-idp": { email: "admin@corp.test" },
  alice: { email: "alice@corp.test" },
  bob: { email: "bob@corp.test" },
};

/** The server of one test: a protected upstream behind its own provider, registered in Portcullis. */
type Upstream = { idp: UpstreamIdp; slug: string; name: string };
const whoami = (up: Upstream) => `${up.slug}__whoami`;
type ErrorMeta = { code?: string; connectUrl?: string; reason?: string };
const errorOf = (result: { _meta?: unknown }) =>
  (result._meta as Record<string, ErrorMeta> | undefined)?.["portcullis/error"];

/**
 * On the Connections page: press `button` (Connect or Reconnect the server), go through the provider's login and consent
 * pages as `login` (each only when the provider shows it: a browser signed in there before skips the login, an
 * account that granted the client before skips the consent) and come back connected.
 */
async function connectThroughProvider(page: Page, up: Upstream, login: string, button = `Connect ${up.name}`) {
  await page.getByRole("button", { name: button, exact: true }).click();
  const back = page.getByTestId("connected-notice");
  const loginField = page.locator('input[name="login"]');
  const consent = page.getByRole("button", { name: "Continue" });
  await expect(back.or(loginField).or(consent)).toBeVisible();
  if (await loginField.isVisible()) {
    await loginField.fill(login);
    await page.locator('input[name="password"]').fill("any");
    await page.getByRole("button", { name: "Sign-in" }).click();
    await expect(back.or(consent)).toBeVisible();
  }
  if (await consent.isVisible()) await consent.click();
  await waitForHydration(page);
  await expect(page).toHaveURL(`/connections?connected=${up.slug}`);
  await expect(back).toHaveText(`Connected to ${up.name}. Your agents' calls to it now use your account.`);
}

/** A user in a browser of their own, signed in. */
async function userPage(browser: Browser, email: string): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await signIn(page, email, PASSWORD);
  await expect(page.getByTestId("user-email")).toHaveText(email);
  await waitForHydration(page);
  return page;
}

async function whoAmIOf(page: Page, baseURL: string | undefined, up: Upstream, agentId: string) {
  const agent = await connectAgent(page, baseURL, agentId, [whoami(up)]);
  try {
    return await agent.callTool({ name: whoami(up), arguments: {} });
  } finally {
    await agent.close();
  }
}

/** Registers the upstream (as the signed-in admin) and creates users holding its tools. */
async function registerWithUsers(page: Page, up: Upstream, names: readonly string[]) {
  const created = await page.request.post("/api/v1/servers", {
    data: { slug: up.slug, name: up.name, transport: "http", url: up.idp.upstreamUrl },
  });
  expect(created.status(), await created.text()).toBe(201);
  const users = await Promise.all(
    names.map((who) => createUserViaApi(page.request, { email: uniqueEmail(who), role: "USER", password: PASSWORD })),
  );
  for (const user of users) {
    const grant = await page.request.post("/api/v1/grants", {
      data: { kind: "tool", pattern: `${up.slug}__*`, userId: user.id },
    });
    expect(grant.status(), await grant.text()).toBe(201);
  }
  return users;
}

/**
 * The admin connects their own account (a per_user server's tools are listed with an admin's connection). The
 * server, refused until now, is connected at once (change bus upstream_account), without Retry, and its tools are
 * listed.
 */
async function adminConnects(page: Page, up: Upstream) {
  await page.goto("/connections");
  await connectThroughProvider(page, up, "admin-idp");
  await expect(
    page.getByTestId("connection-row").filter({ hasText: up.name }).getByTestId("connection-account"),
  ).toHaveText("admin@corp.test");
  await expect(async () => {
    await page.goto(`/servers/${up.slug}`);
    await expect(page.getByRole("tab", { name: /Tools/ })).toContainText("2", { timeout: 1_000 });
  }).toPass({ timeout: 15_000 });
}

/**
 * The describe block's own provider and protected upstream, started before its tests and stopped after. Portcullis
 * registers itself at the provider (dynamic registration): no client is set up in advance.
 */
function upstreamOfDescribe(prefix: string, name: string, accessTtl?: number): Upstream {
  const up = { slug: `${prefix}-${Date.now().toString(36)}`, name } as Upstream;
  test.beforeAll(async () => {
    up.idp = await startUpstreamIdp({ accounts: ACCOUNTS, clients: [], ...(accessTtl && { accessTtl }) });
  });
  test.afterAll(async () => {
    await up.idp?.stop();
  });
  return up;
}

test.describe("per_user upstream", () => {
  const up = upstreamOfDescribe("tracker", "Corp tracker");

  test("two users connect their own accounts through the provider's login page, their agents each reach the upstream as themselves, and a third user's agent is told to connect", async ({
    page,
    browser,
    baseURL,
  }) => {
    test.setTimeout(120_000);
    await signInAsAdmin(page);
    const users = await registerWithUsers(page, up, ["alice", "bob", "carol"]);
    const [alice, bob, carol] = users as [(typeof users)[0], (typeof users)[0], (typeof users)[0]];

    // The admin sets the server to act as each user, on its Authentication tab.
    await page.goto(`/servers/${up.slug}?tab=auth`);
    const card = page.getByRole("region", { name: "Authentication" });
    await expect(card.getByTestId("auth-state")).toHaveText("Now: None (static headers)");
    await card.getByRole("radio", { name: /Each user's own account/ }).check();
    await card.getByLabel("Scopes").fill("mcp");
    await card.getByRole("button", { name: "Save authentication" }).click();
    await expect(card.getByTestId("auth-state")).toContainText("Now: Each user's own account");

    await adminConnects(page, up);

    // Alice and Bob each connect their own account, from the link an agent would be given.
    const identities = new Map<string, unknown>();
    for (const [user, login] of [
      [alice, "alice"],
      [bob, "bob"],
    ] as const) {
      // Signed out, the link goes through sign-in and back to it.
      const own = await (await browser.newContext()).newPage();
      const link = `/connections?server=${up.slug}`;
      await own.goto(link);
      await expect(own).toHaveURL(`/signin?callbackUrl=${encodeURIComponent(link)}`);
      await waitForHydration(own);
      await own.getByLabel("E-mail").fill(user.email);
      await own.getByLabel("Password").fill(PASSWORD);
      await own.getByRole("button", { name: "Sign in" }).click();
      await expect(own).toHaveURL(link);
      await waitForHydration(own);
      await expect(own.getByTestId("server-focus-notice")).toContainText(`Your agent needs your account on ${up.name}`);
      await expect(own.getByRole("button", { name: `Connect ${up.name}` })).toBeFocused();
      await connectThroughProvider(own, up, login);
      const row = own.getByTestId("connection-row").filter({ hasText: up.name });
      await expect(row.getByTestId("connection-account")).toHaveText(`${login}@corp.test`);
      await expect(row.getByTestId("connection-status")).toHaveText("Connected");

      const result = await whoAmIOf(own, baseURL, up, `${login}-agent`);
      expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
      identities.set(login, result.structuredContent);
      await own.context().close();
    }
    expect(identities.get("alice")).toMatchObject({ sub: "alice", email: "alice@corp.test" });
    expect(identities.get("bob")).toMatchObject({ sub: "bob", email: "bob@corp.test" });

    // Carol has not connected: her agent is refused with the link to connect, and nothing of anyone else's is used.
    const carolPage = await userPage(browser, carol.email);
    await carolPage.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Connections" }).click();
    await expect(carolPage.getByRole("heading", { level: 1, name: "Connections" })).toBeVisible();
    await expect(
      carolPage.getByRole("list", { name: "Servers to connect" }).locator(`[data-server="${up.slug}"]`),
    ).toBeVisible();
    const refused = await whoAmIOf(carolPage, baseURL, up, "carol-agent");
    expect(refused.isError).toBe(true);
    const error = errorOf(refused);
    expect(error).toMatchObject({
      code: "upstream_auth_required",
      connectUrl: `${baseURL}/connections?server=${up.slug}`,
    });
    await carolPage.goto(error!.connectUrl!);
    await waitForHydration(carolPage);
    await expect(carolPage.getByRole("button", { name: `Connect ${up.name}` })).toBeFocused();
    await expect(carolPage.getByTestId("connection-row")).toHaveCount(0);
    await carolPage.context().close();

    // The admin sees who is connected, never a token.
    await page.goto(`/servers/${up.slug}?tab=auth`);
    const connected = page.getByRole("table", { name: `Users connected to ${up.name}` });
    for (const email of [alice.email, bob.email])
      await expect(connected.locator(`[data-email="${email}"]`)).toBeVisible();
    await expect(connected.locator(`[data-email="${carol.email}"]`)).toHaveCount(0);

    // An admin disconnects Bob: his tokens are revoked at the provider, and his agent is told to connect again.
    const revocations = (await up.idp.stats()).revocations;
    await connected.getByRole("button", { name: `Disconnect ${bob.email}` }).click();
    await page
      .getByRole("dialog", { name: `Disconnect ${bob.email} from ${up.name}?` })
      .getByRole("button", { name: "Disconnect" })
      .click();
    await expect(connected.locator(`[data-email="${bob.email}"]`)).toHaveCount(0);
    expect((await up.idp.stats()).revocations).toBeGreaterThan(revocations);
    const bobPage = await userPage(browser, bob.email);
    const bobRefused = await whoAmIOf(bobPage, baseURL, up, "bob-agent-2");
    expect(errorOf(bobRefused)?.code).toBe("upstream_auth_required");
    await bobPage.goto("/connections");
    await waitForHydration(bobPage);
    await expect(bobPage.getByTestId("connection-row")).toHaveCount(0);
    await expect(bobPage.getByRole("button", { name: `Connect ${up.name}` })).toBeVisible();
    await bobPage.context().close();

    // On a phone the Authentication tab fits: the modes stack and the connected users wrap.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`/servers/${up.slug}?tab=auth`);
    await expect(connected.locator(`[data-email="${alice.email}"]`)).toBeVisible();
    await noSidewaysScroll(page);
  });
});

test.describe("a refused refresh", () => {
  // Access tokens live 30 s, less than the gateway's refresh margin (60 s): every call refreshes first.
  const up = upstreamOfDescribe("crm", "Corp CRM", 30);

  test("a user who revoked the app at the provider is told to reconnect, sees why on the Connections page, and reconnects", async ({
    page,
    browser,
    baseURL,
  }) => {
    test.setTimeout(120_000);
    await signInAsAdmin(page);
    const [alice] = await registerWithUsers(page, up, ["alice"]);
    const put = await page.request.put(`/api/v1/servers/${up.slug}/auth`, {
      data: { mode: "per_user", scopes: ["mcp"] },
    });
    expect(put.status(), await put.text()).toBe(200);
    await adminConnects(page, up);

    const own = await userPage(browser, alice!.email);
    await own.goto("/connections");
    await waitForHydration(own);
    await connectThroughProvider(own, up, "alice");
    expect((await whoAmIOf(own, baseURL, up, "alice-agent")).structuredContent).toMatchObject({ sub: "alice" });

    // Alice revokes the app at the provider: the next refresh is refused, and her agent is told to reconnect.
    expect(await up.idp.revokeRefresh("alice")).toBeGreaterThan(0);
    const refused = await whoAmIOf(own, baseURL, up, "alice-agent-2");
    expect(refused.isError).toBe(true);
    const error = errorOf(refused);
    expect(error).toMatchObject({
      code: "upstream_auth_required",
      reason: "needs_reconnect",
      connectUrl: `${baseURL}/connections?server=${up.slug}`,
    });

    // The link shows her connection needing a reconnect, with the provider's refusal, and its Reconnect button.
    await own.goto(error!.connectUrl!);
    await waitForHydration(own);
    await expect(own.getByTestId("server-focus-notice")).toContainText(
      `Your connection to ${up.name} has stopped working`,
    );
    const row = own.getByTestId("connection-row").filter({ hasText: up.name });
    await expect(row.getByTestId("connection-status")).toHaveText("Reconnect needed");
    await expect(row.getByTestId("connection-error")).toContainText("refused the refresh");
    await expect(own.getByRole("button", { name: `Reconnect ${up.name}` })).toBeFocused();
    await connectThroughProvider(own, up, "alice", `Reconnect ${up.name}`);
    await expect(row.getByTestId("connection-status")).toHaveText("Connected");
    expect((await whoAmIOf(own, baseURL, up, "alice-agent-3")).structuredContent).toMatchObject({ sub: "alice" });
    // On a phone the page fits: the row wraps instead of scrolling sideways.
    await own.setViewportSize({ width: 390, height: 844 });
    await expect(row.getByRole("button", { name: `Reconnect ${up.name}` })).toBeVisible();
    await noSidewaysScroll(own);
    await own.context().close();
  });
});

test.describe("shared upstream", () => {
  const up = upstreamOfDescribe("wiki", "Corp wiki");

  test("an admin connects the shared account from the Authentication tab, and every permitted agent's call uses it", async ({
    page,
    browser,
    baseURL,
  }) => {
    test.setTimeout(120_000);
    await signInAsAdmin(page);
    const [dana] = await registerWithUsers(page, up, ["dana"]);
    await page.goto(`/servers/${up.slug}?tab=auth`);
    const card = page.getByRole("region", { name: "Authentication" });
    await card.getByRole("radio", { name: /Shared account/ }).check();
    await card.getByLabel("Scopes").fill("mcp");
    await card.getByRole("button", { name: "Save authentication" }).click();
    const shared = card.getByTestId("shared-connection");
    await expect(shared.getByTestId("shared-not-connected")).toBeVisible();

    await shared.getByRole("button", { name: "Connect shared account" }).click();
    await page.locator('input[name="login"]').fill("admin-idp");
    await page.locator('input[name="password"]').fill("any");
    await page.getByRole("button", { name: "Sign-in" }).click();
    await page.getByRole("button", { name: "Continue" }).click();
    // Back on the Connections page, which says it was the shared account and leads back to the server.
    await expect(page.getByTestId("connected-notice")).toContainText(`Connected ${up.slug}'s shared account.`);
    await waitForHydration(page);
    await page.getByRole("link", { name: "Back to its authentication settings" }).click();
    await expect(shared.getByTestId("connection-status")).toHaveText("Connected");
    await expect(shared).toContainText("admin@corp.test");

    await page.goto(`/servers/${up.slug}`);
    await page.getByRole("button", { name: /^(Retry|Restart)$/ }).click();
    await expect(page.getByRole("tab", { name: /Tools/ })).toContainText("2");
    // Dana connected nothing: her agent's call goes with the shared account.
    const own = await userPage(browser, dana!.email);
    const result = await whoAmIOf(own, baseURL, up, "dana-agent");
    expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ sub: "admin-idp", email: "admin@corp.test" });
    await own.context().close();
  });
});
