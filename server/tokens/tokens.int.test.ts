import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { authenticateApiToken } from "../auth/authenticate-api-token";
import { hashToken, mintToken, tokenKind } from "../auth/token-format";
import { systemContext } from "../context";
import { GatewayError } from "../errors";
import { insertUser, userContext } from "../test/contexts";
import { createTestDb, truncateAll } from "../test/test-db";
import { createApiToken } from "./create-api-token";
import { listApiTokens, revokeApiToken } from "./revoke-api-token";

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

async function userWithToken(opts: { role?: "ADMIN" | "APPROVER" | "USER"; expiresInDays?: number } = {}) {
  const user = await insertUser(db, { role: opts.role ?? "USER" });
  const created = await createApiToken(db, userContext(user), user.id, {
    name: "laptop",
    expiresInDays: opts.expiresInDays,
  });
  return { user, ...created };
}

describe("createApiToken", () => {
  it("returns a pct_ token once and stores only its SHA-256", async () => {
    const { user, token, apiToken } = await userWithToken({ expiresInDays: 30 });
    expect(tokenKind(token)).toBe("api");
    expect(apiToken).toMatchObject({ name: "laptop", prefix: token.slice(0, 10), lastUsedAt: null, revokedAt: null });
    expect(apiToken).not.toHaveProperty("tokenHash");
    const days = (Date.parse(apiToken.expiresAt!) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(29.9);
    expect(days).toBeLessThanOrEqual(30);

    const row = await db.apiToken.findUniqueOrThrow({ where: { id: apiToken.id } });
    expect(row.userId).toBe(user.id);
    expect(row.tokenHash).toBe(hashToken(token));
    // Nothing in the row (nor in the raw table) contains the secret part of the token.
    const secret = token.slice(10);
    expect(JSON.stringify(row)).not.toContain(secret);
    const raw = await db.$queryRaw<Record<string, unknown>[]>`SELECT * FROM api_tokens`;
    expect(JSON.stringify(raw, (_k, v: unknown) => (typeof v === "bigint" ? String(v) : v))).not.toContain(secret);

    const [audit] = await db.auditEvent.findMany({ where: { action: "api_token.created" } });
    expect(audit).toMatchObject({ targetId: apiToken.id, userId: user.id });
    expect(JSON.stringify(audit?.details)).not.toContain(secret);
  });

  it("creates a token without expiry when no lifetime is given", async () => {
    const user = await insertUser(db);
    const { apiToken } = await createApiToken(db, userContext(user), user.id, { name: "ci" });
    expect(apiToken.expiresAt).toBeNull();
  });
});

describe("authenticateApiToken", () => {
  it("resolves a valid token to its user and records when it was used", async () => {
    const { user, token, apiToken } = await userWithToken();
    const before = Date.now();
    const who = await authenticateApiToken(db, token);
    expect(who.id).toBe(user.id);
    const row = await db.apiToken.findUniqueOrThrow({ where: { id: apiToken.id } });
    expect(row.lastUsedAt).not.toBeNull();
    expect(row.lastUsedAt!.getTime()).toBeGreaterThanOrEqual(before - 1000);
  });

  it("refuses a revoked token (revoked)", async () => {
    const { user, token, apiToken } = await userWithToken();
    await revokeApiToken(db, userContext(user), apiToken.id);
    const err = await rejection(authenticateApiToken(db, token));
    expect(err.code).toBe("invalid_token");
    expect(err.status).toBe(401);
    expect(err.message).toMatch(/revoked/);
  });

  it("refuses an expired token (expired)", async () => {
    const { token, apiToken } = await userWithToken({ expiresInDays: 1 });
    await db.apiToken.update({ where: { id: apiToken.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const err = await rejection(authenticateApiToken(db, token));
    expect(err.code).toBe("invalid_token");
    expect(err.message).toMatch(/expired/);
  });

  it("refuses a well-formed token it never issued (unknown)", async () => {
    await userWithToken();
    const err = await rejection(authenticateApiToken(db, mintToken("api").token));
    expect(err.code).toBe("invalid_token");
    expect(err.message).toMatch(/unknown/);
  });

  it.each([
    ["garbage", "hello"],
    ["an agent session token", () => mintToken("agent").token],
    ["a token with the Bearer scheme left in", (t: string) => `Bearer ${t}`],
    ["a truncated token", (t: string) => t.slice(0, -1)],
  ])("refuses %s as malformed", async (_label, make) => {
    const { token } = await userWithToken();
    const text = typeof make === "string" ? make : make(token);
    const err = await rejection(authenticateApiToken(db, text));
    expect(err.code).toBe("invalid_token");
    expect(err.message).toMatch(/malformed/);
  });

  it("refuses the token of a disabled user", async () => {
    const { user, token } = await userWithToken();
    await db.user.update({ where: { id: user.id }, data: { disabled: true } });
    const err = await rejection(authenticateApiToken(db, token));
    expect(err.code).toBe("invalid_token");
    expect(err.message).toMatch(/disabled/);
  });
});

describe("revokeApiToken", () => {
  it("revokes by the printed prefix, audits it, and is harmless the second time", async () => {
    const { user, token, apiToken } = await userWithToken();
    const revoked = await revokeApiToken(db, userContext(user), apiToken.prefix);
    expect(revoked.id).toBe(apiToken.id);
    expect(revoked.revokedAt).not.toBeNull();
    const again = await revokeApiToken(db, userContext(user), token.slice(0, 10));
    expect(again.revokedAt).toBe(revoked.revokedAt);
    expect(await db.auditEvent.count({ where: { action: "api_token.revoked", targetId: apiToken.id } })).toBe(1);
  });

  it("forbids a USER from revoking another user's token", async () => {
    const { apiToken } = await userWithToken();
    const mallory = await insertUser(db, { role: "USER" });
    const err = await rejection(revokeApiToken(db, userContext(mallory), apiToken.id));
    expect(err.code).toBe("forbidden");
    expect((await db.apiToken.findUniqueOrThrow({ where: { id: apiToken.id } })).revokedAt).toBeNull();
  });

  it.each([
    ["an ADMIN", (adminId: string, email: string) => userContext({ id: adminId, email, role: "ADMIN" })],
    ["the CLI (system actor)", () => systemContext("cli")],
  ])("lets %s revoke anyone's token", async (_label, ctxOf) => {
    const { token, apiToken } = await userWithToken();
    const admin = await insertUser(db, { role: "ADMIN" });
    await revokeApiToken(db, ctxOf(admin.id, admin.email), apiToken.id);
    await expect(authenticateApiToken(db, token)).rejects.toMatchObject({ code: "invalid_token" });
  });

  it("answers not_found for an unknown id or prefix", async () => {
    const { user } = await userWithToken();
    const err = await rejection(revokeApiToken(db, userContext(user), "pct_nope00"));
    expect(err.code).toBe("not_found");
  });

  it("lists only the caller's tokens, newest first", async () => {
    const { user, apiToken: first } = await userWithToken();
    await userWithToken();
    const { apiToken: second } = await createApiToken(db, userContext(user), user.id, { name: "second" });
    expect((await listApiTokens(db, user.id)).map((t) => t.id)).toEqual([second.id, first.id]);
  });
});
