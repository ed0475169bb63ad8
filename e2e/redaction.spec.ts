// Settings → Redaction: an admin tries a text, adds a pattern and saves, switches to mask mode and turns a
// pattern off, each time seeing the server's preview follow; other users never see the section. Every test
// puts the defaults back, so the other specs run under the settings a fresh install has.
import { expect, test, type Page } from "./fixtures";
import { DEFAULT_REDACTION_SETTINGS } from "@/lib/redaction-schemas";
import { createUserViaApi, signIn, signInAsAdmin, uniqueEmail } from "./helpers";

const SAMPLE = "Mail jane.doe@example.com about TCK-1234";

async function openSettings(page: Page) {
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Settings" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Settings" })).toBeVisible();
  const section = page.getByTestId("redaction-settings");
  await expect(section.getByRole("heading", { name: "Redaction" })).toBeVisible();
  return section;
}

async function save(page: Page) {
  await page.getByTestId("redaction-save").click();
  await expect(page.getByText("Redaction settings saved").first()).toBeVisible();
  await expect(page.getByTestId("redaction-save")).toBeDisabled();
}

async function restoreDefaults(page: Page) {
  const res = await page.request.put("/api/v1/settings/redaction", { data: DEFAULT_REDACTION_SETTINGS });
  expect(res.status(), await res.text()).toBe(200);
}

test.describe("as an admin", () => {
  test.afterEach(async ({ page }) => {
    await restoreDefaults(page);
  });

  test("tries a text, adds a pattern, switches to mask and turns a pattern off", async ({ page }) => {
    await signInAsAdmin(page);
    await restoreDefaults(page);
    const section = await openSettings(page);
    const preview = section.getByTestId("redaction-preview");

    // The defaults: hash mode, the built-ins listed by their labels, the default field names.
    await expect(section.getByTestId("redaction-mode-hash")).toBeChecked();
    const email = section.locator('[data-testid="redaction-pattern-row"][data-name="email"]');
    await expect(email).toContainText("E-mail addresses");
    await expect(email.getByRole("switch", { name: "Redact E-mail addresses" })).toHaveAttribute(
      "aria-checked",
      "true",
    );
    await expect(email.getByTestId("redaction-pattern-delete")).toHaveCount(0);
    await expect(section.locator('[data-testid="redaction-field"][data-name="password"]')).toBeVisible();

    // Try it: the server's preview, in hash mode.
    await section.getByTestId("redaction-try-input").fill(SAMPLE);
    await expect(preview).toHaveText(/^Mail \[email:[0-9a-f]{10}\] about TCK-1234$/);

    // A new pattern is checked here with the server's schema before it is added.
    await section.getByTestId("redaction-new-name").fill("ticket");
    await section.getByTestId("redaction-new-pattern").fill("TCK-(\\d");
    await section.getByTestId("redaction-add-pattern").click();
    await expect(section.getByTestId("field-error")).toContainText("must be a valid regular expression");
    await expect(section.locator('[data-testid="redaction-pattern-row"][data-name="ticket"]')).toHaveCount(0);
    await section.getByTestId("redaction-new-pattern").fill(String.raw`TCK-\d{4}`);
    await section.getByTestId("redaction-add-pattern").click();
    const ticket = section.locator('[data-testid="redaction-pattern-row"][data-name="ticket"]');
    await expect(ticket.getByTestId("redaction-pattern-regex")).toHaveText(String.raw`TCK-\d{4}`);
    await expect(section.getByTestId("redaction-new-name")).toHaveValue("");
    // A second one by the same name is refused.
    await section.getByTestId("redaction-new-name").fill("ticket");
    await section.getByTestId("redaction-new-pattern").fill("X-\\d+");
    await section.getByTestId("redaction-add-pattern").click();
    await expect(section.getByTestId("field-error")).toContainText("a pattern named “ticket” exists already");
    await section.getByTestId("redaction-new-name").fill("");
    await section.getByTestId("redaction-new-pattern").fill("");

    // Field names: added from a comma-separated input, removed by their chip.
    await section.getByTestId("redaction-field-input").fill("iban, session_id");
    await section.getByTestId("redaction-field-input").press("Enter");
    await expect(section.locator('[data-testid="redaction-field"][data-name="iban"]')).toBeVisible();
    await section.getByRole("button", { name: "Remove field session_id" }).click();
    await expect(section.locator('[data-testid="redaction-field"][data-name="session_id"]')).toHaveCount(0);

    // Unsaved, the preview still shows the saved settings.
    await expect(section.getByText("Unsaved changes are not applied yet")).toBeVisible();
    await expect(preview).toHaveText(/about TCK-1234$/);
    await save(page);
    await expect(preview).toHaveText(/^Mail \[email:[0-9a-f]{10}\] about \[ticket:[0-9a-f]{10}\]$/);

    // Mask mode: names only.
    await section.getByTestId("redaction-mode-mask").check();
    await save(page);
    await expect(preview).toHaveText("Mail [email] about [ticket]");

    // A built-in switched off leaves its matches alone.
    await email.getByRole("switch", { name: "Redact E-mail addresses" }).click();
    await save(page);
    await expect(preview).toHaveText("Mail jane.doe@example.com about [ticket]");

    // All of it was saved: a reload shows it.
    await page.reload();
    await expect(section.getByTestId("redaction-mode-mask")).toBeChecked();
    await expect(ticket).toBeVisible();
    await expect(email.getByRole("switch", { name: "Redact E-mail addresses" })).toHaveAttribute(
      "aria-checked",
      "false",
    );
    await expect(section.locator('[data-testid="redaction-field"][data-name="iban"]')).toBeVisible();

    // An admin's own pattern can be deleted; "Restore defaults" brings back the defaults as a draft.
    await ticket.getByRole("button", { name: "Delete pattern ticket" }).click();
    await expect(ticket).toHaveCount(0);
    await section.getByTestId("redaction-defaults").click();
    await expect(section.getByTestId("redaction-mode-hash")).toBeChecked();
    await save(page);
    await section.getByTestId("redaction-try-input").fill(SAMPLE);
    await expect(preview).toHaveText(/^Mail \[email:[0-9a-f]{10}\] about TCK-1234$/);
  });

  test("the section fits a phone", async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await signInAsAdmin(page, "/settings");
    const section = page.getByTestId("redaction-settings");
    await expect(section.getByTestId("redaction-pattern-row").first()).toBeVisible();
    await section.getByTestId("redaction-try-input").fill(SAMPLE);
    await expect(section.getByTestId("redaction-preview")).toHaveText(/^Mail \[email:[0-9a-f]{10}\] about TCK-1234$/);
    await expect(section.getByTestId("redaction-save")).toBeVisible();
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);
  });
});

test("a user who is not an admin does not see the section and cannot call the API", async ({ page }) => {
  await signInAsAdmin(page);
  const email = uniqueEmail("redaction-user");
  const password = "redaction-user-pass-1234";
  await createUserViaApi(page.request, { email, role: "USER", password });
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/signin/);
  await signIn(page, email, password);
  await expect(page.getByTestId("user-email")).toHaveText(email);
  await page.goto("/settings");
  await expect(page.getByRole("heading", { name: "Personal API tokens" })).toBeVisible();
  await expect(page.getByTestId("redaction-settings")).toHaveCount(0);
  expect((await page.request.get("/api/v1/settings/redaction")).status()).toBe(403);
  expect((await page.request.post("/api/v1/settings/redaction/preview", { data: { text: "x" } })).status()).toBe(403);
});
