import { describe, expect, it } from "vitest";
import { generatePassword, hashPassword, verifyPassword } from "./password";

describe("password hashing (scrypt)", () => {
  it("verifies a password against its own hash", async () => {
    const stored = await hashPassword("correct horse battery staple");
    expect(stored).toMatch(/^scrypt\$32768\$8\$1\$[A-Za-z0-9_-]+\$[A-Za-z0-9_-]+$/);
    expect(await verifyPassword("correct horse battery staple", stored)).toBe(true);
  });

  it("rejects a wrong password", async () => {
    const stored = await hashPassword("correct horse battery staple");
    expect(await verifyPassword("correct horse battery stapler", stored)).toBe(false);
    expect(await verifyPassword("", stored)).toBe(false);
  });

  it("salts every hash, so two hashes of one password differ and both verify", async () => {
    const [a, b] = await Promise.all([hashPassword("same password"), hashPassword("same password")]);
    expect(a).not.toBe(b);
    expect(a.split("$")[4]).not.toBe(b.split("$")[4]);
    expect(await verifyPassword("same password", a)).toBe(true);
    expect(await verifyPassword("same password", b)).toBe(true);
  });

  it.each([
    ["precomposed vs combining accent", "caf\u00e9-secret!", "cafe\u0301-secret!"],
    ["ligature vs plain letters", "\ufb01le-password", "file-password"],
    ["full-width vs ASCII digits", "pin-\uff11\uff12\uff13\uff14", "pin-1234"],
  ])("treats NFKC-equivalent passwords as equal (%s)", async (_label, typed, retyped) => {
    const stored = await hashPassword(typed);
    expect(await verifyPassword(retyped, stored)).toBe(true);
  });

  it.each([
    ["an empty string", ""],
    ["another scheme", "bcrypt$2b$10$abcdefghijklmnopqrstuv"],
    ["too few fields", "scrypt$32768$8$1$c2FsdA"],
    ["an empty hash field", "scrypt$32768$8$1$c2FsdHNhbHRzYWx0$"],
    ["a truncated hash", "scrypt$32768$8$1$c2FsdHNhbHRzYWx0$AAAA"],
    ["non-numeric cost parameters", "scrypt$abc$8$1$c2FsdHNhbHRzYWx0$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"],
    [
      "a cost that is not a power of two",
      "scrypt$1000$8$1$c2FsdHNhbHRzYWx0$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
    ],
  ])("returns false (does not throw) for a malformed stored hash: %s", async (_label, stored) => {
    await expect(verifyPassword("whatever password", stored)).resolves.toBe(false);
  });

  it("generates readable random passwords long enough to pass the 8-character minimum", () => {
    const a = generatePassword();
    const b = generatePassword();
    expect(a).toMatch(/^[A-Za-z0-9_-]{20}$/);
    expect(a).not.toBe(b);
  });
});
