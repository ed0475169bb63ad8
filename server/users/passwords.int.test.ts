// Password change by its owner and reset by an admin: the hash, the audit row, the sign-in limiter and the
// row lock that lets only one of two racing changes with the same current password through.
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { createLoginLimiter, type LoginLimiter } from "../auth/login-limiter";
import { verifyPassword } from "../auth/password";
import { passwordStamp } from "../auth/password-stamp";
import { verifyCredentials } from "../auth/verify-credentials";
import type { GatewayError } from "../errors";
import { insertUser, userContext } from "../test/contexts";
import { gatewayRejection } from "../test/gateway-rejection";
import { createTestDb, testDatabaseUrl, truncateAll } from "../test/test-db";
import { changeOwnPassword } from "./change-own-password";
import { resetPassword } from "./reset-password";

const MAX = 3;
const OLD = "the old password";
const db = createTestDb();
let limiter: LoginLimiter;

beforeEach(async () => {
  await truncateAll(db);
  limiter = createLoginLimiter(testDatabaseUrl(), { maxFailures: MAX, windowSeconds: 600 });
});
afterEach(() => limiter.close());
afterAll(() => db.$disconnect());

const hashOf = async (id: string) => (await db.user.findUniqueOrThrow({ where: { id } })).passwordHash;

describe("changeOwnPassword", () => {
  it("stores the new password, audits user.password_changed without it, and changes the session stamp", async () => {
    const user = await insertUser(db, { password: OLD });
    const ctx = userContext(user);
    const res = await changeOwnPassword(db, limiter, ctx, user.id, { currentPassword: OLD, newPassword: "a new password" });
    expect(res).toMatchObject({ id: user.id, email: user.email });
    const hash = await hashOf(user.id);
    expect(await verifyPassword("a new password", hash)).toBe(true);
    expect(await verifyPassword(OLD, hash)).toBe(false);
    expect(passwordStamp(hash)).not.toBe(passwordStamp(user.passwordHash));
    const audit = await db.auditEvent.findMany({ where: { action: "user.password_changed" } });
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ targetId: user.id, userId: user.id, category: "security", status: "ok", requestId: ctx.requestId });
    expect(JSON.stringify(audit[0]!.details)).not.toContain("a new password");
  });

  it("refuses a wrong current password with validation_failed naming currentPassword, keeps the old one, and counts a failed try", async () => {
    const user = await insertUser(db, { password: OLD });
    const err = await gatewayRejection(changeOwnPassword(db, limiter, userContext(user), user.id, { currentPassword: "wrong one", newPassword: "a new password" }));
    expect(err.code).toBe("validation_failed");
    expect(err.details).toEqual([{ path: "currentPassword", message: "is not your current password" }]);
    expect(await verifyPassword(OLD, await hashOf(user.id))).toBe(true);
    expect(await db.auditEvent.count({ where: { action: "user.password_changed" } })).toBe(0);
    // MAX - 1 tries are left: two more wrong ones and the limit holds even for the right password.
    for (let i = 1; i < MAX; i++) await gatewayRejection(changeOwnPassword(db, limiter, userContext(user), user.id, { currentPassword: `wrong ${i}`, newPassword: "a new password" }));
    const blocked = await gatewayRejection(changeOwnPassword(db, limiter, userContext(user), user.id, { currentPassword: OLD, newPassword: "a new password" }));
    expect(blocked.code).toBe("rate_limited");
    expect(blocked.retryAfterSeconds).toBeGreaterThan(0);
  });

  it("refuses a new password shorter than 8 characters before touching anything", async () => {
    const user = await insertUser(db, { password: OLD });
    await expect(changeOwnPassword(db, limiter, userContext(user), user.id, { currentPassword: OLD, newPassword: "short" })).rejects.toThrow(/at least 8/);
    expect(await limiter.blockedFor(user.email)).toBe(0);
    expect(await verifyPassword(OLD, await hashOf(user.id))).toBe(true);
  });

  it("lets exactly one of eight concurrent changes with the same current password through", async () => {
    const user = await insertUser(db, { password: OLD });
    const big = createLoginLimiter(testDatabaseUrl(), { maxFailures: 100, windowSeconds: 600 });
    try {
      const results = await Promise.allSettled(
        Array.from({ length: 8 }, (_, i) => changeOwnPassword(db, big, userContext(user), user.id, { currentPassword: OLD, newPassword: `new password ${i}` })),
      );
      const won = results.flatMap((r, i) => (r.status === "fulfilled" ? [i] : []));
      expect(won).toHaveLength(1);
      for (const r of results) if (r.status === "rejected") expect((r.reason as GatewayError).code).toBe("validation_failed");
      expect(await verifyPassword(`new password ${won[0]}`, await hashOf(user.id))).toBe(true);
      expect(await db.auditEvent.count({ where: { action: "user.password_changed" } })).toBe(1);
    } finally {
      await big.close();
    }
  });
});

describe("resetPassword", () => {
  it("generates a password returned once, audits user.password_reset, and clears the user's failed sign-ins", async () => {
    const admin = await insertUser(db, { role: "ADMIN" });
    const user = await insertUser(db, { password: OLD });
    for (let i = 0; i < MAX; i++) await gatewayRejection(verifyCredentials(db, limiter, { email: user.email, password: "wrong" }));
    expect(await limiter.blockedFor(user.email)).toBeGreaterThan(0);

    const res = await resetPassword(db, limiter, userContext(admin), user.id, {});
    expect(res.user.id).toBe(user.id);
    expect(res.generatedPassword).toMatch(/^.{8,}$/);
    expect(await limiter.blockedFor(user.email)).toBe(0);
    expect((await verifyCredentials(db, limiter, { email: user.email, password: res.generatedPassword! })).id).toBe(user.id);
    const audit = await db.auditEvent.findMany({ where: { action: "user.password_reset" } });
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ targetId: user.id, userId: admin.id, category: "security" });
    expect(JSON.stringify(audit[0]!.details)).not.toContain(res.generatedPassword!);
  });

  it("uses a given password and returns none", async () => {
    const admin = await insertUser(db, { role: "ADMIN" });
    const user = await insertUser(db, { password: OLD });
    const res = await resetPassword(db, limiter, userContext(admin), user.id, { password: "chosen by admin" });
    expect(res.generatedPassword).toBeUndefined();
    expect(await verifyPassword("chosen by admin", await hashOf(user.id))).toBe(true);
  });

  it("answers not_found for an unknown user and writes nothing", async () => {
    const admin = await insertUser(db, { role: "ADMIN" });
    const err = await gatewayRejection(resetPassword(db, limiter, userContext(admin), "no-such-user", {}));
    expect(err.code).toBe("not_found");
    expect(await db.auditEvent.count({ where: { action: "user.password_reset" } })).toBe(0);
  });
});
