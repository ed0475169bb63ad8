// Canary routing is sticky per session: the bucket is fixed when the agent session is created.
import { createHash } from "node:crypto";

/** A stable 0–99 bucket for canary routing, from the agent session (or the MCP session without one). */
export function canaryBucket(key: string): number {
  return createHash("sha256").update(key).digest().readUInt16BE(0) % 100;
}
