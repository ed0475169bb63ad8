import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { GatewayError } from "../errors";
import { insertUser } from "../test/contexts";
import { createTestDb, testDatabaseUrl, truncateAll } from "../test/test-db";
import { createLoginLimiter, type LoginLimiter } from "./login-limiter";
import { verifyCredentials } from "./verify-credentials";

const MAX = 3;
const WINDOW = 60;
const PASSWORD = "the right password";

const db = createTestDb();
let limiter: LoginLimiter;
const extraLimiters: LoginLimiter[] = [];

beforeEach(async () => {
  await truncateAll(db);
  limiter = createLoginLimiter(testDatabaseUrl(), { maxFailures: MAX, windowSeconds: WINDOW });
});
afterEach(async () => {
  await Promise.all([limiter, ...extraLimiters.splice(0)].map((l) => l.close()));
});
afterAll(() => db.$disconnect());

async function rejection(p: Promise<unknown>): Promise<GatewayError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(GatewayError);
  return err as GatewayError;
}

const REDACTED_EMAIL = expect.stringMatching(/^\[email(:[0-9a-f]{10})?\]$/) as string;
const login = (l: LoginLimiter, email: string, password: string, ip = "203.0.113.7") =>
  verifyCredentials(db, l, { email, password, ip });

describe("verifyCredentials", () => {
  it("signs in with the right password, case-insensitively, and records the login", async () => {
    const user = await insertUser(db, { email: "alice@example.com", password: PASSWORD });
    const who = await login(limiter, "  ALICE@example.com ", PASSWORD);
    expect(who.id).toBe(user.id);
    expect((await db.user.findUniqueOrThrow({ where: { id: user.id } })).lastLoginAt).not.toBeNull();
    const [audit] = await db.auditEvent.findMany({ where: { action: "auth.logged_in" } });
    expect(audit).toMatchObject({ userId: user.id, category: "security", ip: "203.0.113.7", targetId: user.id });
  });

  it("resets the failure count after a successful sign-in", async () => {
    await insertUser(db, { email: "bob@example.com", password: PASSWORD });
    for (let i = 0; i < MAX - 1; i++)
      await expect(login(limiter, "bob@example.com", "wrong")).rejects.toMatchObject({ code: "unauthenticated" });
    await login(limiter, "bob@example.com", PASSWORD);
    expect(await limiter.blockedFor("bob@example.com")).toBe(0);
    // Without the reset these would add up to more than MAX failures and block the last try.
    for (let i = 0; i < MAX - 1; i++)
      await expect(login(limiter, "bob@example.com", "wrong")).rejects.toMatchObject({ code: "unauthenticated" });
    await expect(login(limiter, "bob@example.com", PASSWORD)).resolves.toMatchObject({ email: "bob@example.com" });
  });

  it(`blocks every try after ${MAX} wrong passwords, even the right one, with a Retry-After`, async () => {
    await insertUser(db, { email: "carol@example.com", password: PASSWORD });
    for (let i = 0; i < MAX; i++) {
      const err = await rejection(login(limiter, "carol@example.com", `wrong ${i}`));
      expect(err.code).toBe("unauthenticated");
    }
    const blocked = await rejection(login(limiter, "carol@example.com", PASSWORD));
    expect(blocked.code).toBe("rate_limited");
    expect(blocked.status).toBe(429);
    expect(blocked.retryAfterSeconds).toBeGreaterThan(0);
    expect(blocked.retryAfterSeconds).toBeLessThanOrEqual(WINDOW);

    const failed = await db.auditEvent.findMany({ where: { action: "auth.login_failed" } });
    expect(failed).toHaveLength(MAX);
    for (const row of failed) {
      expect(row).toMatchObject({
        category: "security",
        status: "denied",
        errorCode: "unauthenticated",
        ip: "203.0.113.7",
      });
      // The e-mail tried is redacted like every personal value in the audit log (a tag that still correlates).
      expect(row.details).toMatchObject({ email: REDACTED_EMAIL, reason: "wrong_password" });
      expect(JSON.stringify(row.details)).not.toContain("carol@example.com");
      expect(JSON.stringify(row.details)).not.toContain("wrong ");
    }
    const [blockedRow] = await db.auditEvent.findMany({ where: { action: "auth.login_blocked" } });
    expect(blockedRow).toMatchObject({
      status: "denied",
      errorCode: "rate_limited",
      details: { email: REDACTED_EMAIL },
    });
    expect(await db.auditEvent.count({ where: { action: "auth.logged_in" } })).toBe(0);
  });

  it(`checks at most ${MAX} passwords when many wrong tries arrive at once`, async () => {
    await insertUser(db, { email: "ivan@example.com", password: PASSWORD });
    const burst = await Promise.allSettled(
      Array.from({ length: 10 }, (_, i) => login(limiter, "ivan@example.com", `guess ${i}`)),
    );
    const codes = burst.map((r) => (r.status === "rejected" ? (r.reason as GatewayError).code : "ok"));
    expect(codes.filter((c) => c === "unauthenticated").length).toBeLessThanOrEqual(MAX);
    expect(codes.filter((c) => c !== "unauthenticated" && c !== "rate_limited")).toEqual([]);
  });

  it("counts failures per e-mail: another account is not blocked", async () => {
    await insertUser(db, { email: "dave@example.com", password: PASSWORD });
    await insertUser(db, { email: "erin@example.com", password: PASSWORD });
    for (let i = 0; i < MAX; i++) await login(limiter, "dave@example.com", "wrong").catch(() => undefined);
    await expect(login(limiter, "dave@example.com", PASSWORD)).rejects.toMatchObject({ code: "rate_limited" });
    await expect(login(limiter, "erin@example.com", PASSWORD)).resolves.toMatchObject({ email: "erin@example.com" });
  });

  it("refuses an unknown e-mail as unauthenticated and counts it as a failure", async () => {
    const err = await rejection(login(limiter, "nobody@example.com", PASSWORD));
    expect(err.code).toBe("unauthenticated");
    expect(err.message).toBe("Wrong e-mail or password.");
    const [row] = await db.auditEvent.findMany({ where: { action: "auth.login_failed" } });
    expect(row?.details).toMatchObject({ email: REDACTED_EMAIL, reason: "unknown_user" });
    for (let i = 1; i < MAX; i++) await login(limiter, "nobody@example.com", PASSWORD).catch(() => undefined);
    await expect(login(limiter, "nobody@example.com", PASSWORD)).rejects.toMatchObject({ code: "rate_limited" });
  });

  it("gives a wrong password and an unknown e-mail the same answer", async () => {
    await insertUser(db, { email: "frank@example.com", password: PASSWORD });
    const wrong = await rejection(login(limiter, "frank@example.com", "nope"));
    const unknown = await rejection(login(limiter, "ghost@example.com", "nope"));
    expect([unknown.code, unknown.message]).toEqual([wrong.code, wrong.message]);
  });

  it("refuses a disabled user's right password as unauthenticated", async () => {
    await insertUser(db, { email: "gina@example.com", password: PASSWORD, disabled: true });
    const err = await rejection(login(limiter, "gina@example.com", PASSWORD));
    expect(err.code).toBe("unauthenticated");
    const [row] = await db.auditEvent.findMany({ where: { action: "auth.login_failed" } });
    expect(row?.details).toMatchObject({ reason: "disabled" });
  });

  it("shares the count between two processes' limiters through PostgreSQL", async () => {
    await insertUser(db, { email: "hank@example.com", password: PASSWORD });
    const other = createLoginLimiter(testDatabaseUrl(), { maxFailures: MAX, windowSeconds: WINDOW });
    extraLimiters.push(other);
    await login(limiter, "hank@example.com", "wrong").catch(() => undefined);
    await login(other, "hank@example.com", "wrong").catch(() => undefined);
    expect(await limiter.blockedFor("hank@example.com")).toBe(0);
    await login(limiter, "hank@example.com", "wrong").catch(() => undefined);
    expect(await other.blockedFor("hank@example.com")).toBeGreaterThan(0);
    await expect(login(other, "hank@example.com", PASSWORD)).rejects.toMatchObject({ code: "rate_limited" });
    const [row] = await db.rateLimit.findMany();
    // Every try takes a point up front, the refused one too.
    expect(row).toMatchObject({ key: "login:hank@example.com", points: MAX + 1 });
  });
});
