import { expect, test } from "./fixtures";
import { createUserViaApi, findUser, signInAsAdmin, uniqueEmail } from "./helpers";

test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

test("at phone width the sidebar becomes a menu", async ({ page }) => {
  await signInAsAdmin(page);
  const nav = page.getByRole("navigation", { name: "Main" });
  await expect(nav).toBeHidden();
  const menuButton = page.getByRole("button", { name: "Open menu" });
  await expect(menuButton).toBeVisible();
  await expect(menuButton).toHaveAttribute("aria-expanded", "false");

  await menuButton.click();
  await expect(nav).toBeVisible();
  await expect(nav.getByRole("link", { name: "Users" })).toBeVisible();
  await expect(nav.getByRole("link", { name: "Dashboard" })).toHaveAttribute("aria-current", "page");

  await nav.getByRole("link", { name: "Settings" }).click();
  await expect(page).toHaveURL(/\/settings$/);
  await expect(page.getByRole("heading", { level: 1, name: "Settings" })).toBeVisible();
  await expect(nav).toBeHidden();

  // The page itself fits the phone: nothing scrolls sideways.
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow).toBeLessThanOrEqual(0);

  await menuButton.click();
  await expect(page.getByRole("button", { name: "Close menu" })).toBeFocused();
  await page.getByRole("button", { name: "Close menu" }).click();
  await expect(nav).toBeHidden();
  await expect(menuButton).toBeFocused();
  await menuButton.click();
  await expect(nav).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(nav).toBeHidden();
  await expect(page.getByRole("button", { name: "Sign out" })).toBeVisible();
});

test("at phone width the Users rows with Reset password and the Settings password form fit, light and dark", async ({
  browser,
}) => {
  for (const colorScheme of ["light", "dark"] as const) {
    const context = await browser.newContext({
      viewport: { width: 390, height: 844 },
      isMobile: true,
      hasTouch: true,
      colorScheme,
    });
    const page = await context.newPage();
    await signInAsAdmin(page);
    const overflow = () =>
      page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    const user = await createUserViaApi(page.request, {
      email: uniqueEmail(`phone-${colorScheme}`),
      role: "USER",
      password: "phone-pass-1234",
    });
    await page.goto("/users");
    await findUser(page, user.email);
    await expect(page.getByRole("button", { name: `Reset password of ${user.email}` })).toBeVisible();
    expect(await overflow()).toBeLessThanOrEqual(0);
    await page.goto("/settings");
    await expect(page.getByRole("button", { name: "Change password" })).toBeVisible();
    expect(await overflow()).toBeLessThanOrEqual(0);
    await context.close();
  }
});
