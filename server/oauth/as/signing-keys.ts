// The embedded authorization server's signing keys: ES256 key pairs made on first start, their private half
// sealed with the secrets key (the cipher of stored upstream secrets, secret-crypto.ts) and stored in
// `oauth_signing_keys`. Creation and rotation hold an advisory lock, so two processes starting together agree
// on one key. The newest unretired key signs; a retired key stays published until its tokens have expired.
import { randomUUID } from "node:crypto";
import { exportJWK, generateKeyPair, type JWK } from "jose";
import { recordAudit } from "../../audit/record-audit";
import type { RequestContext } from "../../context";
import type { Db, DbTx } from "../../db/client";
import { decryptSecret, encryptSecret, type SecretKey } from "../../secrets/secret-crypto";

export const SIGNING_ALG = "ES256";
const LOCK = "oauth-signing-keys";

type KeyRow = { kid: string; publicJwk: unknown; ciphertext: Uint8Array; iv: Uint8Array; authTag: Uint8Array; keyId: string; createdAt: Date; retiredAt: Date | null };

const sealName = (kid: string) => `oauth-signing-key:${kid}`;

async function createKey(tx: DbTx, secret: SecretKey): Promise<string> {
  const kid = randomUUID();
  const { publicKey, privateKey } = await generateKeyPair(SIGNING_ALG, { extractable: true });
  const publicJwk = { ...(await exportJWK(publicKey)), kid, alg: SIGNING_ALG, use: "sig" };
  const sealed = encryptSecret(secret, sealName(kid), JSON.stringify({ ...(await exportJWK(privateKey)), kid, alg: SIGNING_ALG, use: "sig" }));
  await tx.oAuthSigningKey.create({
    data: { kid, publicJwk, ciphertext: new Uint8Array(sealed.ciphertext), iv: new Uint8Array(sealed.iv), authTag: new Uint8Array(sealed.authTag), keyId: sealed.keyId },
  });
  return kid;
}

const lock = (tx: DbTx) => tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${LOCK}, 0))`;

/** Makes the first key when there is none; every process calls this at start and all end up with the same key. */
export async function ensureSigningKey(db: Db, secret: SecretKey): Promise<void> {
  if (await db.oAuthSigningKey.findFirst({ where: { retiredAt: null }, select: { kid: true } })) return;
  await db.$transaction(async (tx) => {
    await lock(tx);
    if (!(await tx.oAuthSigningKey.findFirst({ where: { retiredAt: null }, select: { kid: true } }))) await createKey(tx, secret);
  });
}

/** A new signing key; the old one retires (still published, no longer signing). Audited as oauth.key_rotated. */
export async function rotateSigningKey(db: Db, ctx: RequestContext, secret: SecretKey): Promise<{ kid: string; retired: string[] }> {
  return db.$transaction(async (tx) => {
    await lock(tx);
    const current = await tx.oAuthSigningKey.findMany({ where: { retiredAt: null }, select: { kid: true } });
    await tx.oAuthSigningKey.updateMany({ where: { retiredAt: null }, data: { retiredAt: new Date() } });
    const kid = await createKey(tx, secret);
    const retired = current.map((k) => k.kid);
    await recordAudit(tx, ctx, { action: "oauth.key_rotated", category: "security", targetType: "oauth_signing_key", targetId: kid, details: { retired } });
    return { kid, retired };
  });
}

/**
 * The keys to publish: the signing key first, then retired keys whose tokens may still be live (retired less
 * than `retainSeconds` ago, the longest access token lifetime); older ones are deleted.
 */
async function liveKeys(db: Db, retainSeconds: number): Promise<KeyRow[]> {
  const cutoff = new Date(Date.now() - retainSeconds * 1000);
  await db.oAuthSigningKey.deleteMany({ where: { retiredAt: { lt: cutoff } } });
  const rows = await db.oAuthSigningKey.findMany({ orderBy: { createdAt: "desc" } });
  return [...rows.filter((r) => !r.retiredAt), ...rows.filter((r) => r.retiredAt)];
}

/** The public JWKS (resource side: the token verifier). */
export async function publicJwks(db: Db, retainSeconds: number): Promise<{ keys: JWK[] }> {
  return { keys: (await liveKeys(db, retainSeconds)).map((r) => r.publicJwk as JWK) };
}

/** The private JWKS oidc-provider signs with (its first key signs). */
export async function privateJwks(db: Db, secret: SecretKey, retainSeconds: number): Promise<{ keys: JWK[] }> {
  const rows = await liveKeys(db, retainSeconds);
  return {
    keys: rows.map((r) => JSON.parse(decryptSecret(secret, sealName(r.kid), { ciphertext: Buffer.from(r.ciphertext), iv: Buffer.from(r.iv), authTag: Buffer.from(r.authTag), keyId: r.keyId })) as JWK),
  };
}
