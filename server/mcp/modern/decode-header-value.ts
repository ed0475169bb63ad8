// A routing header's value as the 2026-07-28 transport encodes it: plain visible ASCII, or the UTF-8 bytes in
// the Base64 sentinel `=?base64?…?=`. Hostile input: anything that is not exactly one of the two is refused,
// never guessed at (a lenient decoder would let a header say one thing to a balancer and another to us).

/** Longest header value taken (encoded form), so one request cannot make the gateway decode megabytes. */
export const MAX_ENCODED_HEADER_CHARS = 8192;

export type DecodedHeader = { ok: true; value: string } | { ok: false; reason: string };

const SENTINEL = /^=\?base64\?(.*)\?=$/s;
// Strict standard alphabet with canonical padding: a length that is a multiple of 4.
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
// RFC 9110 field value characters as the spec restricts them: visible ASCII, space and tab.
const PLAIN = /^[\x20-\x7e\t]*$/;

export function decodeHeaderValue(raw: string): DecodedHeader {
  if (raw.length > MAX_ENCODED_HEADER_CHARS) return { ok: false, reason: `longer than ${MAX_ENCODED_HEADER_CHARS} characters` };
  if (!PLAIN.test(raw)) return { ok: false, reason: "contains characters outside visible ASCII" };
  const encoded = SENTINEL.exec(raw)?.[1];
  if (encoded === undefined) return { ok: true, value: raw };
  if (!BASE64.test(encoded)) return { ok: false, reason: "is not valid Base64 inside =?base64?…?=" };
  try {
    return { ok: true, value: new TextDecoder("utf-8", { fatal: true }).decode(Buffer.from(encoded, "base64")) };
  } catch {
    return { ok: false, reason: "does not decode to UTF-8" };
  }
}
