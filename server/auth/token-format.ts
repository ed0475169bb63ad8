// Bearer tokens: `<kind>_<random>`; only their SHA-256 is stored, so a database leak leaks no token.
import { createHash, randomBytes } from "node:crypto";

export const TOKEN_KINDS = { api: "pct", agent: "pcs" } as const;
export type TokenKind = keyof typeof TOKEN_KINDS;

export function mintToken(kind: TokenKind): { token: string; hash: string; prefix: string } {
  const token = `${TOKEN_KINDS[kind]}_${randomBytes(24).toString("base64url")}`;
  return { token, hash: hashToken(token), prefix: token.slice(0, 10) };
}

export function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

export function tokenKind(token: string): TokenKind | undefined {
  if (/^pct_[A-Za-z0-9_-]{32}$/.test(token)) return "api";
  if (/^pcs_[A-Za-z0-9_-]{32}$/.test(token)) return "agent";
  return undefined;
}
