// A routing header's value as a 2026-07-28 client sends it (the inverse of server/mcp/modern/decode-header-value.ts):
// plain when it is visible ASCII without leading or trailing space, else the UTF-8 bytes in `=?base64?…?=`.
const PLAIN = /^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/;

export function encodeHeaderValue(value: string): string {
  return PLAIN.test(value) && !value.startsWith("=?") ? value : `=?base64?${Buffer.from(value, "utf8").toString("base64")}?=`;
}
