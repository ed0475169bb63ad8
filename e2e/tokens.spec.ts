import { expect, test } from "./fixtures";
import type { TApiToken, TUser } from "@/lib/schemas";
import { ADMIN_EMAIL } from "./constants";
import { signInAsAdmin } from "./helpers";

test("an admin mints a personal API token in Settings and it authenticates GET /api/v1/me", async ({ page, baseURL, playwright }) => {
  await signInAsAdmin(page);
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Settings" }).click();
  await expect(page).toHaveURL(/\/settings$/);
  await expect(page.getByRole("heading", { name: "You have no API tokens yet" })).toBeVisible();

  await page.getByLabel("Token name").fill("deploy script");
  await page.getByLabel("Expires after (days)").fill("30");
  await page.getByRole("button", { name: "Create token" }).click();

  const dialog = page.getByRole("dialog", { name: "Your new API token" });
  await expect(dialog).toBeVisible();
  const token = await dialog.getByLabel("New API token").inputValue();
  expect(token).toMatch(/^pct_[A-Za-z0-9_-]{32}$/);
  await expect(dialog.getByTestId("curl-example")).toHaveText(`curl -H "Authorization: Bearer ${token}" ${baseURL}/api/v1/me`);
  await expect(dialog.getByRole("button", { name: "Copy token" })).toBeVisible();
  await dialog.getByRole("button", { name: "I have stored it" }).click();
  await expect(dialog).toBeHidden();

  const row = page.locator('[data-testid="token-row"][data-name="deploy script"]');
  await expect(row).toContainText(`${token.slice(0, 10)}…`);
  await expect(row).toContainText("Active · expires");
  await expect(row).not.toContainText(token);

  const me = await page.request.get("/api/v1/me", { headers: { authorization: `Bearer ${token}` } });
  expect(me.status()).toBe(200);
  const body = (await me.json()) as { user: TUser; via: string };
  expect(body.via).toBe("api_token");
  expect(body.user.email).toBe(ADMIN_EMAIL);

  // Without any cookie, the token alone is enough.
  const bare = await playwright.request.newContext({ baseURL });
  const bareMe = await bare.get("/api/v1/me", { headers: { authorization: `Bearer ${token}` } });
  expect(bareMe.status()).toBe(200);

  // Revoking asks first; afterwards the token is refused.
  await row.getByRole("button", { name: "Revoke deploy script" }).click();
  const confirm = page.getByRole("dialog", { name: "Revoke this token?" });
  await expect(confirm).toContainText("deploy script");
  await confirm.getByRole("button", { name: "Revoke token" }).click();
  await expect(page.getByText("Token “deploy script” revoked")).toBeVisible();
  await expect(row).toContainText("Revoked");
  await expect(row.getByRole("button", { name: /Revoke/ })).toHaveCount(0);

  const refused = await bare.get("/api/v1/me", { headers: { authorization: `Bearer ${token}` } });
  expect(refused.status()).toBe(401);
  await bare.dispose();

  const list = (await (await page.request.get("/api/v1/tokens")).json()) as { items: TApiToken[] };
  expect(list.items.find((t) => t.name === "deploy script")?.revokedAt).not.toBeNull();
});
