// Signing in over HTTP as a browser does (next-auth credentials: csrf token and cookie, then the form post)
// against one `portcullis start` process on the run's PostgreSQL with LOGIN_MAX_FAILURES=3; sessions on the
// API and on console pages.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDb, testDatabaseUrl, truncateAll } from "@/server/test/test-db";
import { apiRequest, type ApiErrorBody, type Me } from "@/scripts/test-support/api-request";
import { SESSION_COOKIE, signIn } from "@/scripts/test-support/sign-in";
import { startApp, stopAllApps, type AppProcess } from "@/scripts/test-support/start-app";
import { makeTempDir, removeTempDirs } from "@/scripts/test-support/temp-dir";

const PASSWORD = "right-password-1";
const ADMIN = "admin@example.com";
const USER = "user@example.com";
const LOCKED = "locked@example.com";
const LEAVER = "leaver@example.com";
const CHANGER = "changer@example.com";
const FORGETFUL = "forgetful@example.com";

describe("sign-in over HTTP (next-auth credentials)", () => {
  const db = createTestDb();
  let app: AppProcess;
  let base = "";

  beforeAll(async () => {
    await truncateAll(db);
    // The first admin comes from ADMIN_EMAIL / ADMIN_PASSWORD; the others are created by that admin's session.
    app = await startApp({
      env: {
        DATABASE_URL: testDatabaseUrl(),
        DATA_DIR: await makeTempDir("auth"),
        ADMIN_EMAIL: ADMIN,
        ADMIN_PASSWORD: PASSWORD,
        LOGIN_MAX_FAILURES: "3",
        LOGIN_WINDOW_SECONDS: "600",
      },
    });
    base = app.baseUrl;
    const admin = await signIn(base, ADMIN, PASSWORD);
    if (!admin.ok) throw new Error(`the first admin could not sign in: ${admin.error}`);
    for (const email of [USER, LOCKED, LEAVER, CHANGER, FORGETFUL]) {
      const res = await apiRequest(base, "/api/v1/users", {
        cookie: admin.jar.header(),
        body: { email, role: "USER", password: PASSWORD },
      });
      if (res.status !== 201) throw new Error(`POST /api/v1/users ${email} answered ${res.status}: ${res.text}`);
    }
  });

  afterAll(async () => {
    await stopAllApps();
    await removeTempDirs();
    await db.$disconnect();
  });

  it("POST /api/auth/callback/credentials – the right password sets a session cookie; GET /api/v1/me answers 200 via session", async () => {
    const session = await signIn(base, USER, PASSWORD);
    expect(session.error).toBeUndefined();
    expect(session.ok).toBe(true);
    const me = await apiRequest<Me>(base, "/api/v1/me", { cookie: session.jar.header() });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ via: "session", user: { email: USER, role: "USER" } });
    const row = await db.user.findUniqueOrThrow({ where: { email: USER } });
    expect(row.lastLoginAt).toBeInstanceOf(Date);
  });

  it("POST /api/auth/callback/credentials – the e-mail is matched case-insensitively", async () => {
    const session = await signIn(base, "  User@Example.COM ", PASSWORD);
    expect(session.ok).toBe(true);
  });

  it("GET /api/v1/users – 403 forbidden for a USER session", async () => {
    const session = await signIn(base, USER, PASSWORD);
    const res = await apiRequest<ApiErrorBody>(base, "/api/v1/users", { cookie: session.jar.header() });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe("forbidden");
  });

  it("GET /api/v1/users – 200 for an ADMIN session", async () => {
    const session = await signIn(base, ADMIN, PASSWORD);
    const res = await apiRequest<{ items: { email: string }[] }>(base, "/api/v1/users", {
      cookie: session.jar.header(),
    });
    expect(res.status).toBe(200);
    expect(res.body.items.map((u) => u.email)).toContain(USER);
  });

  it("GET /users – the console page answers 403 to a USER session", async () => {
    const session = await signIn(base, USER, PASSWORD);
    const res = await apiRequest(base, "/users", { cookie: session.jar.header() });
    expect(res.status).toBe(403);
    expect(res.headers.get("content-type")).toContain("text/html");
  });

  it("GET /users – the console page redirects to /signin without a session", async () => {
    const res = await apiRequest(base, "/users");
    expect(res.status).toBeGreaterThanOrEqual(300);
    expect(res.status).toBeLessThan(400);
    const location = new URL(res.headers.get("location") ?? "", base);
    expect(location.pathname).toBe("/signin");
    expect(location.searchParams.get("callbackUrl")).toBe("/users");
  });

  it("GET /users – the console page answers 200 to an ADMIN session", async () => {
    const session = await signIn(base, ADMIN, PASSWORD);
    const res = await apiRequest(base, "/users", { cookie: session.jar.header() });
    expect(res.status).toBe(200);
  });

  it("POST /api/auth/callback/credentials – a wrong password sets no session cookie and answers CredentialsSignin", async () => {
    const session = await signIn(base, USER, "wrong-password");
    expect(session.ok).toBe(false);
    expect(session.jar.get(SESSION_COOKIE)).toBeUndefined();
    expect(session.error).toBe("CredentialsSignin");
    expect((await apiRequest(base, "/api/v1/me", { cookie: session.jar.header() })).status).toBe(401);
  });

  it("POST /api/auth/callback/credentials – an unknown e-mail answers CredentialsSignin", async () => {
    const session = await signIn(base, "nobody@example.com", PASSWORD);
    expect(session.ok).toBe(false);
    expect(session.error).toBe("CredentialsSignin");
  });

  it("POST /api/auth/callback/credentials – after 3 wrong passwords even the right one is refused with rate_limited", async () => {
    for (let i = 1; i <= 3; i++) {
      const wrong = await signIn(base, LOCKED, `wrong-password-${i}`);
      expect(wrong.error, `attempt ${i}`).toBe("CredentialsSignin");
    }
    const right = await signIn(base, LOCKED, PASSWORD);
    expect(right.ok).toBe(false);
    expect(right.jar.get(SESSION_COOKIE)).toBeUndefined();
    expect(right.error).toContain("rate_limited");
    expect(right.error).toMatch(/^rate_limited:\d+$/);
    // The limit is per e-mail: other people still sign in.
    expect((await signIn(base, USER, PASSWORD)).ok).toBe(true);
  });

  it("a disabled user loses access on the next request even with a live session cookie (401)", async () => {
    const leaver = await signIn(base, LEAVER, PASSWORD);
    expect(leaver.ok).toBe(true);
    const cookie = leaver.jar.header();
    expect((await apiRequest(base, "/api/v1/me", { cookie })).status).toBe(200);

    const admin = await signIn(base, ADMIN, PASSWORD);
    const leaverId = (await db.user.findUniqueOrThrow({ where: { email: LEAVER } })).id;
    const patched = await apiRequest<{ disabled: boolean }>(base, `/api/v1/users/${leaverId}`, {
      method: "PATCH",
      cookie: admin.jar.header(),
      body: { disabled: true },
    });
    expect(patched.status).toBe(200);
    expect(patched.body.disabled).toBe(true);

    const after = await apiRequest<ApiErrorBody>(base, "/api/v1/me", { cookie });
    expect(after.status).toBe(401);
    expect(after.body.error.code).toBe("unauthenticated");
    const again = await signIn(base, LEAVER, PASSWORD);
    expect(again.ok).toBe(false);
  });

  it("POST /api/v1/me/password – 422 naming currentPassword for a wrong current password; the password stays", async () => {
    const me = await signIn(base, CHANGER, PASSWORD);
    const res = await apiRequest<ApiErrorBody>(base, "/api/v1/me/password", {
      cookie: me.jar.header(),
      body: { currentPassword: "not it at all", newPassword: "changed-password-2" },
    });
    expect(res.status).toBe(422);
    expect(res.body.error).toMatchObject({ code: "validation_failed", details: [{ path: "currentPassword" }] });
    expect((await apiRequest(base, "/api/v1/me", { cookie: me.jar.header() })).status).toBe(200);
  });

  it("POST /api/v1/me/password – 200 changes it; sessions signed in before end (401), the new password signs in, the old one not", async () => {
    const first = await signIn(base, CHANGER, PASSWORD);
    const second = await signIn(base, CHANGER, PASSWORD);
    const res = await apiRequest<{ email: string }>(base, "/api/v1/me/password", {
      cookie: first.jar.header(),
      body: { currentPassword: PASSWORD, newPassword: "changed-password-2" },
    });
    expect(res.status).toBe(200);
    expect(res.body.email).toBe(CHANGER);
    for (const session of [first, second]) {
      const me = await apiRequest<ApiErrorBody>(base, "/api/v1/me", { cookie: session.jar.header() });
      expect(me.status).toBe(401);
      expect(me.body.error.code).toBe("unauthenticated");
    }
    expect((await signIn(base, CHANGER, PASSWORD)).ok).toBe(false);
    const fresh = await signIn(base, CHANGER, "changed-password-2");
    expect(fresh.ok).toBe(true);
    expect((await apiRequest(base, "/api/v1/me", { cookie: fresh.jar.header() })).status).toBe(200);
  });

  it("POST /api/v1/users/{id}/password – 403 forbidden for a USER session, and the password stays", async () => {
    const user = await signIn(base, USER, PASSWORD);
    const id = (await db.user.findUniqueOrThrow({ where: { email: FORGETFUL } })).id;
    const res = await apiRequest<ApiErrorBody>(base, `/api/v1/users/${id}/password`, { cookie: user.jar.header(), body: { password: "taken-over-1" } });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe("forbidden");
    expect((await signIn(base, FORGETFUL, PASSWORD)).ok).toBe(true);
  });

  it("POST /api/v1/users/{id}/password – an admin's reset returns a generated password once, ends the user's sessions and lifts the sign-in block", async () => {
    const old = await signIn(base, FORGETFUL, PASSWORD);
    for (let i = 0; i < 3; i++) expect((await signIn(base, FORGETFUL, "wrong-guess")).ok).toBe(false);
    expect((await signIn(base, FORGETFUL, PASSWORD)).error).toMatch(/^rate_limited:/);

    const admin = await signIn(base, ADMIN, PASSWORD);
    const id = (await db.user.findUniqueOrThrow({ where: { email: FORGETFUL } })).id;
    const res = await apiRequest<{ user: { email: string }; generatedPassword?: string }>(base, `/api/v1/users/${id}/password`, { cookie: admin.jar.header(), body: {} });
    expect(res.status).toBe(200);
    expect(res.body.user.email).toBe(FORGETFUL);
    expect(res.body.generatedPassword).toMatch(/^.{8,}$/);

    expect((await apiRequest(base, "/api/v1/me", { cookie: old.jar.header() })).status).toBe(401);
    expect((await signIn(base, FORGETFUL, res.body.generatedPassword!)).ok).toBe(true);
  });

  it("POST /api/v1/users/{id}/password – 422 naming password for a short one; 404 for an unknown user", async () => {
    const admin = await signIn(base, ADMIN, PASSWORD);
    const id = (await db.user.findUniqueOrThrow({ where: { email: FORGETFUL } })).id;
    const short = await apiRequest<ApiErrorBody>(base, `/api/v1/users/${id}/password`, { cookie: admin.jar.header(), body: { password: "short" } });
    expect(short.status).toBe(422);
    expect(short.body.error).toMatchObject({ code: "validation_failed", details: [{ path: "password" }] });
    const missing = await apiRequest<ApiErrorBody>(base, "/api/v1/users/no-such-user/password", { cookie: admin.jar.header(), body: {} });
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe("not_found");
  });
});
