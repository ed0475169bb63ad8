import { expect, test } from "./fixtures";
import type { Page as ApiPage } from "@/lib/pagination";
import type { TUser } from "@/lib/schemas";
import { createUserViaApi, findUser, signIn, signInAsAdmin, uniqueEmail } from "./helpers";

test("an admin changes a user's role from the Users page", async ({ page }) => {
  await signInAsAdmin(page);
  const user = await createUserViaApi(page.request, { email: uniqueEmail("promote"), role: "USER", password: "user-pass-1234" });

  await page.goto("/users");
  await findUser(page, user.email);
  const roleSelect = page.getByLabel(`Role of ${user.email}`);
  await expect(roleSelect).toHaveValue("USER");
  await roleSelect.selectOption("APPROVER");
  await expect(page.getByText(`${user.email} is now Approver`)).toBeVisible();

  // The change is stored, not just shown.
  const res = await page.request.get(`/api/v1/users/${user.id}`);
  expect(res.status()).toBe(200);
  expect(((await res.json()) as TUser).role).toBe("APPROVER");
  await page.reload();
  await findUser(page, user.email);
  await expect(page.getByLabel(`Role of ${user.email}`)).toHaveValue("APPROVER");
});

test("an admin adds a user without a password, sees the generated one once, and it signs in", async ({ page, browser }) => {
  const email = uniqueEmail("generated");
  await signInAsAdmin(page, "/users");
  await page.getByLabel("E-mail").fill(email);
  await page.getByRole("button", { name: "Add user" }).click();

  const dialog = page.getByRole("dialog", { name: "Generated password" });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText(email);
  const password = await dialog.getByLabel("Generated password").inputValue();
  expect(password.length).toBeGreaterThanOrEqual(12);
  await expect(dialog.getByRole("button", { name: "Copy password" })).toBeVisible();
  await dialog.getByRole("button", { name: "I have copied it" }).click();
  await expect(dialog).toBeHidden();
  await findUser(page, email);
  await expect(page.getByLabel(`Role of ${email}`)).toHaveValue("USER");

  const other = await browser.newContext();
  const userPage = await other.newPage();
  await signIn(userPage, email, password);
  await expect(userPage).toHaveURL(/\/$/);
  await expect(userPage.getByTestId("role-badge")).toHaveText("User");
  await other.close();
});

test("a rejected form shows the API's validation details in a toast", async ({ page }) => {
  await signInAsAdmin(page, "/users");
  const email = uniqueEmail("short");
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Password (optional)").fill("short");
  await page.getByRole("button", { name: "Add user" }).click();
  const toast = page.locator("[data-sonner-toast]").filter({ hasText: "Could not add the user: The request does not match the schema." });
  await expect(toast).toBeVisible();
  await expect(toast).toContainText("password: must have at least 8 characters");
  await expect(page.getByLabel(`Role of ${email}`)).toHaveCount(0);
  // The form keeps what was typed so it can be corrected.
  await expect(page.getByLabel("E-mail")).toHaveValue(email);
});

test("an admin disables a user, who can then no longer sign in, and enables them again", async ({ page, browser }) => {
  await signInAsAdmin(page);
  const password = "disable-me-1234";
  const user = await createUserViaApi(page.request, { email: uniqueEmail("disabled"), role: "USER", password });
  await page.goto("/users");
  await findUser(page, user.email);
  await page.getByRole("button", { name: `Disable ${user.email}` }).click();
  await expect(page.getByText(`${user.email} is disabled and can no longer sign in`)).toBeVisible();
  await expect(page.getByRole("button", { name: `Enable ${user.email}` })).toBeVisible();

  const other = await browser.newContext();
  const userPage = await other.newPage();
  await signIn(userPage, user.email, password);
  await expect(userPage.getByRole("main").getByRole("alert")).toHaveText("Wrong e-mail or password.");

  await page.getByRole("button", { name: `Enable ${user.email}` }).click();
  await expect(page.getByText(`${user.email} is enabled again`)).toBeVisible();
  await userPage.getByRole("button", { name: "Sign in" }).click();
  await expect(userPage).toHaveURL(/\/$/);
  await other.close();
});

test("the API's refusal is shown as a toast: demoting the last admin", async ({ page }) => {
  await signInAsAdmin(page, "/users");
  await findUser(page, "admin@example.com");
  const me = page.getByLabel("Role of admin@example.com");
  await expect(me).toHaveValue("ADMIN");
  // The seeded admin is the only active one (no test creates another), so the API must refuse.
  const all = (await (await page.request.get("/api/v1/users?limit=200")).json()) as ApiPage<TUser>;
  expect(all.items.filter((u) => u.role === "ADMIN" && !u.disabled).map((u) => u.email)).toEqual(["admin@example.com"]);
  await me.selectOption("USER");
  await expect(page.getByText("This is the last active admin; make another admin first.")).toBeVisible();
  await expect(me).toHaveValue("ADMIN");
});

