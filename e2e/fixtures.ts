// Playwright's `test` with one change: `page.goto` and `page.reload` return once React has taken over the page
// (app/providers.tsx marks <html data-hydrated> on mount), not at the load event. A click or a typed value before
// hydration goes to server-rendered HTML without handlers: the click is lost, and React replaces what was typed.
// Specs import everything from here instead of "@playwright/test".
import { test as base, type Page, type Response } from "@playwright/test";

export * from "@playwright/test";

/** Resolves once the page's document has been hydrated (an HTML answer; others have nothing to hydrate). */
export async function waitForHydration(page: Page, res?: Response | null): Promise<void> {
  if (res && !(res.headers()["content-type"] ?? "").includes("text/html")) return;
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
}

export const test = base.extend({
  page: async ({ page, javaScriptEnabled }, use) => {
    if (javaScriptEnabled !== false) {
      const goto = page.goto.bind(page);
      const reload = page.reload.bind(page);
      page.goto = async (url, options) => {
        const res = await goto(url, options);
        await waitForHydration(page, res);
        return res;
      };
      page.reload = async (options) => {
        const res = await reload(options);
        await waitForHydration(page, res);
        return res;
      };
    }
    await use(page);
  },
});
