// Webhook signatures, Stripe-style: x-portcullis-signature = `t=<unix seconds>,v1=<hex HMAC-SHA256(secret,
// "<t>.<body>")>`. The timestamp is signed too, so a captured request cannot be replayed after the tolerance.
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

const hmacHex = (secret: string, t: number, body: string) => createHmac("sha256", secret).update(`${String(t)}.${body}`).digest("hex");

/** The x-portcullis-signature header: `t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<body>")>`. */
export function signWebhook(secret: string, timestampSec: number, body: string): string {
  const t = Math.floor(timestampSec);
  return `t=${String(t)},v1=${hmacHex(secret, t, body)}`;
}

/**
 * True when `header` signs exactly `body` with `secret` and its timestamp is within `toleranceSec` of now (either
 * way). Several v1 entries are allowed (one matching is enough), as during a secret rotation.
 */
export function verifyWebhookSignature(
  secret: string,
  header: string | null | undefined,
  body: string,
  { toleranceSec = 300, nowSec = Date.now() / 1000 }: { toleranceSec?: number; nowSec?: number } = {},
): boolean {
  if (!header || header.length > 2000) return false;
  let t: number | undefined;
  const signatures: Buffer[] = [];
  for (const part of header.split(",")) {
    const eq = part.indexOf("=");
    if (eq <= 0) return false;
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (key === "t") {
      if (t !== undefined || !/^\d{1,12}$/.test(value)) return false;
      t = Number(value);
    } else if (key === "v1") {
      if (!/^[0-9a-f]{64}$/i.test(value)) return false;
      signatures.push(Buffer.from(value, "hex"));
    }
  }
  if (t === undefined || signatures.length === 0) return false;
  if (!(Math.abs(nowSec - t) <= toleranceSec)) return false;
  const expected = Buffer.from(hmacHex(secret, t, body), "hex");
  // Every entry is compared, so the time taken does not say which one matched.
  return signatures.reduce((ok, sig) => timingSafeEqual(sig, expected) || ok, false);
}

/** A session's signing secret, shown to its user once. */
export function newCallbackSecret(): string {
  return `whsec_${randomBytes(32).toString("base64url")}`;
}
