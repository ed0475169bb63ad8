import { exportJWK, generateKeyPair } from "jose";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { GatewayError } from "../errors";
import { insertUser } from "../test/contexts";
import { oidcCodeFlowClaims } from "../test/fixtures/oidc-code-flow";
import { freePort, spawnTsServer } from "../test/gateway-harness";
import { createTestDb, truncateAll } from "../test/test-db";
import { verifyPassword } from "./password";
import { ssoConfigOf, type SsoConfig } from "./sso-config";
import { ssoSignIn, type SsoClaims } from "./sso-sign-in";

const db = createTestDb();
const config: SsoConfig = ssoConfigOf({
  SSO_ISSUER: "https://idp.example.com",
  SSO_CLIENT_ID: "portcullis",
  SSO_CLIENT_SECRET: "a client secret",
  SSO_ROLE_MAP: "portcullis-admins=ADMIN;approvers=APPROVER",
  SSO_ALLOWED_DOMAINS: "example.com, corp.example.org",
})!;

beforeEach(() => truncateAll(db));
afterAll(() => db.$disconnect());

const signIn = (claims: SsoClaims) => ssoSignIn(db, config, { claims: { sub: "s-1", ...claims }, ip: "203.0.113.9" });
const audits = (action: string) => db.auditEvent.findMany({ where: { action }, orderBy: { id: "asc" } });

async function refusal(p: Promise<unknown>): Promise<GatewayError> {
  const err = await p.then(() => undefined, (e: unknown) => e);
  expect(err).toBeInstanceOf(GatewayError);
  expect((err as GatewayError).code).toBe("unauthenticated");
  return err as GatewayError;
}

describe("ssoSignIn", () => {
  it("creates the user just in time with the role of the highest matched group, and audits it", async () => {
    const user = await signIn({ email: "Ada@Example.com", email_verified: true, name: "Ada", groups: ["staff", "approvers", "portcullis-admins"] });
    expect(user).toMatchObject({ email: "ada@example.com", name: "Ada", role: "ADMIN", disabled: false });
    expect(user.lastLoginAt).not.toBeNull();
    // No password anyone knows: the credentials form cannot open the account.
    expect(await verifyPassword("", user.passwordHash)).toBe(false);
    const created = await audits("user.created");
    expect(created).toHaveLength(1);
    expect(created[0]).toMatchObject({ targetId: user.id, details: expect.objectContaining({ via: "sso", role: "ADMIN" }) as unknown });
    const signins = await audits("auth.sso_signin");
    expect(signins).toHaveLength(1);
    expect(signins[0]).toMatchObject({ userId: user.id, category: "security", status: "ok", ip: "203.0.113.9" });
  });

  it("follows the groups claim at every sign-in, down as well as up, and finds the user by e-mail", async () => {
    const first = await signIn({ email: "bo@example.com", groups: ["approvers"] });
    expect(first.role).toBe("APPROVER");
    const second = await signIn({ email: "bo@example.com", groups: ["portcullis-admins"] });
    expect(second).toMatchObject({ id: first.id, role: "ADMIN" });
    const third = await signIn({ email: "bo@example.com", groups: ["unmapped"] });
    expect(third).toMatchObject({ id: first.id, role: "USER" });
    expect(await audits("user.created")).toHaveLength(1);
    expect(await audits("auth.sso_signin")).toHaveLength(3);
  });

  it("signs an existing password user in by e-mail, keeping the password, with the role from the groups", async () => {
    const existing = await insertUser(db, { email: "cy@corp.example.org", role: "ADMIN", password: "cy's own password" });
    const user = await signIn({ email: "cy@corp.example.org", groups: "approvers" });
    expect(user).toMatchObject({ id: existing.id, role: "APPROVER", passwordHash: existing.passwordHash });
    expect(await audits("user.created")).toHaveLength(0);
  });

  it.each([
    ["an e-mail outside the allowed domains", { email: "eve@evil.example.net", email_verified: true }, "domain_not_allowed"],
    ["an unverified e-mail", { email: "dan@example.com", email_verified: false }, "email_unverified"],
    ["no e-mail claim", { groups: ["portcullis-admins"] }, "no_email"],
  ] as const)("refuses %s, creates nobody and audits the reason", async (_what, claims, reason) => {
    await refusal(signIn(claims));
    expect(await db.user.count()).toBe(0);
    const refused = await audits("auth.sso_refused");
    expect(refused).toHaveLength(1);
    expect(refused[0]).toMatchObject({ reason, status: "denied", category: "security" });
  });

  it("refuses a disabled user and leaves the role alone", async () => {
    const disabled = await insertUser(db, { email: "fay@example.com", role: "USER", disabled: true });
    await refusal(signIn({ email: "fay@example.com", groups: ["portcullis-admins"] }));
    expect(await db.user.findUniqueOrThrow({ where: { id: disabled.id } })).toMatchObject({ role: "USER", lastLoginAt: null });
    expect(await audits("auth.sso_refused")).toEqual([expect.objectContaining({ reason: "disabled", targetId: disabled.id })]);
    expect(await audits("auth.sso_signin")).toHaveLength(0);
  });

  it("creates one user when many first sign-ins of the same person race", async () => {
    const users = await Promise.all(Array.from({ length: 8 }, () => signIn({ email: "gus@example.com", groups: ["approvers"] })));
    expect(new Set(users.map((u) => u.id)).size).toBe(1);
    expect(await db.user.count()).toBe(1);
    expect(await audits("user.created")).toHaveLength(1);
    expect(await audits("auth.sso_signin")).toHaveLength(8);
  });
});

