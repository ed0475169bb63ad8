// Console single sign-on (OIDC) from the environment: the identity provider, how its groups claim maps to
// roles, which e-mail domains may sign in, and whether the e-mail + password form stays on.
import { ROLES, type TRole } from "../../lib/roles";

export type SsoConfig = {
  /** Shown on the sign-in button: "Sign in with <name>". */
  name: string;
  issuer: string;
  clientId: string;
  /** A secret: goes to the log and audit redactor's list of secrets. */
  clientSecret: string;
  groupsClaim: string;
  /** Group name → role; a user gets the highest role of the groups they are in, USER when none matches. */
  roleMap: ReadonlyMap<string, TRole>;
  /** Lower-case e-mail domains allowed to sign in; empty: any. */
  allowedDomains: string[];
};

export type SsoEnv = {
  SSO_NAME?: string | undefined;
  SSO_ISSUER?: string | undefined;
  SSO_CLIENT_ID?: string | undefined;
  SSO_CLIENT_SECRET?: string | undefined;
  SSO_GROUPS_CLAIM?: string | undefined;
  SSO_ROLE_MAP?: string | undefined;
  SSO_ALLOWED_DOMAINS?: string | undefined;
};

/** Throws an Error naming the variable; null when SSO_ISSUER is unset. */
export function ssoConfigOf(e: SsoEnv): SsoConfig | null {
  const issuer = e.SSO_ISSUER?.trim();
  if (!issuer) {
    const stray = (["SSO_CLIENT_ID", "SSO_CLIENT_SECRET", "SSO_ROLE_MAP", "SSO_ALLOWED_DOMAINS"] as const).find((k) => e[k]?.trim());
    if (stray) throw new Error(`${stray}: set without SSO_ISSUER (the OpenID provider's issuer URL)`);
    return null;
  }
  let url: URL;
  try {
    url = new URL(issuer);
  } catch {
    throw new Error(`SSO_ISSUER: not a URL: ${issuer}`);
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") throw new Error("SSO_ISSUER: must be an http(s) URL");
  const clientId = e.SSO_CLIENT_ID?.trim();
  if (!clientId) throw new Error("SSO_CLIENT_ID: required with SSO_ISSUER");
  const clientSecret = e.SSO_CLIENT_SECRET;
  if (!clientSecret) throw new Error("SSO_CLIENT_SECRET: required with SSO_ISSUER");
  const groupsClaim = e.SSO_GROUPS_CLAIM?.trim() || "groups";
  return { name: e.SSO_NAME?.trim() || "single sign-on", issuer: issuer.replace(/\/+$/, ""), clientId, clientSecret, groupsClaim, roleMap: parseRoleMap(e.SSO_ROLE_MAP ?? ""), allowedDomains: parseDomains(e.SSO_ALLOWED_DOMAINS ?? "") };
}

/** `group=ROLE;group=ROLE`; a bad entry is an error, never silently a lesser role. */
export function parseRoleMap(raw: string): Map<string, TRole> {
  const map = new Map<string, TRole>();
  for (const entry of raw.split(";").map((s) => s.trim()).filter(Boolean)) {
    const at = entry.lastIndexOf("=");
    const group = at > 0 ? entry.slice(0, at).trim() : "";
    const role = at > 0 ? entry.slice(at + 1).trim().toUpperCase() : "";
    if (!group) throw new Error(`SSO_ROLE_MAP: "${entry}" is not group=ROLE`);
    if (!(ROLES as readonly string[]).includes(role)) throw new Error(`SSO_ROLE_MAP: "${entry}": role must be one of ${ROLES.join(", ")}`);
    if (map.has(group)) throw new Error(`SSO_ROLE_MAP: group "${group}" is mapped twice`);
    map.set(group, role as TRole);
  }
  return map;
}

function parseDomains(raw: string): string[] {
  const domains = raw.split(",").map((d) => d.trim().toLowerCase().replace(/^@/, "")).filter(Boolean);
  const bad = domains.find((d) => !/^[a-z0-9-]+(\.[a-z0-9-]+)+$/.test(d));
  if (bad) throw new Error(`SSO_ALLOWED_DOMAINS: "${bad}" is not a domain name`);
  return domains;
}
