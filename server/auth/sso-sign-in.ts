// A console sign-in through the OpenID provider: checks the ID token's claims, finds or creates the user (just
// in time, with an unusable password), and sets the role from the groups claim on every sign-in, so a change
// of groups at the provider reaches the console at the next sign-in. Each outcome is audited.
import { hasRole, type TRole } from "../../lib/roles";
import { recordAudit } from "../audit/record-audit";
import { systemContext, type RequestContext } from "../context";
import type { Db, User } from "../db/client";
import { GatewayError } from "../errors";
import { generatePassword, hashPassword } from "./password";
import type { SsoConfig } from "./sso-config";

export type SsoClaims = Record<string, unknown>;
export type SsoRefusal = "no_email" | "email_unverified" | "domain_not_allowed" | "disabled";

/** The highest role of the user's mapped groups; USER when none matches. */
export function roleFromGroups(config: Pick<SsoConfig, "roleMap" | "groupsClaim">, claims: SsoClaims): TRole {
  const raw = claims[config.groupsClaim];
  // Some providers send a single group as a string.
  const groups = Array.isArray(raw) ? raw.filter((g): g is string => typeof g === "string") : typeof raw === "string" ? [raw] : [];
  let role: TRole = "USER";
  for (const g of groups) {
    const mapped = config.roleMap.get(g);
    if (mapped && !hasRole(role, mapped)) role = mapped;
  }
  return role;
}

export async function ssoSignIn(db: Db, config: SsoConfig, input: { claims: SsoClaims; ip?: string | undefined }): Promise<User> {
  const { claims } = input;
  const ctx: RequestContext = { ...systemContext("login"), ip: input.ip };
  const email = typeof claims.email === "string" ? claims.email.trim().toLowerCase() : "";
  const refuse = async (reason: SsoRefusal, user?: User): Promise<never> => {
    await recordAudit(db, ctx, {
      action: "auth.sso_refused",
      category: "security",
      status: "denied",
      errorCode: "unauthenticated",
      reason,
      ...(user ? { targetType: "user", targetId: user.id } : {}),
      details: { email, issuer: config.issuer, subject: typeof claims.sub === "string" ? claims.sub : null },
    });
    throw new GatewayError("unauthenticated", `Single sign-on refused: ${reason.replace(/_/g, " ")}.`);
  };
  if (!email || !email.includes("@")) return refuse("no_email");
  // Only an explicit false refuses: providers that verify every address may leave the claim out.
  if (claims.email_verified === false || claims.email_verified === "false") return refuse("email_unverified");
  const domain = email.slice(email.lastIndexOf("@") + 1);
  if (config.allowedDomains.length > 0 && !config.allowedDomains.includes(domain)) return refuse("domain_not_allowed");
  const role = roleFromGroups(config, claims);
  const name = typeof claims.name === "string" && claims.name.trim() ? claims.name.trim().slice(0, 200) : null;
  const existing = await db.user.findUnique({ where: { email } });
  if (existing?.disabled) return refuse("disabled", existing);
  // Hashed outside the transaction (scrypt is slow); nobody knows this password, so only SSO or a reset lets in.
  const unusableHash = existing ? null : await hashPassword(generatePassword());
  return db.$transaction(async (tx) => {
    if (unusableHash) {
      // ON CONFLICT DO NOTHING: two first sign-ins at once create one user, and only the creator audits it.
      const { count } = await tx.user.createMany({ data: [{ email, name, role, passwordHash: unusableHash }], skipDuplicates: true });
      const created = await tx.user.findUniqueOrThrow({ where: { email } });
      if (count === 1) await recordAudit(tx, ctx, { action: "user.created", targetType: "user", targetId: created.id, details: { email, role, via: "sso" } });
    }
    let user = await tx.user.findUniqueOrThrow({ where: { email } });
    const before = user.role;
    user = await tx.user.update({ where: { id: user.id }, data: { role, lastLoginAt: new Date() } });
    const actorCtx: RequestContext = { ...ctx, actor: { type: "user", userId: user.id, email: user.email, role: user.role } };
    await recordAudit(tx, actorCtx, {
      action: "auth.sso_signin",
      category: "security",
      targetType: "user",
      targetId: user.id,
      details: { issuer: config.issuer, role, ...(before !== role ? { previousRole: before } : {}) },
    });
    return user;
  });
}