test("the Users table pages through users with Previous and Next", async ({ page }) => {
  await signInAsAdmin(page);
  const first = (await (await page.request.get("/api/v1/users?limit=200")).json()) as ApiPage<TUser>;
  for (let i = first.items.length; i <= 21; i++) {
    await createUserViaApi(page.request, { email: uniqueEmail(`page${i}`), role: "USER", password: "paging-pass-123" });
  }
  await page.goto("/users");
  const pager = page.getByRole("navigation", { name: "Users pages" });
  await expect(pager).toContainText("Page 1");
  await expect(page.getByTestId("user-row")).toHaveCount(20);
  await expect(pager.getByRole("button", { name: "Previous" })).toBeDisabled();
  const firstOnPage1 = await page.getByTestId("user-row").first().getAttribute("data-email");

  await pager.getByRole("button", { name: "Next" }).click();
  await expect(pager).toContainText("Page 2");
  const rowsOnPage2 = await page.getByTestId("user-row").count();
  expect(rowsOnPage2).toBeGreaterThanOrEqual(2);
  await expect(page.getByTestId("user-row").first()).not.toHaveAttribute("data-email", firstOnPage1 ?? "");

  await pager.getByRole("button", { name: "Previous" }).click();
  await expect(pager).toContainText("Page 1");
  await expect(page.getByTestId("user-row").first()).toHaveAttribute("data-email", firstOnPage1 ?? "");
});

test("a user changes their own password in Settings: a wrong current one is named, the new one works, the old one not", async ({ page, browser }) => {
  await signInAsAdmin(page);
  const user = await createUserViaApi(page.request, { email: uniqueEmail("changer"), role: "USER", password: "old-pass-1234" });
  const context = await browser.newContext();
  const userPage = await context.newPage();
  await signIn(userPage, user.email, "old-pass-1234");
  await expect(userPage).toHaveURL(/\/$/);
  await userPage.goto("/settings");
  const form = userPage.getByRole("form", { name: "Change password" });

  await form.getByLabel("Current password", { exact: true }).fill("not-my-password");
  await form.getByLabel("New password", { exact: true }).fill("new-pass-5678");
  await form.getByLabel("Repeat new password", { exact: true }).fill("new-pass-5678");
  await form.getByRole("button", { name: "Change password" }).click();
  await expect(form.getByRole("alert")).toHaveText("This is not your current password");
  await expect(form.getByLabel("Current password", { exact: true })).toHaveAttribute("aria-invalid", "true");

  await form.getByLabel("Current password", { exact: true }).fill("old-pass-1234");
  await form.getByRole("button", { name: "Change password" }).click();
  await expect(userPage.getByText("Password changed")).toBeVisible();
  // The change ended the old session; the form signed this browser in again with the new password.
  await userPage.reload();
  await expect(userPage.getByTestId("user-email")).toHaveText(user.email);

  const other = await browser.newContext();
  const otherPage = await other.newPage();
  await signIn(otherPage, user.email, "old-pass-1234");
  await expect(otherPage.getByRole("main").getByRole("alert")).toHaveText("Wrong e-mail or password.");
  await signIn(otherPage, user.email, "new-pass-5678");
  await expect(otherPage).toHaveURL(/\/$/);
  await Promise.all([context.close(), other.close()]);
});

test("an admin resets a user's password: the generated one is shown once and signs in, the user's open session ends", async ({ page, browser }) => {
  await signInAsAdmin(page);
  const user = await createUserViaApi(page.request, { email: uniqueEmail("forgetful"), role: "USER", password: "forgotten-1234" });
  const context = await browser.newContext();
  const userPage = await context.newPage();
  await signIn(userPage, user.email, "forgotten-1234");
  await expect(userPage).toHaveURL(/\/$/);

  await page.goto("/users");
  await findUser(page, user.email);
  await page.getByRole("button", { name: `Reset password of ${user.email}` }).click();
  const dialog = page.getByRole("dialog", { name: `Reset password of ${user.email}` });
  await dialog.getByRole("button", { name: "Set password" }).click();
  const shown = page.getByRole("dialog", { name: "Generated password" });
  const password = await shown.getByLabel("Generated password").inputValue();
  expect(password.length).toBeGreaterThanOrEqual(12);
  await shown.getByRole("button", { name: "I have copied it" }).click();
  await expect(shown).toBeHidden();
  // There is no reset button for oneself: that goes through Settings with the current password.
  await expect(page.getByRole("button", { name: /^Reset password of admin/ })).toHaveCount(0);

  await userPage.goto("/settings");
  await expect(userPage).toHaveURL(/\/signin/);
  await signIn(userPage, user.email, password);
  await expect(userPage).toHaveURL(/\/$/);
  await context.close();
});

test("Find users narrows the table to matching e-mails and names, and says when nothing matches", async ({ page }) => {
  await signInAsAdmin(page);
  const user = await createUserViaApi(page.request, { email: uniqueEmail("findable"), role: "USER", password: "findable-1234", name: "Grace Findable" });
  await page.goto("/users");
  await page.getByLabel("Find users").fill("grace FINDABLE");
  await expect(page.getByTestId("user-row")).toHaveCount(1);
  await expect(page.getByTestId("user-row")).toHaveAttribute("data-email", user.email);
  await page.getByLabel("Find users").fill("no-such-person-%");
  await expect(page.getByText("No user's e-mail or name contains “no-such-person-%”.")).toBeVisible();
  await expect(page.getByTestId("user-row")).toHaveCount(0);
});
