import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { verifyPassword } from "../auth/password";
import { systemContext } from "../context";
import { GatewayError } from "../errors";
import { userContext, insertUser } from "../test/contexts";
import { createTestDb, truncateAll } from "../test/test-db";
import { createUser } from "./create-user";
import { ensureAdmin } from "./ensure-admin";
import { listUsers } from "./list-users";
import { updateUser } from "./update-user";

const db = createTestDb();
beforeEach(() => truncateAll(db));
afterAll(() => db.$disconnect());

async function rejection(p: Promise<unknown>): Promise<GatewayError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(GatewayError);
  return err as GatewayError;
}

describe("createUser", () => {
  it("generates a password, returns it once, stores only a hash that verifies, and audits user.created", async () => {
    const admin = await insertUser(db, { role: "ADMIN" });
    const ctx = userContext(admin);
    const res = await createUser(db, ctx, { email: "  New.Person@Example.com ", name: "New Person" });

    expect(res.user).toMatchObject({
      email: "new.person@example.com",
      name: "New Person",
      role: "USER",
      disabled: false,
      lastLoginAt: null,
    });
    expect(res.user).not.toHaveProperty("passwordHash");
    expect(res.generatedPassword).toMatch(/^.{8,}$/);

    const row = await db.user.findUniqueOrThrow({ where: { id: res.user.id } });
    expect(row.passwordHash).not.toContain(res.generatedPassword!);
    expect(await verifyPassword(res.generatedPassword!, row.passwordHash)).toBe(true);

    const audit = await db.auditEvent.findMany({ where: { action: "user.created" } });
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      targetType: "user",
      targetId: res.user.id,
      userId: admin.id,
      actorType: "user",
      requestId: ctx.requestId,
      status: "ok",
      // Personal data is redacted in the audit log (targetId names the user).
      details: { email: expect.stringMatching(/^\[email(:[0-9a-f]{10})?\]$/) as string, role: "USER" },
    });
    expect(JSON.stringify(audit[0]!.details)).not.toContain(res.generatedPassword!);
  });

  it("uses a given password and returns no generated one", async () => {
    const res = await createUser(db, systemContext("test"), {
      email: "given@example.com",
      password: "a given password",
      role: "APPROVER",
    });
    expect(res.generatedPassword).toBeUndefined();
    expect(res).not.toHaveProperty("generatedPassword");
    const row = await db.user.findUniqueOrThrow({ where: { id: res.user.id } });
    expect(row.role).toBe("APPROVER");
    expect(await verifyPassword("a given password", row.passwordHash)).toBe(true);
  });

  it("rejects a duplicate e-mail (whatever its case) with conflict and writes nothing", async () => {
    await createUser(db, systemContext("test"), { email: "dup@example.com" });
    const err = await rejection(createUser(db, systemContext("test"), { email: "DUP@example.com" }));
    expect(err.code).toBe("conflict");
    expect(err.status).toBe(409);
    expect(await db.user.count()).toBe(1);
    expect(await db.auditEvent.count({ where: { action: "user.created" } })).toBe(1);
  });
});

describe("updateUser", () => {
  it("changes a role and audits user.role_changed with from and to", async () => {
    const admin = await insertUser(db, { role: "ADMIN" });
    const user = await insertUser(db, { role: "USER" });
    const after = await updateUser(db, userContext(admin), user.id, { role: "APPROVER" });
    expect(after.role).toBe("APPROVER");
    expect((await db.user.findUniqueOrThrow({ where: { id: user.id } })).role).toBe("APPROVER");
    const [audit] = await db.auditEvent.findMany({ where: { action: "user.role_changed" } });
    expect(audit).toMatchObject({
      targetId: user.id,
      userId: admin.id,
      details: { changes: { role: { from: "USER", to: "APPROVER" } } },
    });
  });

  it("audits other changes as user.updated without the password", async () => {
    const admin = await insertUser(db, { role: "ADMIN" });
    const user = await insertUser(db);
    await updateUser(db, userContext(admin), user.id, { name: "Renamed", password: "brand new password" });
    const row = await db.user.findUniqueOrThrow({ where: { id: user.id } });
    expect(await verifyPassword("brand new password", row.passwordHash)).toBe(true);
    const [audit] = await db.auditEvent.findMany({ where: { targetId: user.id } });
    expect(audit?.action).toBe("user.updated");
    expect(JSON.stringify(audit?.details)).not.toContain("brand new password");
  });

  it.each([
    ["demoted to USER", { role: "USER" as const }],
    ["demoted to APPROVER", { role: "APPROVER" as const }],
    ["disabled", { disabled: true }],
  ])("refuses to leave no active admin: the last admin cannot be %s", async (_label, patch) => {
    const admin = await insertUser(db, { role: "ADMIN" });
    await insertUser(db, { role: "ADMIN", disabled: true }); // a disabled admin does not count
    const err = await rejection(updateUser(db, systemContext("test"), admin.id, patch));
    expect(err.code).toBe("conflict");
    expect(err.message).toMatch(/last active admin/);
    expect(await db.user.findUniqueOrThrow({ where: { id: admin.id } })).toMatchObject({
      role: "ADMIN",
      disabled: false,
    });
    expect(await db.auditEvent.count()).toBe(0);
  });

  it("lets an admin be demoted once another active admin exists", async () => {
    const a = await insertUser(db, { role: "ADMIN" });
    const b = await insertUser(db, { role: "ADMIN" });
    await expect(updateUser(db, userContext(b), a.id, { role: "USER" })).resolves.toMatchObject({ role: "USER" });
    const err = await rejection(updateUser(db, systemContext("test"), b.id, { role: "USER" }));
    expect(err.code).toBe("conflict");
  });

  it("keeps one active admin when two admins are demoted at the same time", async () => {
    for (let round = 0; round < 5; round++) {
      await truncateAll(db);
      const a = await insertUser(db, { role: "ADMIN" });
      const b = await insertUser(db, { role: "ADMIN" });
      const results = await Promise.allSettled([
        updateUser(db, systemContext("test"), a.id, { role: "USER" }),
        updateUser(db, systemContext("test"), b.id, { role: "USER" }),
      ]);
      expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
      expect(await db.user.count({ where: { role: "ADMIN", disabled: false } })).toBe(1);
    }
  });

  it("refuses to let a user disable their own account", async () => {
    const a = await insertUser(db, { role: "ADMIN" });
    await insertUser(db, { role: "ADMIN" });
    const err = await rejection(updateUser(db, userContext(a), a.id, { disabled: true }));
    expect(err.code).toBe("conflict");
    expect(err.message).toMatch(/your own account/);
    expect((await db.user.findUniqueOrThrow({ where: { id: a.id } })).disabled).toBe(false);
  });

  it("answers not_found for an unknown id", async () => {
    const err = await rejection(updateUser(db, systemContext("test"), "no-such-user", { name: "x" }));
    expect(err.code).toBe("not_found");
  });
});

