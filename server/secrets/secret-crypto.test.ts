import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../config";
import { isGatewayError } from "../errors";
import { decryptSecret, encryptSecret, keyIdOf, parseSecretsKey, secretKey, SecretDecryptError, SecretKeyMismatchError, type SealedSecret } from "./secret-crypto";
import { resolveSecretRefs, SECRET_REF_RE, secretRefsIn } from "./secret-refs";

const KEY = secretKey(Buffer.alloc(32, 7));
const OTHER = secretKey(Buffer.alloc(32, 9));
const flip = (b: Buffer, i = 0) => {
  const c = Buffer.from(b);
  c[i] = (c[i] ?? 0) ^ 0x01;
  return c;
};

function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (err) {
    return err;
  }
  throw new Error("expected a throw");
}

describe("encryptSecret / decryptSecret", () => {
  it.each([["a short value", "s3cr3t"], ["unicode", "pässwörd – 密码 🔑"], ["the largest allowed value", "x".repeat(16_384)], ["a single character", "x"]])(
    "round-trips %s",
    (_label, value) => {
      const sealed = encryptSecret(KEY, "DB_PASSWORD", value);
      expect(decryptSecret(KEY, "DB_PASSWORD", sealed)).toBe(value);
      expect(sealed.keyId).toBe(KEY.id);
      expect(sealed.iv).toHaveLength(12);
      expect(sealed.authTag).toHaveLength(16);
    },
  );

  it("holds no plaintext, and a fresh IV makes each write of the same value differ", () => {
    const a = encryptSecret(KEY, "TOKEN", "plain-text-value-123");
    const b = encryptSecret(KEY, "TOKEN", "plain-text-value-123");
    expect(a.ciphertext.toString("utf8")).not.toContain("plain-text-value-123");
    expect(a.iv.equals(b.iv)).toBe(false);
    expect(a.ciphertext.equals(b.ciphertext)).toBe(false);
  });

  const tampered: [string, (s: SealedSecret) => SealedSecret, string][] = [
    ["an altered ciphertext", (s) => ({ ...s, ciphertext: flip(s.ciphertext, 3) }), "TOKEN"],
    ["an altered tag", (s) => ({ ...s, authTag: flip(s.authTag) }), "TOKEN"],
    ["an altered IV", (s) => ({ ...s, iv: flip(s.iv) }), "TOKEN"],
    ["another name (the AAD): a row copied onto another secret", (s) => s, "OTHER_TOKEN"],
  ];
  it.each(tampered)("refuses %s", (_label, change, name) => {
    const sealed = change(encryptSecret(KEY, "TOKEN", "plain-text-value-123"));
    const err = thrown(() => decryptSecret(KEY, name, sealed));
    expect(err).toBeInstanceOf(SecretDecryptError);
    expect((err as Error).message).toContain(`The secret ${name} could not be decrypted`);
  });

  it("refuses a row written under another key with an error that names both keys", () => {
    const sealed = encryptSecret(KEY, "TOKEN", "plain-text-value-123");
    const err = thrown(() => decryptSecret(OTHER, "TOKEN", sealed));
    expect(err).toBeInstanceOf(SecretKeyMismatchError);
    expect((err as Error).message).toBe(
      `The secret TOKEN was encrypted with key ${KEY.id}, but the key in use is ${OTHER.id}: set SECRETS_KEY (or restore DATA_DIR/secrets.key) to the key it was written with, or store the secret again.`,
    );
    // Even with the row's key id forged to match, the wrong key does not authenticate.
    expect(() => decryptSecret(OTHER, "TOKEN", { ...sealed, keyId: OTHER.id })).toThrow(SecretDecryptError);
  });
});

describe("keys", () => {
  const raw = randomBytes(32);
  it.each([
    ["64 hex digits", raw.toString("hex")],
    ["upper-case hex", raw.toString("hex").toUpperCase()],
    ["base64", raw.toString("base64")],
    ["base64 without padding", raw.toString("base64").replace(/=$/, "")],
    ["base64url", raw.toString("base64url")],
    ["with surrounding whitespace", ` ${raw.toString("base64")}\n`],
  ])("parses %s", (_label, text) => {
    expect(parseSecretsKey(text)?.equals(raw)).toBe(true);
  });

  it.each([["too short hex", "ab".repeat(31)], ["16 bytes of base64", randomBytes(16).toString("base64")], ["48 bytes of base64", randomBytes(48).toString("base64")], ["a passphrase", "correct horse battery staple"], ["empty", ""]])(
    "refuses %s",
    (_label, text) => {
      expect(parseSecretsKey(text)).toBeNull();
    },
  );

  it("names a key by the first 12 hex digits of its SHA-256", () => {
    // sha256 of 32 zero bytes
    expect(keyIdOf(Buffer.alloc(32))).toBe("66687aadf862");
    expect(KEY.id).toMatch(/^[0-9a-f]{12}$/);
    expect(KEY.id).not.toBe(OTHER.id);
    expect(() => secretKey(Buffer.alloc(16))).toThrow(/32 bytes/);
  });
});

describe("secret references", () => {
  it("finds each referenced name once, several per value, in order of first use", () => {
    expect(secretRefsIn({ A: "${secret:DB_USER}:${secret:DB_PASS}@host", B: "Bearer ${secret:API_TOKEN}", C: "${secret:DB_USER}", D: "no refs, $HOME, ${other:X}" })).toEqual([
      "DB_USER",
      "DB_PASS",
      "API_TOKEN",
    ]);
    expect(secretRefsIn({})).toEqual([]);
    // The exported pattern is global (for matchAll/replace).
    expect(SECRET_REF_RE.flags).toContain("g");
  });

  it("replaces every reference, keeping the rest of each value, and leaves maps without references alone", () => {
    const values: Record<string, string> = { DB_USER: "app", DB_PASS: "p@ss$1&$$", API_TOKEN: "tok-123" };
    expect(resolveSecretRefs({ URL: "postgres://${secret:DB_USER}:${secret:DB_PASS}@db/x", AUTH: "Bearer ${secret:API_TOKEN}", PLAIN: "plain" }, (n) => values[n])).toEqual({
      URL: "postgres://app:p@ss$1&$$@db/x",
      AUTH: "Bearer tok-123",
      PLAIN: "plain",
    });
    expect(resolveSecretRefs({ A: "x" }, () => undefined)).toEqual({ A: "x" });
  });

  it("throws unknown_secret (422) naming every missing name, malformed ones included", () => {
    const err = thrown(() => resolveSecretRefs({ A: "${secret:KNOWN} ${secret:MISSING}", B: "${secret:lower}", C: "${secret:MISSING}" }, (n) => (n === "KNOWN" ? "v" : undefined)));
    expect(isGatewayError(err)).toBe(true);
    expect(err).toMatchObject({ code: "unknown_secret", status: 422, details: { missing: ["MISSING", "lower"] } });
    expect((err as Error).message).toContain("${secret:MISSING}, ${secret:lower}");
    expect((err as Error).message).not.toContain("KNOWN");
  });
});

describe("SECRETS_KEY", () => {
  it("is read into the configuration, and a malformed one stops start-up with a message naming it", () => {
    const raw = randomBytes(32);
    expect(loadConfig({ SECRETS_KEY: raw.toString("hex") }).secretsKey?.equals(raw)).toBe(true);
    expect(loadConfig({}).secretsKey).toBeUndefined();
    expect(() => loadConfig({ SECRETS_KEY: "not-a-key" })).toThrow(/SECRETS_KEY: must be 32 bytes, as base64 \(`openssl rand -base64 32`\) or 64 hex digits/);
  });
});
