// The identity of a call's arguments, for replays (dedupe window) and approval grants (exactly these arguments).
import { createHash } from "node:crypto";

/** Keys sorted at every level: `{a, b}` and `{b, a}` are the same call (clients and models reorder keys freely). */
const canonical = (v: unknown): unknown =>
  Array.isArray(v)
    ? v.map(canonical)
    : v !== null && typeof v === "object"
      ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, canonical((v as Record<string, unknown>)[k])]))
      : v;

/** SHA-256 of the arguments as canonical JSON. */
export const hashArguments = (args: unknown): string =>
  createHash("sha256")
    .update(JSON.stringify(canonical(args ?? {})))
    .digest("hex");

