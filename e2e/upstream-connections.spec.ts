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
import { createUserViaApi, signIn, signInAsAdmin, uniqueEmail } from "./helpers";
import { connectAgent } from "./helpers-agent";

const PASSWORD = "user-pass-1234";
const slug = `tracker-${Date.now().toString(36)}`;
const NAME = "Corp tracker";
const WHOAMI = `${slug}__whoami`;

let idp: UpstreamIdp;

test.beforeAll(async () => {
  idp = await startUpstreamIdp({
    accounts: {
      "admin-idp": { email: "admin@corp.test" },
      alice: { email: "alice@corp.test" },
      bob: { email: "bob@corp.test" },
    },
    // Portcullis registers itself (dynamic registration); no client is set up in advance.
    clients: [],
  });
});

test.afterAll(async () => {
  await idp?.stop();
});

/** On the Connections page: Connect (or Reconnect) `NAME`, sign in at the provider as `login`, and come back. */
async function connectThroughProvider(page: Page, login: string) {
  await page.getByRole("button", { name: `Connect ${NAME}` }).click();
  await expect(page).toHaveURL(new RegExp(`^${idp.issuer}/`));
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill("any");
  await page.getByRole("button", { name: "Sign-in" }).click();
  // The provider asks for consent the first time an account grants the client.
  const back = page.getByTestId("connected-notice");
  const consent = page.getByRole("button", { name: "Continue" });
  await expect(back.or(consent)).toBeVisible();
  if (await consent.isVisible()) await consent.click();
  await waitForHydration(page);
  await expect(page).toHaveURL(`/connections?connected=${slug}`);
  await expect(back).toHaveText(`Connected to ${NAME}. Your agents' calls to it now use your account.`);
}

/** A user in a browser of their own, signed in. */
async function userPage(browser: Browser, email: string): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await signIn(page, email, PASSWORD);
  await expect(page.getByTestId("user-email")).toHaveText(email);
  await waitForHydration(page);
  return page;
}

async function whoAmIOf(page: Page, baseURL: string | undefined, agentId: string) {
  const agent = await connectAgent(page, baseURL, agentId, [WHOAMI]);
  try {
    return await agent.callTool({ name: WHOAMI, arguments: {} });
  } finally {
    await agent.close();
  }
}

