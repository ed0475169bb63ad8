// Who may scrape /metrics. With METRICS_TOKEN set (server/config.ts), a scraper sends `Authorization: Bearer <METRICS_TOKEN>`;
// otherwise (and always) an ADMIN's personal API token or console session works (checked by the route).
// There is no allowance by network address: behind a reverse proxy on the same host every request would look
// like loopback, and X-Forwarded-For is whatever the client wrote.
import { createHash, timingSafeEqual } from "node:crypto";

/** True when `authorization` is `Bearer <expected>` (compared in constant time). */
export function bearerMatches(authorization: string | null, expected: string | undefined): boolean {
  if (!expected || !authorization) return false;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
  if (!m) return false;
  const digest = (s: string) => createHash("sha256").update(s).digest();
  return timingSafeEqual(digest(m[1]!), digest(expected));
}
