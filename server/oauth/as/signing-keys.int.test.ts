// The embedded authorization server's signing keys on real PostgreSQL: many processes' first start makes one
// key (the advisory lock), the private half is stored sealed (unreadable without the secrets key, bound to its
// kid), and a rotation keeps the retired key published only while its tokens may live.
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb, type Db } from "../../db/client";
import { SecretDecryptError, SecretKeyMismatchError, secretKey } from "../../secrets/secret-crypto";
import { insertUser, userContext } from "../../test/contexts";
import { createTestDb, testDatabaseUrl, truncateAll } from "../../test/test-db";
import { ensureSigningKey, privateJwks, publicJwks, rotateSigningKey } from "./signing-keys";

describe("OAuth signing keys", () => {
  const db = createTestDb();
  const key = secretKey(randomBytes(32));
  const others: Db[] = [];

  beforeAll(() => truncateAll(db));
  afterAll(async () => {
    for (const o of others) await o.$disconnect();
    await db.$disconnect();
  });

  it("twelve concurrent first starts on their own connections agree on one key", async () => {
    for (let i = 0; i < 12; i++) others.push(createDb(testDatabaseUrl(), { max: 1 }));
    await Promise.all(others.map((o) => ensureSigningKey(o, key)));
    const rows = await db.oAuthSigningKey.findMany();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.retiredAt).toBeNull();
  });

  it("stores the private key sealed: no private member in the row, another secrets key cannot open it, nor can another kid's name", async () => {
    const [row] = await db.oAuthSigningKey.findMany();
    expect(row!.publicJwk).not.toHaveProperty("d");
    expect(Buffer.from(row!.ciphertext).toString("utf8")).not.toContain('"d"');
    const [priv] = (await privateJwks(db, key, 600)).keys;
    expect(priv).toMatchObject({ kid: row!.kid, alg: "ES256", crv: "P-256" });
    expect(typeof priv!.d).toBe("string");
    await expect(privateJwks(db, secretKey(randomBytes(32)), 600)).rejects.toBeInstanceOf(SecretKeyMismatchError);
    // The kid is the additional data: a sealed key copied onto another kid's row does not open.
    await db.oAuthSigningKey.create({ data: { ...row!, kid: "copied", publicJwk: row!.publicJwk as object, createdAt: new Date(0) } });
    await expect(privateJwks(db, key, 600)).rejects.toBeInstanceOf(SecretDecryptError);
    await db.oAuthSigningKey.delete({ where: { kid: "copied" } });
  });

  it("rotation: the new key signs first, the retired one stays published until its tokens have expired, then goes", async () => {
    const admin = userContext(await insertUser(db, { role: "ADMIN" }));
    const [before] = (await publicJwks(db, 600)).keys;
    const { kid, retired } = await rotateSigningKey(db, admin, key);
    expect(retired).toEqual([before!.kid]);
    expect((await publicJwks(db, 600)).keys.map((k) => k.kid)).toEqual([kid, before!.kid]);
    // Retired longer ago than the longest access token lives: no longer published, and deleted.
    await db.oAuthSigningKey.update({ where: { kid: before!.kid }, data: { retiredAt: new Date(Date.now() - 601_000) } });
    expect((await publicJwks(db, 600)).keys.map((k) => k.kid)).toEqual([kid]);
    expect(await db.oAuthSigningKey.count()).toBe(1);
    expect(await db.auditEvent.count({ where: { action: "oauth.key_rotated", targetId: kid } })).toBe(1);
  });
});
