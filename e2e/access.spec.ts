import { expect, test } from "./fixtures";
import { ADMIN_EMAIL, ADMIN_PASSWORD } from "./constants";
import { findUser, signIn, signInAsAdmin, uniqueEmail } from "./helpers";

test("admin signs in, creates an approver, signs out; the approver signs in and is refused the Users page", async ({ page }) => {
  const email = uniqueEmail("approver");
  const password = "approver-pass-123";

  await signInAsAdmin(page);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Dashboard");
  await expect(page.getByTestId("role-badge")).toHaveText("Admin");

  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Users" }).click();
  await expect(page).toHaveURL(/\/users$/);
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Name (optional)").fill("Ada Approver");
  await page.getByLabel("Role", { exact: true }).selectOption("APPROVER");
  await page.getByLabel("Password (optional)").fill(password);
  await page.getByRole("button", { name: "Add user" }).click();
  await expect(page.getByText(`Added ${email} as Approver`)).toBeVisible();
  await findUser(page, email);
  await expect(page.getByLabel(`Role of ${email}`)).toHaveValue("APPROVER");
  // A password was given, so none is generated and no dialog opens.
  await expect(page.getByRole("dialog")).toHaveCount(0);

  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/signin$/);
  await page.goto("/");
  await expect(page).toHaveURL(/\/signin/);

  await signIn(page, email, password);
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByTestId("user-email")).toHaveText(email);
  await expect(page.getByTestId("role-badge")).toHaveText("Approver");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Dashboard");

  const sidebar = page.getByRole("navigation", { name: "Main" });
  await expect(sidebar.getByRole("link", { name: "Approvals" })).toBeVisible();
  await expect(sidebar.getByRole("link", { name: "Tasks" })).toBeVisible();
  await expect(sidebar.getByRole("link", { name: "Users" })).toHaveCount(0);
  await expect(sidebar.getByRole("link", { name: "Servers & Tools" })).toHaveCount(0);
  await expect(sidebar.getByRole("link", { name: "Audit" })).toHaveCount(0);

  const refused = await page.goto("/users");
  expect(refused?.status()).toBe(403);
  await expect(page.getByRole("heading", { name: "You don't have access to this page" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "All users" })).toHaveCount(0);
  await page.getByRole("link", { name: "Go to the dashboard" }).click();
  await expect(page).toHaveURL(/\/$/);

  const api = await page.request.get("/api/v1/users");
  expect(api.status()).toBe(403);
  const body = (await api.json()) as { error: { code: string; message: string } };
  expect(body.error.code).toBe("forbidden");

  // The approver's own section opens.
  const approvals = await page.goto("/approvals");
  expect(approvals?.status()).toBe(200);
  await expect(page.getByRole("heading", { name: "No approval requests are waiting" })).toBeVisible();
});

test("a wrong password shows a clear error", async ({ page }) => {
  await signIn(page, ADMIN_EMAIL, "not-the-password");
  await expect(page.getByRole("main").getByRole("alert")).toHaveText("Wrong e-mail or password.");
  await expect(page).toHaveURL(/\/signin/);
  expect((await page.request.get("/api/v1/me")).status()).toBe(401);

  // The right password still works afterwards.
  await page.getByLabel("Password").fill(ADMIN_PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByTestId("user-email")).toHaveText(ADMIN_EMAIL);
});

test("repeated wrong passwords lock sign-in and say how long to wait", async ({ page }) => {
  const email = uniqueEmail("locked");
  await page.goto("/signin");
  await page.getByLabel("E-mail").fill(email);
  for (let i = 0; i < 5; i++) {
    await page.getByLabel("Password").fill(`wrong-password-${i}`);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByRole("main").getByRole("alert")).toHaveText("Wrong e-mail or password.");
    await expect(page.getByRole("button", { name: "Sign in" })).toBeEnabled();
  }
  await page.getByLabel("Password").fill("wrong-password-5");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("main").getByRole("alert")).toHaveText(/^Too many failed sign-in attempts\. Try again in \d+ seconds?\.$/);
});

test("a signed-out visitor is sent to sign in and then returned to the page they asked for", async ({ page }) => {
  await page.goto("/settings");
  await expect(page).toHaveURL(/\/signin\?callbackUrl=%2Fsettings$/);
  await page.getByLabel("E-mail").fill(ADMIN_EMAIL);
  await page.getByLabel("Password").fill(ADMIN_PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/settings$/);
  await expect(page.getByRole("heading", { name: "Personal API tokens" })).toBeVisible();

  // Signed in, the sign-in page sends you on to the dashboard.
  await page.goto("/signin");
  await expect(page).toHaveURL(/\/$/);
});

test("every console page sends a signed-out visitor to sign in, keeping the destination", async ({ playwright, baseURL }) => {
  const stranger = await playwright.request.newContext({ baseURL });
  for (const path of ["/", "/agents", "/servers", "/policies", "/approvals", "/tasks", "/audit", "/users", "/settings"]) {
    const res = await stranger.get(path, { maxRedirects: 0 });
    expect(res.status(), path).toBe(307);
    expect(res.headers().location, path).toMatch(new RegExp(`/signin\\?callbackUrl=${encodeURIComponent(path)}$`));
  }
  await stranger.dispose();
});
