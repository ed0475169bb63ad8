import { expect, waitForHydration, type APIRequestContext, type Page } from "./fixtures";
import type { TRole } from "@/lib/roles";
import type { TUser } from "@/lib/schemas";
import { SESSION_COOKIE } from "@/scripts/test-support/sign-in";
import { ADMIN_EMAIL, ADMIN_PASSWORD } from "./constants";

/** A unique e-mail per call, so tests never collide in the shared database. */
export function uniqueEmail(prefix: string): string {
  return `${prefix}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}@example.com`;
}

export async function signIn(page: Page, email: string, password: string) {
  await page.goto("/signin");
  // Also for pages not made by the fixture (a context of the test's own).
  await waitForHydration(page);
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

/**
 * Signs the admin in through next-auth's own endpoints (the page's context keeps the session cookie: `page.request`
 * shares it), then opens `path` once the console has taken over. The sign-in form is driven by `signIn` in the
 * specs about signing in (access.spec.ts and others); every other test needs only to be signed in, and the form
 * and the dashboard it lands on cost each about 0.6–1.4 s of a run (2026-12-05, five sign-ins each way).
 */
export async function signInAsAdmin(page: Page, path = "/") {
  const { csrfToken } = (await (await page.request.get("/api/auth/csrf")).json()) as { csrfToken: string };
  const res = await page.request.post("/api/auth/callback/credentials", { form: { csrfToken, email: ADMIN_EMAIL, password: ADMIN_PASSWORD, callbackUrl: "/", json: "true" } });
  expect(res.status(), await res.text()).toBe(200);
  expect((await page.context().cookies()).map((c) => c.name), "a session cookie").toContain(SESSION_COOKIE);
  await page.goto(path);
  // Also for pages not made by the fixture (a context of the test's own).
  await waitForHydration(page);
  await expect(page.getByTestId("user-email")).toHaveText(ADMIN_EMAIL);
}

/** Creates a user through the REST API with the signed-in admin's session. */
export async function createUserViaApi(request: APIRequestContext, body: { email: string; role: TRole; password: string; name?: string }): Promise<TUser> {
  const res = await request.post("/api/v1/users", { data: body });
  expect(res.status(), await res.text()).toBe(201);
  return ((await res.json()) as { user: TUser }).user;
}

/** The page does not scroll sideways (what a 390 px phone must never need). */
export const noSidewaysScroll = async (page: Page) =>
  expect(
    await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth),
  ).toBeLessThanOrEqual(0);

/** Narrows the Users table to `email` (users are listed oldest first, 20 a page, so a new one may be pages away). */
export async function findUser(page: Page, email: string) {
  await page.getByLabel("Find users").fill(email);
  // One look at the whole table: until the search's answer arrives the table keeps the previous rows
  // (keepPreviousData), and on a nearly empty database those can be one row too, another user's (CI, first test).
  await expect.poll(() => page.getByTestId("user-row").evaluateAll((rows) => rows.map((r) => r.getAttribute("data-email")))).toEqual([email]);
}