describe("ensureAdmin", () => {
  it("creates an admin with the given e-mail and password once, then reports that one exists", async () => {
    const first = await ensureAdmin(db, { email: "Root@Example.com", password: "admin password" });
    expect(first).toEqual({ kind: "created", email: "root@example.com" });
    const row = await db.user.findUniqueOrThrow({ where: { email: "root@example.com" } });
    expect(row.role).toBe("ADMIN");
    expect(await verifyPassword("admin password", row.passwordHash)).toBe(true);

    expect(await ensureAdmin(db, { email: "other@example.com", password: "another password" })).toEqual({
      kind: "exists",
    });
    expect(await db.user.count()).toBe(1);
  });

  it("processes starting together (here eight at once, with different e-mails) make exactly one admin, and none fails", async () => {
    const results = await Promise.all(Array.from({ length: 8 }, (_, i) => ensureAdmin(db, { email: `root${String(i)}@example.com`, password: "admin password" })));
    expect(results.filter((r) => r.kind === "created")).toHaveLength(1);
    expect(results.filter((r) => r.kind === "exists")).toHaveLength(7);
    expect(await db.user.count({ where: { role: "ADMIN" } })).toBe(1);
  });

  it("generates a password for the default e-mail when none is given", async () => {
    const res = await ensureAdmin(db, {});
    expect(res.kind).toBe("created");
    if (res.kind !== "created") return;
    expect(res.email).toBe("admin@portcullis.local");
    expect(res.generatedPassword).toBeTruthy();
    const row = await db.user.findUniqueOrThrow({ where: { email: res.email } });
    expect(await verifyPassword(res.generatedPassword!, row.passwordHash)).toBe(true);
    expect(await ensureAdmin(db, {})).toEqual({ kind: "exists" });
  });

  it("does nothing when an admin already exists, even a different one", async () => {
    await insertUser(db, { role: "ADMIN", email: "existing@example.com" });
    expect(await ensureAdmin(db, { email: "new@example.com" })).toEqual({ kind: "exists" });
    expect(await db.user.findUnique({ where: { email: "new@example.com" } })).toBeNull();
  });
});

describe("listUsers with a search", () => {
  it("finds users whose e-mail or name contains the text in any case, and treats % and _ as plain characters", async () => {
    const ada = await db.user.create({ data: { email: "ada.lovelace@example.test", name: "Ada L", role: "USER", passwordHash: "x" } });
    const bob = await db.user.create({ data: { email: "bob@example.test", name: "Robert Adams", role: "USER", passwordHash: "x" } });
    const odd = await db.user.create({ data: { email: "100%_sure@example.test", role: "USER", passwordHash: "x" } });
    await db.user.create({ data: { email: "carol@example.test", role: "USER", passwordHash: "x" } });

    const emails = async (q: string) => (await listUsers(db, { limit: 50, q })).items.map((u) => u.email);
    expect(await emails("ADA")).toEqual([ada.email, bob.email]);
    expect(await emails("lovelace@")).toEqual([ada.email]);
    expect(await emails("%")).toEqual([odd.email]);
    expect(await emails("_s")).toEqual([odd.email]);
    expect(await emails("\\")).toEqual([]);
    expect(await emails("nobody")).toEqual([]);
  });

  it("pages through the matches only", async () => {
    for (let i = 0; i < 5; i++) await insertUser(db, { email: `match-${String(i)}@example.test` });
    await insertUser(db, { email: "other@example.test" });
    const first = await listUsers(db, { limit: 3, q: "match-" });
    expect(first.items.map((u) => u.email)).toEqual(["match-0@example.test", "match-1@example.test", "match-2@example.test"]);
    const second = await listUsers(db, { limit: 3, q: "match-", cursor: first.nextCursor ?? "" });
    expect(second.items.map((u) => u.email)).toEqual(["match-3@example.test", "match-4@example.test"]);
    expect(second.nextCursor).toBeNull();
  });
});
