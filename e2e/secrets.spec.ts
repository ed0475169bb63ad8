// Settings → Secrets: an admin adds a secret and sees it listed by name with how to reference it but never its
// value (neither on the page nor in what the page fetches), replaces the value, and deletes it; other users
// never see the section.
import { expect, test, type Page } from "./fixtures";
import { createUserViaApi, signIn, signInAsAdmin, uniqueEmail } from "./helpers";

const suffix = () => Math.random().toString(36).slice(2, 8).toUpperCase();

async function openSecrets(page: Page) {
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Settings" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Settings" })).toBeVisible();
  const section = page.getByTestId("secrets-settings");
  await expect(section.getByRole("heading", { name: "Secrets", exact: true })).toBeVisible();
  return section;
}

test("admin adds a secret, sees it listed without its value, replaces it and deletes it", async ({ page }) => {
  const name = `E2E_TOKEN_${suffix()}`;
  const first = `first-e2e-value-${suffix()}`;
  const second = `second-e2e-value-${suffix()}`;
  // Everything the console fetches while the test runs: no response may carry a value.
  const bodies: Promise<string>[] = [];
  page.on("response", (res) => {
    // The approvals event stream (the nav badge, on every page) never ends: it carries no secret, and its body
    // would never settle.
    const stream = res.headers()["content-type"]?.startsWith("text/event-stream") ?? false;
    if (res.url().includes("/api/v1/") && !stream) bodies.push(res.text().catch(() => ""));
  });

  await signInAsAdmin(page);
  const section = await openSecrets(page);
  await expect(section.getByText("${secret:NAME}").first()).toBeVisible();
  await expect(section.getByTestId("secret-value")).toHaveAttribute("type", "password");

  // Add: the name is upper-cased as typed; the value field is write-only.
  await section.getByTestId("secret-name").fill(name.toLowerCase());
  await expect(section.getByTestId("secret-name")).toHaveValue(name);
  await section.getByTestId("secret-value").fill(first);
  await expect(section.getByTestId("secret-save")).toHaveText("Add secret");
  await section.getByTestId("secret-save").click();
  await expect(page.getByText(`Secret ${name} saved`).first()).toBeVisible();
  const row = section.locator(`[data-testid="secret-row"][data-name="${name}"]`);
  await expect(row).toContainText(name);
  await expect(row).toContainText(`\${secret:${name}}`);
  await expect(row.getByTestId("secret-used-by")).toHaveText("No server");
  await expect(section.getByTestId("secret-value")).toHaveValue("");
  await expect(section.getByTestId("secret-name")).toHaveValue("");
  expect(await page.content()).not.toContain(first);

  // After a reload it is still listed, still without its value.
  await page.reload();
  await expect(row).toBeVisible();
  expect(await page.content()).not.toContain(first);
  const listed = await page.request.get("/api/v1/secrets");
  expect(listed.status()).toBe(200);
  const listText = await listed.text();
  expect(listText).toContain(name);
  expect(listText).not.toContain(first);

  // Replace: the form takes the name, says it replaces, and the stored value changes (updatedAt moves on).
  const before = (JSON.parse(listText) as { items: { name: string; updatedAt: string }[] }).items.find((s) => s.name === name)!;
  await row.getByRole("button", { name: `Replace the value of ${name}` }).click();
  await expect(section.getByTestId("secret-name")).toHaveValue(name);
  await expect(section.getByTestId("secret-value")).toBeFocused();
  await expect(section.getByTestId("secret-save")).toHaveText("Replace value");
  await expect(section.getByText(`New value of ${name}`)).toBeVisible();
  await section.getByTestId("secret-value").fill(second);
  await section.getByTestId("secret-save").click();
  await expect(page.getByText(`The value of ${name} was replaced`).first()).toBeVisible();
  await expect(section.getByTestId("secret-value")).toHaveValue("");
  await expect(section.locator('[data-testid="secret-row"]').filter({ hasText: name })).toHaveCount(1);
  const after = ((await (await page.request.get("/api/v1/secrets")).json()) as { items: { name: string; updatedAt: string }[] }).items.find((s) => s.name === name)!;
  expect(Date.parse(after.updatedAt)).toBeGreaterThan(Date.parse(before.updatedAt));
  expect(await page.content()).not.toContain(second);

  // Delete, after confirming.
  await row.getByRole("button", { name: `Delete ${name}` }).click();
  const dialog = page.getByRole("dialog", { name: `Delete the secret ${name}?` });
  await expect(dialog).toBeVisible();
  await dialog.getByRole("button", { name: "Delete secret" }).click();
  await expect(page.getByText(`Secret ${name} deleted`).first()).toBeVisible();
  await expect(row).toHaveCount(0);
  const gone = await page.request.get("/api/v1/secrets");
  expect(await gone.text()).not.toContain(name);

  const seen = await Promise.all(bodies);
  expect(seen.length).toBeGreaterThan(0);
  for (const body of seen) {
    expect(body).not.toContain(first);
    expect(body).not.toContain(second);
  }
});

test("a bad name is refused in the form before anything is sent", async ({ page }) => {
  await signInAsAdmin(page);
  const section = await openSecrets(page);
  await section.getByTestId("secret-name").fill("1BAD");
  await section.getByTestId("secret-value").fill("whatever-value");
  await section.getByTestId("secret-save").click();
  await expect(section.getByTestId("secret-error")).toContainText("name: upper-case letters, digits and _, starting with a letter");
  await expect(section.locator('[data-testid="secret-row"][data-name="1BAD"]')).toHaveCount(0);
});

test("a user who is not an admin does not see the section and cannot call the API", async ({ page }) => {
  await signInAsAdmin(page);
  const email = uniqueEmail("secrets-user");
  const password = "secrets-user-pass-1234";
  await createUserViaApi(page.request, { email, role: "USER", password });
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/signin/);
  await signIn(page, email, password);
  await expect(page.getByTestId("user-email")).toHaveText(email);
  await page.goto("/settings");
  await expect(page.getByRole("heading", { name: "Personal API tokens" })).toBeVisible();
  await expect(page.getByTestId("secrets-settings")).toHaveCount(0);
  expect((await page.request.get("/api/v1/secrets")).status()).toBe(403);
  expect((await page.request.post("/api/v1/secrets", { data: { name: "X_TOKEN", value: "v" } })).status()).toBe(403);
});
