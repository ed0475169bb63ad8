// The admin CLI as an operator runs it: a child process against the run's PostgreSQL (DATABASE_URL), and
// once without DATABASE_URL, where it starts and stops a temporary embedded PostgreSQL on DATA_DIR.
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLoginLimiter } from "../server/auth/login-limiter";
import { verifyPassword } from "../server/auth/password";
import { createTestDb, testDatabaseUrl, truncateAll } from "../server/test/test-db";
import { findProcesses } from "./test-support/find-processes";
import { lastLine, runCli, type CliResult } from "./test-support/run-cli";
import { makeTempDir, removeTempDirs } from "./test-support/temp-dir";

/** A refused command: the message on stderr, then exit code 1 (in that order, so a wrong code shows the message). */
function expectRefused(res: CliResult, message: string | RegExp) {
  if (typeof message === "string") expect(res.stderr).toContain(message);
  else expect(res.stderr).toMatch(message);
  expect(res.code, `exit code (stderr: ${res.stderr.trim()})`).toBe(1);
}

describe("portcullis CLI", () => {
  const db = createTestDb();
  const cli = (args: string[]) => runCli(args, { env: { DATABASE_URL: testDatabaseUrl() } });

  beforeAll(() => truncateAll(db));
  afterAll(async () => {
    await db.$disconnect();
    await removeTempDirs();
  });

  it("--help lists start, migrate, user and token", async () => {
    const res = await runCli(["--help"]);
    expect(res.code).toBe(0);
    for (const command of ["start", "migrate", "user", "token"])
      expect(res.stdout).toMatch(new RegExp(`^\\s+${command}\\b`, "m"));
  });

  it("migrate – exits 0 when the database is up to date", async () => {
    const res = await cli(["migrate"]);
    expect(res.stderr).toBe("");
    expect(res.code).toBe(0);
  });

  it("user create – prints a generated password once; the user is stored lower-cased with its role", async () => {
    const res = await cli(["user", "create", "--email", "Alice@Example.COM", "--role", "APPROVER", "--name", "Alice"]);
    expect(res.stderr).toBe("");
    expect(res.code).toBe(0);
    const password = /^Password \(shown once\): (\S+)$/m.exec(res.stdout)?.[1];
    expect(password).toBeDefined();
    expect(res.stdout).toMatch(/Created APPROVER alice@example\.com \(id \w+\)\./);

    const user = await db.user.findUnique({ where: { email: "alice@example.com" } });
    expect(user).toMatchObject({ email: "alice@example.com", role: "APPROVER", name: "Alice", disabled: false });
    expect(user!.passwordHash).not.toContain(password!);
    expect(await verifyPassword(password!, user!.passwordHash)).toBe(true);
    expect(await verifyPassword("not-the-password", user!.passwordHash)).toBe(false);
  });

  it("user create – --password is used as given and no password is printed", async () => {
    const res = await cli(["user", "create", "--email", "bob@example.com", "--password", "correct horse battery"]);
    expect(res.code).toBe(0);
    expect(res.stdout).not.toContain("Password (shown once)");
    const user = await db.user.findUniqueOrThrow({ where: { email: "bob@example.com" } });
    expect(user.role).toBe("USER");
    expect(await verifyPassword("correct horse battery", user.passwordHash)).toBe(true);
  });

  it("user create – a duplicate e-mail (any case) exits 1 with 'already exists'", async () => {
    const res = await cli(["user", "create", "--email", "ALICE@example.com"]);
    expectRefused(res, /^portcullis: .*already exists/m);
    expect(await db.user.count({ where: { email: "alice@example.com" } })).toBe(1);
  });

  it("user create – an unknown role exits 1 with commander's list of choices", async () => {
    const res = await cli(["user", "create", "--email", "carol@example.com", "--role", "ROOT"]);
    expectRefused(res, "argument 'ROOT' is invalid. Allowed choices are ADMIN, APPROVER, USER.");
    expect(await db.user.findUnique({ where: { email: "carol@example.com" } })).toBeNull();
  });

  it("user create – an invalid e-mail exits 1 naming the email field", async () => {
    const res = await cli(["user", "create", "--email", "not-an-email"]);
    expectRefused(res, /^portcullis: email: /m);
    expect(await db.user.count()).toBe(2);
  });

  it("user create – a password under 8 characters exits 1 naming the password field", async () => {
    const res = await cli(["user", "create", "--email", "dave@example.com", "--password", "short"]);
    expectRefused(res, /^portcullis: password: /m);
  });

  it("user list – lists every user with role and e-mail", async () => {
    const res = await cli(["user", "list"]);
    expect(res.code).toBe(0);
    const lines = res.stdout.trim().split("\n");
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^\w+\s+APPROVER\s+alice@example\.com$/);
    expect(lines[1]).toMatch(/^\w+\s+USER\s+bob@example\.com$/);
  });

  it("user set-role – changes the role (e-mail matched case-insensitively)", async () => {
    const res = await cli(["user", "set-role", "--email", "BOB@example.com", "--role", "ADMIN"]);
    expect(res.stderr).toBe("");
    expect(res.code).toBe(0);
    expect(res.stdout).toContain("bob@example.com is now ADMIN.");
    expect((await db.user.findUniqueOrThrow({ where: { email: "bob@example.com" } })).role).toBe("ADMIN");
  });

  it("user set-role – an unknown e-mail exits 1 with 'No user'", async () => {
    const res = await cli(["user", "set-role", "--email", "nobody@example.com", "--role", "USER"]);
    expectRefused(res, "portcullis: No user with e-mail nobody@example.com.");
  });

  it("user set-password – prints a generated password once, clears the failed sign-ins, and the old password stops working", async () => {
    const limiter = createLoginLimiter(testDatabaseUrl(), { maxFailures: 2, windowSeconds: 600 });
    try {
      for (let i = 0; i < 2; i++) await limiter.take("bob@example.com");
      expect(await limiter.blockedFor("bob@example.com")).toBeGreaterThan(0);
      const res = await cli(["user", "set-password", "--email", "BOB@example.com"]);
      expect(res.stderr).toBe("");
      expect(res.code).toBe(0);
      expect(res.stdout).toContain("Set the password of bob@example.com");
      const password = /^Password \(shown once\): (\S+)$/m.exec(res.stdout)?.[1];
      expect(password).toBeDefined();
      const row = await db.user.findUniqueOrThrow({ where: { email: "bob@example.com" } });
      expect(await verifyPassword(password!, row.passwordHash)).toBe(true);
      expect(await verifyPassword("correct horse battery", row.passwordHash)).toBe(false);
      expect(await limiter.blockedFor("bob@example.com")).toBe(0);
      expect(await db.auditEvent.count({ where: { action: "user.password_reset", targetId: row.id } })).toBe(1);
    } finally {
      await limiter.close();
    }
  });

  it("user set-password --password – uses it as given and prints no password; a short one exits 1 naming the field", async () => {
    const res = await cli(["user", "set-password", "--email", "bob@example.com", "--password", "correct horse battery"]);
    expect(res.code).toBe(0);
    expect(res.stdout).not.toContain("shown once");
    const row = await db.user.findUniqueOrThrow({ where: { email: "bob@example.com" } });
    expect(await verifyPassword("correct horse battery", row.passwordHash)).toBe(true);
    expectRefused(await cli(["user", "set-password", "--email", "bob@example.com", "--password", "short"]), /password: must have at least 8 characters/);
  });

  it("user set-password – an unknown e-mail exits 1 with 'No user'", async () => {
    const res = await cli(["user", "set-password", "--email", "nobody@example.com"]);
    expectRefused(res, "portcullis: No user with e-mail nobody@example.com.");
  });

  let tokenPrefix = "";

  it("token create – prints a pct_ token on the last line; only its SHA-256 is stored", async () => {
    const res = await cli(["token", "create", "--email", "alice@example.com", "--name", "laptop"]);
    expect(res.stderr).toBe("");
    expect(res.code).toBe(0);
    const token = lastLine(res.stdout);
    expect(token).toMatch(/^pct_[A-Za-z0-9_-]{32}$/);

    const alice = await db.user.findUniqueOrThrow({ where: { email: "alice@example.com" } });
    const rows = await db.apiToken.findMany({ where: { userId: alice.id } });
    expect(rows).toHaveLength(1);
    const row = rows[0]!;
    expect(row.tokenHash).toBe(createHash("sha256").update(token).digest("hex"));
    expect(row.tokenHash).not.toBe(token);
    expect(JSON.stringify(row)).not.toContain(token);
    expect(row).toMatchObject({ name: "laptop", prefix: token.slice(0, 10), revokedAt: null, expiresAt: null });
    tokenPrefix = row.prefix;
  });

  it("token create --expires-days – sets the expiry; a bad value exits 1", { timeout: 120_000 }, async () => {
    const res = await cli([
      "token",
      "create",
      "--email",
      "alice@example.com",
      "--name",
      "short-lived",
      "--expires-days",
      "7",
    ]);
    expect(res.code).toBe(0);
    const row = await db.apiToken.findFirstOrThrow({ where: { name: "short-lived" } });
    const days = (row.expiresAt!.getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.9);
    expect(days).toBeLessThanOrEqual(7);

    const bad = await cli(["token", "create", "--email", "alice@example.com", "--expires-days", "0"]);
    expectRefused(bad, "--expires-days");
  });

  it("token create – an unknown e-mail exits 1 with 'No user'", async () => {
    const res = await cli(["token", "create", "--email", "nobody@example.com"]);
    expectRefused(res, "portcullis: No user with e-mail nobody@example.com.");
  });

  it("token revoke <prefix> – sets revokedAt", async () => {
    const res = await cli(["token", "revoke", tokenPrefix]);
    expect(res.stderr).toBe("");
    expect(res.code).toBe(0);
    expect(res.stdout).toContain(`(${tokenPrefix}…)`);
    const row = await db.apiToken.findFirstOrThrow({ where: { prefix: tokenPrefix } });
    expect(row.revokedAt).toBeInstanceOf(Date);
  });

  it("token revoke – an unknown id exits 1", async () => {
    const res = await cli(["token", "revoke", "pct_nothere"]);
    expectRefused(res, /^portcullis: .*not found/m);
  });

  it("token list – lists the user's tokens with their state", async () => {
    const res = await cli(["token", "list", "--email", "alice@example.com"]);
    expect(res.code).toBe(0);
    const lines = res.stdout.trim().split("\n");
    expect(lines).toHaveLength(2);
    expect(lines.find((l) => l.includes(tokenPrefix))).toMatch(/\blaptop\s+revoked$/);
    expect(lines.find((l) => l.includes("short-lived"))).toMatch(/expires \S+/);
    expect(res.stdout).not.toMatch(/pct_[A-Za-z0-9_-]{32}/);
  });

  it("token list – an unknown e-mail exits 1 with 'No user'", async () => {
    const res = await cli(["token", "list", "--email", "nobody@example.com"]);
    expectRefused(res, "No user with e-mail nobody@example.com.");
  });

  it("user create – three commands at the same time all succeed", { timeout: 120_000 }, async () => {
    const emails = ["p1@example.com", "p2@example.com", "p3@example.com"];
    const results = await Promise.all(emails.map((email) => cli(["user", "create", "--email", email])));
    expect(results.map((r) => r.stderr.trim())).toEqual(["", "", ""]);
    expect(results.map((r) => r.code)).toEqual([0, 0, 0]);
    expect(await db.user.count({ where: { email: { in: emails } } })).toBe(3);
  });

  it("without DATABASE_URL – starts a temporary embedded PostgreSQL on DATA_DIR, migrates, and stops it", async () => {
    const dataDir = await makeTempDir("cli");
    const env = { DATA_DIR: dataDir };
    const created = await runCli(["user", "create", "--email", "eve@example.com", "--role", "ADMIN"], {
      env,
      timeoutMs: 120_000,
    });
    expect(created.stderr).toBe("");
    expect(created.code).toBe(0);
    expect(created.stdout).toMatch(/^Applied migrations: /m);
    expect(created.stdout).toContain("Created ADMIN eve@example.com");
    expect(created.stdout).toMatch(/^Password \(shown once\): \S+$/m);

    const pgDir = path.join(dataDir, "pg");
    expect(existsSync(path.join(pgDir, "PG_VERSION"))).toBe(true);
    expect(findProcesses(pgDir)).toEqual([]);
    expect(existsSync(path.join(pgDir, "postmaster.pid"))).toBe(false);
    expect(existsSync(path.join(dataDir, "portcullis.pid"))).toBe(false);
    expect(existsSync(path.join(dataDir, "database-url"))).toBe(false);

    // A second run starts the same cluster again: the user is still there, and nothing is migrated twice.
    const listed = await runCli(["user", "list"], { env, timeoutMs: 120_000 });
    expect(listed.code).toBe(0);
    expect(listed.stdout).not.toContain("Applied migrations");
    expect(listed.stdout).toMatch(/^\w+\s+ADMIN\s+eve@example\.com$/m);
    expect(findProcesses(pgDir)).toEqual([]);
    expect(existsSync(path.join(dataDir, "portcullis.pid"))).toBe(false);
  }, 240_000);
});
