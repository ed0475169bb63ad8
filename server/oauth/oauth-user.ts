// The Portcullis user an OAuth access token names: found by e-mail, created on first use with the configured
// default role (no password: such a user signs in to the console through SSO, or an admin sets one).
import { recordAudit } from "../audit/record-audit";
import { systemContext } from "../context";
import type { Db, User } from "../db/client";
import type { OAuthConfig } from "./oauth-config";

/** Never a valid scrypt hash (auth/password.ts refuses it): no password sign-in until one is set. */
export const NO_PASSWORD = "oauth$no-password";

/** The e-mail the user key stands for: itself when it is one, else `<key>@<issuer host>`. */
export function emailOfUserKey(config: OAuthConfig, userKey: string): string {
  const key = userKey.trim().toLowerCase();
  return key.includes("@") ? key : `${key}@${new URL(config.issuer).hostname}`;
}

export async function findOrCreateOAuthUser(db: Db, config: OAuthConfig, userKey: string): Promise<User> {
  const email = emailOfUserKey(config, userKey);
  const found = await db.user.findUnique({ where: { email } });
  if (found) return found;
  return db.$transaction(async (tx) => {
    // Concurrent first calls: one insert wins, the others find its row.
    const inserted = await tx.user.createManyAndReturn({ data: [{ email, role: config.defaultRole, passwordHash: NO_PASSWORD }], skipDuplicates: true });
    const user = inserted[0];
    if (!user) return tx.user.findUniqueOrThrow({ where: { email } });
    await recordAudit(tx, systemContext("oauth"), { action: "user.created", targetType: "user", targetId: user.id, details: { email, role: user.role, via: "oauth", issuer: config.issuer } });
    return user;
  });
}
