// Playwright's `test` with two changes. `page.goto` and `page.reload` return once React has taken over the page
// (app/providers.tsx marks <html data-hydrated> on mount), not at the load event. A click or a typed value before
// hydration goes to server-rendered HTML without handlers: the click is lost, and React replaces what was typed.
// And a test leaves the reused page as it found it (see the page fixture below).
// Specs import everything from here instead of "@playwright/test".
import { test as base, type Page, type Response } from "@playwright/test";

export * from "@playwright/test";

/** Resolves once the page's document has been hydrated (an HTML answer; others have nothing to hydrate). */
export async function waitForHydration(page: Page, res?: Response | null): Promise<void> {
  if (res && !(res.headers()["content-type"] ?? "").includes("text/html")) return;
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
}

/** Pages whose goto and reload already wait for hydration: with `reuseContext` a page lives on across tests. */
const wrapped = new WeakSet<Page>();

type Listener = (...args: unknown[]) => unknown;
/** The EventEmitter methods Playwright's Page has at run time but its types leave out (or type per event). */
type Listening = { eventNames(): (string | symbol)[]; listeners(event: string | symbol): Listener[]; off(event: string | symbol, listener: Listener): unknown };

export const test = base.extend({
  page: async ({ page, javaScriptEnabled }, use) => {
    if (javaScriptEnabled !== false && !wrapped.has(page)) {
      wrapped.add(page);
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
    // The browser context is reused between tests (playwright.config.ts, `reuseContext`): Playwright resets its
    // cookies, storage, pages and routes; what it leaves (a test's listeners on the page, permissions it granted)
    // is undone here.
    const events = page as unknown as Listening;
    const before = new Map(events.eventNames().map((e) => [e, new Set(events.listeners(e))]));
    await use(page);
    for (const e of events.eventNames()) for (const l of events.listeners(e)) if (!before.get(e)?.has(l)) events.off(e, l);
    await page.context().clearPermissions();
  },
});
