// A form the browser submits by itself — the user pressed the button before React took over the page (a slow
// network, a script blocked or still loading) — must not put what was typed into the address: a GET would send
// the password or a new user's password as query parameters into the URL, the access logs and the history.
// Every <form> says method="post" (eslint.config.mjs enforces it); here the browser runs no script at all.
import { expect, test, type Response } from "./fixtures";
import { ADMIN_EMAIL, ADMIN_PASSWORD } from "./constants";
import { signInAsAdmin, uniqueEmail } from "./helpers";

test.describe("with scripts off", () => {
  test.use({ javaScriptEnabled: false });

  test("signing in before the page's script runs keeps the password out of the address", async ({ page }) => {
    await page.goto("/signin");
    await page.getByLabel("E-mail").fill(ADMIN_EMAIL);
    await page.getByLabel("Password").fill(ADMIN_PASSWORD);
    const submitted = page.waitForResponse((r) => new URL(r.url()).pathname === "/signin" && r.request().isNavigationRequest());
    await page.getByRole("button", { name: "Sign in" }).click();
    const res: Response = await submitted;
    expect(res.request().method()).toBe("POST");
    expect(res.status()).toBeLessThan(500);
    await page.waitForLoadState();
    expect(page.url()).not.toContain(encodeURIComponent(ADMIN_PASSWORD));
    expect(page.url()).not.toContain("password");
    // The page is still the sign-in form, ready to be used once its script runs.
    await expect(page.getByRole("button", { name: "Sign in" })).toBeVisible();
  });
});

test("adding a user before the Users page's script runs keeps the typed password out of the address", async ({ page, browser }) => {
  await signInAsAdmin(page);
  const noScript = await browser.newContext({ javaScriptEnabled: false, storageState: await page.context().storageState() });
  try {
    const p = await noScript.newPage();
    await p.goto("/users");
    const password = `typed-before-script-${Date.now().toString(36)}`;
    await p.getByLabel("E-mail").fill(uniqueEmail("noscript"));
    await p.locator("#new-user-password").fill(password);
    const submitted = p.waitForResponse((r) => new URL(r.url()).pathname === "/users" && r.request().isNavigationRequest());
    await p.getByRole("button", { name: "Add user" }).click();
    const res = await submitted;
    expect(res.request().method()).toBe("POST");
    expect(res.status()).toBeLessThan(500);
    expect(p.url()).not.toContain(password);
    expect(p.url()).not.toContain("password=");
  } finally {
    await noScript.close();
  }
});
