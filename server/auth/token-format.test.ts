import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { hashToken, mintToken, tokenKind, TOKEN_KINDS, type TokenKind } from "./token-format";

describe("bearer token format", () => {
  it.each<[TokenKind, string]>([
    ["api", "pct_"],
    ["agent", "pcs_"],
  ])("mints a %s token with prefix %s, its SHA-256 and a 10-character display prefix", (kind, start) => {
    const { token, hash, prefix } = mintToken(kind);
    expect(token.startsWith(start)).toBe(true);
    expect(token).toHaveLength(36);
    expect(hash).toBe(createHash("sha256").update(token).digest("hex"));
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(prefix).toBe(token.slice(0, 10));
    expect(tokenKind(token)).toBe(kind);
    expect(TOKEN_KINDS[kind]).toBe(start.slice(0, 3));
  });

  it("mints a different token every time", () => {
    const tokens = new Set(Array.from({ length: 50 }, () => mintToken("api").token));
    expect(tokens.size).toBe(50);
  });

  it("hashes deterministically and never returns the token itself", () => {
    const { token } = mintToken("api");
    expect(hashToken(token)).toBe(hashToken(token));
    expect(hashToken(token)).not.toContain(token.slice(4));
  });

  const body = "A".repeat(32);
  it.each([
    ["an empty string", ""],
    ["a wrong prefix", `pcx_${body}`],
    ["an upper-case prefix", `PCT_${body}`],
    ["no underscore", `pct${body}`],
    ["a body one character short", `pct_${body.slice(1)}`],
    ["a body one character long", `pct_${body}A`],
    ["a character outside base64url", `pct_${body.slice(1)}+`],
    ["padding", `pct_${body.slice(1)}=`],
    ["surrounding whitespace", ` pct_${body}`],
    ["a trailing newline", `pct_${body}\n`],
    ["a Bearer scheme left in", `Bearer pct_${body}`],
  ])("classifies %s as no token kind", (_label, text) => {
    expect(tokenKind(text)).toBeUndefined();
  });
});
