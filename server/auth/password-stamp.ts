import { createHash } from "node:crypto";

/**
 * A short fingerprint of a user's stored password hash, carried in the console's session token. Every new
 * password gets a new salt and so a new stamp: a session signed in before a password change or reset no
 * longer matches and is refused, with no session table to keep.
 */
export function passwordStamp(passwordHash: string): string {
  return createHash("sha256").update(passwordHash).digest("base64url").slice(0, 22);
}