// The claims as a real OpenID provider returns them: node-oidc-provider in its own process, signed in through its
// login and consent pages with authorization code + PKCE, the ID token verified against its keys.
describe("ssoSignIn with a real OpenID provider's ID token", () => {
  const redirectUri = "http://127.0.0.1:1/api/auth/callback/sso";
  let idp: Awaited<ReturnType<typeof spawnTsServer>>;
  let issuer = "";
  const accounts: Record<string, Record<string, unknown>> = {
    ada: { email: "ada@example.com", email_verified: true, name: "Ada", groups: ["portcullis-admins"] },
    bo: { email: "bo@example.com", email_verified: true, groups: ["approvers"] },
    dan: { email: "dan@example.com", email_verified: false, groups: ["portcullis-admins"] },
    eve: { email: "eve@evil.example.net", email_verified: true },
  };

  // The provider reads its accounts at start: a change of groups at the provider is a restart on the same port.
  async function startIdp(port: number) {
    const { privateKey } = await generateKeyPair("RS256", { extractable: true });
    const clients = [{ client_id: "portcullis", client_secret: "a client secret", email: "", scope: "openid email profile", redirect_uris: [redirectUri] }];
    idp = await spawnTsServer("server/test/fixtures/oidc-provider-process.ts", [], { OIDC_PORT: String(port), OIDC_JWK: JSON.stringify({ ...(await exportJWK(privateKey)), kid: "k1", alg: "RS256", use: "sig" }), OIDC_CLIENTS: JSON.stringify(clients), OIDC_ACCOUNTS: JSON.stringify(accounts) }, /ready/);
  }

  beforeAll(async () => {
    const port = await freePort();
    issuer = `http://127.0.0.1:${String(port)}`;
    await startIdp(port);
  });
  afterAll(() => idp.stop());

  const claimsOf = (login: string) => oidcCodeFlowClaims({ issuer, clientId: "portcullis", clientSecret: "a client secret", redirectUri }, login);
  const signInAt = async (login: string) => ssoSignIn(db, { ...config, issuer }, { claims: await claimsOf(login) });

  it("creates the user from the ID token with the role of its groups", async () => {
    const claims = await claimsOf("ada");
    expect(claims).toMatchObject({ sub: "ada", email: "ada@example.com", email_verified: true, groups: ["portcullis-admins"] });
    const user = await ssoSignIn(db, { ...config, issuer }, { claims });
    expect(user).toMatchObject({ email: "ada@example.com", name: "Ada", role: "ADMIN" });
  });

  it("updates the role when the provider's groups change between sign-ins", async () => {
    expect((await signInAt("bo")).role).toBe("APPROVER");
    accounts.bo!.groups = [];
    await idp.stop();
    await startIdp(Number(new URL(issuer).port));
    expect((await signInAt("bo")).role).toBe("USER");
  });

  it("refuses the provider's unverified e-mail and an e-mail outside the allowed domains", async () => {
    expect((await refusal(signInAt("dan"))).message).toMatch(/unverified/);
    expect((await refusal(signInAt("eve"))).message).toMatch(/domain/);
    expect(await db.user.count()).toBe(0);
  });
});
