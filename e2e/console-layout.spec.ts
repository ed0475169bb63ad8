// The console's layout at a desktop and a 390 px phone: the dashboard without a banner or section cards, the
// "Connect an agent" dialog's main button always in view, Settings sections reachable by URL, the audit filters
// folded away on a phone, and a visible label on the sessions page's switch.
import { expect, test } from "./fixtures";
import { noSidewaysScroll, signInAsAdmin } from "./helpers";

const VIEWPORTS = [
  { name: "desktop", width: 1280, height: 720 },
  { name: "phone", width: 390, height: 844 },
] as const;

test("the dashboard opens on the traffic, without a banner or cards repeating the sidebar", async ({ page }) => {
  await signInAsAdmin(page);
  await expect(page.getByRole("heading", { level: 1, name: "Dashboard" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Gateway traffic" })).toBeInViewport();
  await expect(page.getByRole("list", { name: "Sections you can open" })).toHaveCount(0);
  await expect(page.getByText("Welcome")).toHaveCount(0);
  // The sidebar is where the sections are.
  await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Settings" })).toBeVisible();
});

for (const vp of VIEWPORTS) {
  test(`${vp.name}: the Connect an agent dialog keeps Create session in view while its body scrolls`, async ({
    page,
  }) => {
    await page.setViewportSize({ width: vp.width, height: vp.name === "desktop" ? 560 : vp.height });
    await signInAsAdmin(page, "/agents");
    await page.getByRole("button", { name: "Connect an agent" }).first().click();
    const dialog = page.getByRole("dialog", { name: "Connect an agent" });
    await expect(dialog).toBeVisible();
    const create = dialog.getByRole("button", { name: "Create session" });
    // The body is taller than the dialog: it scrolls, between the title and the footer.
    const body = dialog.getByTestId("dialog-body");
    expect(await body.evaluate((d) => d.scrollHeight - d.clientHeight)).toBeGreaterThan(50);
    for (const to of ["top", "middle"] as const) {
      await body.evaluate(
        (d, where) => d.scrollTo({ top: where === "top" ? 0 : (d.scrollHeight - d.clientHeight) / 2 }),
        to,
      );
      await expect(create).toBeInViewport({ ratio: 1 });
      // Nothing of the body is drawn over it: the button is what is under its own centre.
      const onTop = await create.evaluate((b) => {
        const r = b.getBoundingClientRect();
        const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
        const d = b.closest("dialog")!.getBoundingClientRect();
        return { hit: !!hit && b.contains(hit), inside: r.bottom <= d.bottom && r.top >= d.top };
      });
      expect(onTop).toEqual({ hit: true, inside: true });
    }
    // The footer is the shared dialog's own row, outside what scrolls.
    await expect(dialog.getByTestId("dialog-footer")).toContainText("Create session");
    expect(await body.getByRole("button", { name: "Create session" }).count()).toBe(0);
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await expect(dialog).toBeHidden();
    await noSidewaysScroll(page);
  });
}

const SECTIONS = [
  { id: "account", label: "Your account", heading: "Your account" },
  { id: "tokens", label: "API tokens", heading: "Personal API tokens" },
  { id: "secrets", label: "Secrets", heading: "Secrets" },
  { id: "redaction", label: "Redaction", heading: "Redaction" },
] as const;

test("desktop: Settings lists its sections beside them, and each section has its own URL", async ({ page }) => {
  await signInAsAdmin(page);
  for (const s of SECTIONS) {
    await page.goto(`/settings#${s.id}`);
    const nav = page.getByRole("navigation", { name: "Settings sections" });
    await expect(nav.getByRole("link", { name: s.label })).toHaveAttribute("aria-current", "location");
    await expect(page.getByRole("heading", { level: 2, name: s.heading, exact: true })).toBeInViewport();
  }
  await page.goto("/settings");
  const nav = page.getByRole("navigation", { name: "Settings sections" });
  await expect(nav.getByRole("link")).toHaveText(SECTIONS.map((s) => s.label));
  await nav.getByRole("link", { name: "Redaction" }).click();
  await expect(page).toHaveURL(/\/settings#redaction$/);
  await expect(page.getByRole("heading", { level: 2, name: "Redaction", exact: true })).toBeInViewport();
  await expect(nav.getByRole("link", { name: "Redaction" })).toHaveAttribute("aria-current", "location");
  await expect(page.getByLabel("Section", { exact: true })).toBeHidden();
});

test("phone: Settings offers its sections as a select, and each section has its own URL", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signInAsAdmin(page, "/settings#tokens");
  await expect(page.getByRole("navigation", { name: "Settings sections" })).toBeHidden();
  const select = page.getByLabel("Section", { exact: true });
  await expect(select).toHaveValue("tokens");
  await expect(page.getByRole("heading", { level: 2, name: "Personal API tokens", exact: true })).toBeInViewport();
  await select.selectOption({ label: "Secrets" });
  await expect(page).toHaveURL(/\/settings#secrets$/);
  await expect(page.getByRole("heading", { level: 2, name: "Secrets", exact: true })).toBeInViewport();
  await noSidewaysScroll(page);
});

test("phone: the audit filters are folded behind a toggle that counts them, and the results are on the first screen", async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signInAsAdmin(page, "/audit");
  const toggle = page.getByRole("button", { name: /^Filters/ });
  await expect(toggle).toHaveAttribute("aria-expanded", "false");
  await expect(page.getByTestId("audit-filters")).toBeHidden();
  await expect(page.getByTestId("audit-row").first()).toBeInViewport();

  // A link with filters: the toggle says how many are in force; opened, the form shows them.
  await page.goto("/audit?action=auth.*&status=ok");
  await expect(toggle).toHaveAccessibleName("Filters (2 active)");
  await expect(page.getByTestId("audit-row").first()).toBeInViewport();
  await toggle.click();
  await expect(toggle).toHaveAttribute("aria-expanded", "true");
  await expect(page.getByTestId("audit-filter-status")).toHaveValue("ok");
  // A search folds the form away again, so its results show.
  await page.getByTestId("audit-filter-status").selectOption("");
  await page.getByTestId("audit-apply").click();
  await expect(page).toHaveURL(/action=auth\.\*$/);
  await expect(toggle).toHaveAccessibleName("Filters (1 active)");
  await expect(page.getByTestId("audit-filters")).toBeHidden();
  await expect(page.getByTestId("audit-row").first()).toBeInViewport();
  await noSidewaysScroll(page);
});

test("desktop: the audit filters are open, and can be folded", async ({ page }) => {
  await signInAsAdmin(page, "/audit");
  const toggle = page.getByRole("button", { name: /^Filters/ });
  await expect(toggle).toHaveAttribute("aria-expanded", "true");
  await expect(page.getByTestId("audit-filter-tool")).toBeVisible();
  await toggle.click();
  await expect(page.getByTestId("audit-filters")).toBeHidden();
  await expect(toggle).toHaveAttribute("aria-expanded", "false");
});

for (const vp of VIEWPORTS) {
  test(`${vp.name}: the Everyone's sessions switch has a visible label that names it`, async ({ page }) => {
    await page.setViewportSize({ width: vp.width, height: vp.height });
    await signInAsAdmin(page, "/agents");
    const sw = page.getByRole("switch", { name: "Everyone's sessions" });
    await expect(sw).toBeVisible();
    await expect(sw).toHaveAttribute("aria-checked", "false");
    await expect(page.getByText("Everyone's sessions", { exact: true })).toBeVisible();
    await sw.click();
    await expect(sw).toHaveAttribute("aria-checked", "true");
    await expect(page.getByRole("heading", { level: 2, name: "Everyone's sessions" })).toBeVisible();
    await noSidewaysScroll(page);
  });
}
