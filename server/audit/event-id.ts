// Audit events' ids (audit_events."eventId", unique): UUIDv7, time-ordered, so the unique index of an
// append-only table that grows by millions of rows is written at its end, not at random pages.
import { randomUUID } from "node:crypto";

/**
 * The random part comes from `randomUUID` (a v4 UUID: its variant bits are already v7's), which draws from a
 * buffered pool; `randomBytes(16)` per event asked the kernel each time, a syscall on every call's path.
 */
export function eventId(now = Date.now()): string {
  const t = now.toString(16).padStart(12, "0"); // 48-bit Unix time in ms
  return `${t.slice(0, 8)}-${t.slice(8, 12)}-7${randomUUID().slice(15)}`;
}