test("two users connect their own accounts through the provider's login page, their agents each reach the upstream as themselves, and a third user's agent is told to connect", async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(120_000);
  await signInAsAdmin(page);
  const created = await page.request.post("/api/v1/servers", {
    data: { slug, name: NAME, transport: "http", url: idp.upstreamUrl },
  });
  expect(created.status(), await created.text()).toBe(201);
  const users = await Promise.all(
    ["alice", "bob", "carol"].map((who) =>
      createUserViaApi(page.request, { email: uniqueEmail(who), role: "USER", password: PASSWORD }),
    ),
  );
  for (const user of users) {
    const grant = await page.request.post("/api/v1/grants", {
      data: { kind: "tool", pattern: `${slug}__*`, userId: user.id },
    });
    expect(grant.status(), await grant.text()).toBe(201);
  }
  const [alice, bob, carol] = users as [(typeof users)[0], (typeof users)[0], (typeof users)[0]];

  // The admin sets the server to act as each user, on its Authentication tab.
  await page.goto(`/servers/${slug}?tab=auth`);
  const card = page.getByRole("region", { name: "Authentication" });
  await expect(card.getByTestId("auth-state")).toHaveText("Now: None (static headers)");
  await card.getByRole("radio", { name: /Each user's own account/ }).check();
  await card.getByLabel("Scopes").fill("mcp");
  await card.getByRole("button", { name: "Save authentication" }).click();
  await expect(card.getByTestId("auth-state")).toContainText("Now: Each user's own account");

  // The admin connects their own account too: the server's tools are listed with an admin's connection.
  await page.goto("/connections");
  await connectThroughProvider(page, "admin-idp");
  await expect(
    page.getByTestId("connection-row").filter({ hasText: NAME }).getByTestId("connection-account"),
  ).toHaveText("admin@corp.test");

  // Refused until now, the server waits for its next reconnect; Retry connects it at once with the admin's
  // connection (Restart, should the reconnect have come first), and its tools are listed.
  await page.goto(`/servers/${slug}`);
  await page.getByRole("button", { name: /^(Retry|Restart)$/ }).click();
  await expect(page.getByRole("tab", { name: /Tools/ })).toContainText("1");

  // Alice and Bob each connect their own account, from the link an agent would be given.
  const identities = new Map<string, unknown>();
  for (const [user, login] of [
    [alice, "alice"],
    [bob, "bob"],
  ] as const) {
    const own = await userPage(browser, user.email);
    await own.goto(`/connections?server=${slug}`);
    await waitForHydration(own);
    await expect(own.getByTestId("server-focus-notice")).toContainText(`Your agent needs your account on ${NAME}`);
    await expect(own.getByRole("button", { name: `Connect ${NAME}` })).toBeFocused();
    await connectThroughProvider(own, login);
    const row = own.getByTestId("connection-row").filter({ hasText: NAME });
    await expect(row.getByTestId("connection-account")).toHaveText(`${login}@corp.test`);
    await expect(row.getByTestId("connection-status")).toHaveText("Connected");

    const result = await whoAmIOf(own, baseURL, `${login}-agent`);
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
    carolPage.getByRole("list", { name: "Servers to connect" }).locator(`[data-server="${slug}"]`),
  ).toBeVisible();
  const refused = await whoAmIOf(carolPage, baseURL, "carol-agent");
  expect(refused.isError).toBe(true);
  const error = (refused._meta as Record<string, { code?: string; connectUrl?: string }> | undefined)?.[
    "portcullis/error"
  ];
  expect(error).toMatchObject({ code: "upstream_auth_required", connectUrl: `${baseURL}/connections?server=${slug}` });
  await carolPage.goto(error!.connectUrl!);
  await waitForHydration(carolPage);
  await expect(carolPage.getByRole("button", { name: `Connect ${NAME}` })).toBeFocused();
  await expect(carolPage.getByTestId("connection-row")).toHaveCount(0);
  await carolPage.context().close();

  // The admin sees who is connected, never a token.
  await page.goto(`/servers/${slug}?tab=auth`);
  const connected = page.getByRole("table", { name: `Users connected to ${NAME}` });
  for (const email of [alice.email, bob.email])
    await expect(connected.locator(`[data-email="${email}"]`)).toBeVisible();
  await expect(connected.locator(`[data-email="${carol.email}"]`)).toHaveCount(0);

  // An admin disconnects Bob: his tokens are revoked at the provider, and his agent is told to connect again.
  const revocations = (await idp.stats()).revocations;
  await connected.getByRole("button", { name: `Disconnect ${bob.email}` }).click();
  await page
    .getByRole("dialog", { name: `Disconnect ${bob.email} from ${NAME}?` })
    .getByRole("button", { name: "Disconnect" })
    .click();
  await expect(connected.locator(`[data-email="${bob.email}"]`)).toHaveCount(0);
  expect((await idp.stats()).revocations).toBeGreaterThan(revocations);
  const bobPage = await userPage(browser, bob.email);
  const bobRefused = await whoAmIOf(bobPage, baseURL, "bob-agent-2");
  expect((bobRefused._meta as Record<string, { code?: string }> | undefined)?.["portcullis/error"]?.code).toBe(
    "upstream_auth_required",
  );
  await bobPage.goto("/connections");
  await waitForHydration(bobPage);
  await expect(bobPage.getByTestId("connection-row")).toHaveCount(0);
  await expect(bobPage.getByRole("button", { name: `Connect ${NAME}` })).toBeVisible();
  await bobPage.context().close();
});
