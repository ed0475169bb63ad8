// Dark mode follows the system setting (prefers-color-scheme): the page, its cards and its text turn over, and
// the light scheme stays as it was.
import { expect, test, type Page } from "./fixtures";
import { signInAsAdmin } from "./helpers";
import { luminanceOf } from "./helpers-color";

/** Relative luminance of the first element `selector` finds. */
const luminance = (page: Page, selector: string, property: "backgroundColor" | "color") => luminanceOf(page.locator(selector), property);

test.describe("with the system set to dark", () => {
  test.use({ colorScheme: "dark" });

  test("the console draws dark surfaces with light text, and form controls in the dark scheme", async ({ page }) => {
    await signInAsAdmin(page, "/settings");
    await expect(page.getByRole("heading", { level: 1, name: "Settings" })).toBeVisible();
    expect(await luminance(page, "body", "backgroundColor")).toBeLessThan(0.05);
    expect(await luminance(page, "section[aria-labelledby='account-heading']", "backgroundColor")).toBeLessThan(0.05);
    expect(await luminance(page, "#account-heading", "color")).toBeGreaterThan(0.7);
    expect(await luminance(page, "#currentPassword", "backgroundColor")).toBeLessThan(0.05);
    expect(await page.evaluate(() => getComputedStyle(document.documentElement).colorScheme)).toBe("dark");
    // The sidebar is dark in both schemes; its text stays light.
    await expect(page.locator("aside")).toBeVisible();
    expect(await luminance(page, "aside", "backgroundColor")).toBeLessThan(0.05);
    expect(await luminance(page, "aside a[href='/settings']", "color")).toBeGreaterThan(0.7);
    // A primary button keeps white text on its accent colour.
    expect(await luminance(page, 'role=button[name="Change password"]', "color")).toBeGreaterThan(0.9);
  });
});

test.describe("the playground editor with the system set to dark", () => {
  test.use({ colorScheme: "dark" });

  test("the editor is dark with light text, coloured tokens that read on it, and a dark suggestion list", async ({ page }) => {
    await signInAsAdmin(page, "/playground");
    const editor = page.getByLabel("Program", { exact: true });
    await editor.fill("const answer = 42; // note");
    await expect(editor.getByText("const", { exact: true })).toBeVisible();
    expect(await luminance(page, "[data-testid='code-editor']", "backgroundColor")).toBeLessThan(0.05);
    expect(await luminance(page, ".cm-gutters", "backgroundColor")).toBeLessThan(0.05);
    expect(await luminance(page, ".cm-content", "color")).toBeGreaterThan(0.7);
    // Keyword, number and comment colours read on the dark surface (WCAG AA contrast, 4.5:1).
    const surface = await luminance(page, "[data-testid='code-editor']", "backgroundColor");
    for (const token of ["const", "42", "// note"]) {
      const span = `.cm-content span:text-is("${token}")`;
      expect((await luminance(page, span, "color")) + 0.05).toBeGreaterThan(4.5 * (surface + 0.05));
    }
    await editor.fill("");
    await editor.pressSequentially("workspace.");
    await expect(page.getByRole("listbox")).toBeVisible();
    expect(await luminance(page, ".cm-tooltip-autocomplete", "backgroundColor")).toBeLessThan(0.05);
  });
});

test.describe("with the system set to light", () => {
  test.use({ colorScheme: "light" });

  test("the console stays light", async ({ page }) => {
    await signInAsAdmin(page, "/settings");
    await expect(page.getByRole("heading", { level: 1, name: "Settings" })).toBeVisible();
    expect(await luminance(page, "body", "backgroundColor")).toBeGreaterThan(0.9);
    expect(await luminance(page, "section[aria-labelledby='account-heading']", "backgroundColor")).toBeGreaterThan(
      0.95,
    );
    expect(await luminance(page, "#account-heading", "color")).toBeLessThan(0.05);
  });
});
