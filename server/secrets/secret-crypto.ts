// AES-256-GCM for stored secrets: a fresh random 12-byte IV per write, and the secret's name as additional
// authenticated data, so a ciphertext copied onto another name's row does not decrypt. The key comes from
// SECRETS_KEY or, failing that, DATA_DIR/secrets.key (created on first use, mode 0600); its id (a SHA-256
// prefix) is stored with every row, so a row written under another key is reported as such, not as garbage.
import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";
import { chmod, link, mkdir, readFile, unlink, writeFile } from "node:fs/promises";
import path from "node:path";

const ALGORITHM = "aes-256-gcm";
export const KEY_BYTES = 32;
const IV_BYTES = 12;
export const KEY_FILE_NAME = "secrets.key";

export type SecretKey = { key: Buffer; id: string };
export type SealedSecret = { ciphertext: Buffer; iv: Buffer; authTag: Buffer; keyId: string };

/** The key was not the one the row was written with. */
export class SecretKeyMismatchError extends Error {
  override name = "SecretKeyMismatchError";
}

/** The row does not authenticate under its name and the right key: tampered with, or moved to another name. */
export class SecretDecryptError extends Error {
  override name = "SecretDecryptError";
}

/** 32 bytes as 64 hex digits or as base64 (standard or URL-safe, padding optional); null for anything else. */
export function parseSecretsKey(raw: string): Buffer | null {
  const s = raw.trim();
  if (/^[0-9a-fA-F]{64}$/.test(s)) return Buffer.from(s, "hex");
  if (!/^[A-Za-z0-9+/_-]{43}=?$/.test(s)) return null;
  const key = Buffer.from(s.replace(/-/g, "+").replace(/_/g, "/"), "base64");
  return key.length === KEY_BYTES ? key : null;
}

export const SECRETS_KEY_HINT = "must be 32 bytes, as base64 (`openssl rand -base64 32`) or 64 hex digits (`openssl rand -hex 32`)";

/** The first 12 hex digits of the key's SHA-256: names the key without revealing it. */
export function keyIdOf(key: Buffer): string {
  return createHash("sha256").update(key).digest("hex").slice(0, 12);
}

export function secretKey(key: Buffer): SecretKey {
  if (key.length !== KEY_BYTES) throw new Error(`a secrets key must be ${String(KEY_BYTES)} bytes, not ${String(key.length)}`);
  return { key, id: keyIdOf(key) };
}

export function encryptSecret(k: SecretKey, name: string, value: string): SealedSecret {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv(ALGORITHM, k.key, iv);
  cipher.setAAD(Buffer.from(name, "utf8"));
  const ciphertext = Buffer.concat([cipher.update(value, "utf8"), cipher.final()]);
  return { ciphertext, iv, authTag: cipher.getAuthTag(), keyId: k.id };
}

export function decryptSecret(k: SecretKey, name: string, sealed: SealedSecret): string {
  if (sealed.keyId !== k.id) {
    throw new SecretKeyMismatchError(
      `The secret ${name} was encrypted with key ${sealed.keyId}, but the key in use is ${k.id}: set SECRETS_KEY (or restore DATA_DIR/${KEY_FILE_NAME}) to the key it was written with, or store the secret again.`,
    );
  }
  try {
    const decipher = createDecipheriv(ALGORITHM, k.key, sealed.iv);
    decipher.setAAD(Buffer.from(name, "utf8"));
    decipher.setAuthTag(sealed.authTag);
    return Buffer.concat([decipher.update(sealed.ciphertext), decipher.final()]).toString("utf8");
  } catch (err) {
    throw new SecretDecryptError(`The secret ${name} could not be decrypted: it does not authenticate under its name and key ${k.id} (altered in the database?).`, { cause: err });
  }
}

/**
 * The key in `DATA_DIR/secrets.key` (base64 text), created with mode 0600 when there is none. Creation is
 * atomic (written aside, then hard-linked into place), so processes starting together end up with one key.
 */
export async function loadOrCreateKeyFile(dataDir: string): Promise<Buffer> {
  const file = path.join(dataDir, KEY_FILE_NAME);
  const existing = await readKeyFile(file);
  if (existing) return existing;
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  const tmp = `${file}.${String(process.pid)}.${randomBytes(4).toString("hex")}.tmp`;
  await writeFile(tmp, `${randomBytes(KEY_BYTES).toString("base64")}\n`, { mode: 0o600, flag: "wx" });
  try {
    await chmod(tmp, 0o600);
    await link(tmp, file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
  } finally {
    await unlink(tmp).catch(() => undefined);
  }
  const key = await readKeyFile(file);
  if (!key) throw new Error(`${file} could not be read after it was created`);
  return key;
}

async function readKeyFile(file: string): Promise<Buffer | undefined> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw err;
  }
  const key = parseSecretsKey(text);
  if (!key) throw new Error(`${file} does not hold a secrets key: it ${SECRETS_KEY_HINT}`);
  return key;
}
