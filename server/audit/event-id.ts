// Audit events' ids (audit_events."eventId", unique): UUIDv7, time-ordered, so the unique index of an
// append-only table that grows by millions of rows is written at its end, not at random pages.
import { randomBytes } from "node:crypto";

export function eventId(now = Date.now()): string {
  const b = randomBytes(16);
  b.writeUIntBE(now, 0, 6); // 48-bit Unix time in ms
  b[6] = (b[6]! & 0x0f) | 0x70; // version 7
  b[8] = (b[8]! & 0x3f) | 0x80; // RFC 4122 variant
  const h = b.toString("hex");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}
