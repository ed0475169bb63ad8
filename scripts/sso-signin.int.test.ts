// Console single sign-on end to end: `portcullis start` with SSO_* and PASSWORD_SIGNIN=off, a real OpenID
// provider process (node-oidc-provider), and next-auth's authorization code flow with PKCE and state driven over
// HTTP as a browser does (console → provider's login and consent pages → callback → session).
import { exportJWK, generateKeyPair } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../server/db/embedded";
import { followIdpPages } from "../server/test/fixtures/oidc-code-flow";
import { spawnTsServer, type ChildServer } from "../server/test/gateway-harness";
import { apiRequest, type Me } from "./test-support/api-request";
import { CookieJar, SESSION_COOKIE, signIn } from "./test-support/sign-in";
import { startApp, stopAllApps, type AppProcess } from "./test-support/start-app";
import { makeTempDir, removeTempDirs } from "./test-support/temp-dir";

const ACCOUNTS = {
  ada: { email: "ada@example.com", email_verified: true, name: "Ada", groups: ["portcullis-admins"] },
  dan: { email: "dan@example.com", email_verified: false, groups: ["portcullis-admins"] },
};

let idp: ChildServer;
let app: AppProcess;

beforeAll(async () => {
  const [appPort, idpPort] = [await freePort(), await freePort()];
  const { privateKey } = await generateKeyPair("RS256", { extractable: true });
  const clients = [{ client_id: "portcullis", client_secret: "an e2e client secret", email: "", scope: "openid email profile", redirect_uris: [`http://127.0.0.1:${String(appPort)}/api/auth/callback/sso`] }];
  idp = await spawnTsServer("server/test/fixtures/oidc-provider-process.ts", [], { OIDC_PORT: String(idpPort), OIDC_JWK: JSON.stringify({ ...(await exportJWK(privateKey)), kid: "k1", alg: "RS256", use: "sig" }), OIDC_CLIENTS: JSON.stringify(clients), OIDC_ACCOUNTS: JSON.stringify(ACCOUNTS) }, /ready/);
  app = await startApp({
    port: appPort,
    env: {
      DATA_DIR: await makeTempDir("sso"),
      // next-auth's redirect URI is built from it; it must be the one registered at the provider.
      PUBLIC_URL: `http://127.0.0.1:${String(appPort)}`,
      ADMIN_EMAIL: "root@example.com",
      ADMIN_PASSWORD: "admin-password-1",
      SSO_NAME: "Test IdP",
      SSO_ISSUER: `http://127.0.0.1:${String(idpPort)}`,
      SSO_CLIENT_ID: "portcullis",
      SSO_CLIENT_SECRET: "an e2e client secret",
      SSO_ROLE_MAP: "portcullis-admins=ADMIN",
      SSO_ALLOWED_DOMAINS: "example.com",
      PASSWORD_SIGNIN: "off",
    },
  });
});
afterAll(async () => {
  await stopAllApps();
  await idp.stop();
  await removeTempDirs();
});

/** Clicks "Sign in with Test IdP", signs in at the provider as `login`, and follows the callback. */
async function ssoSignIn(login: string): Promise<{ jar: CookieJar; landed: string }> {
  const jar = new CookieJar();
  const csrf = await fetch(`${app.baseUrl}/api/auth/csrf`);
  jar.store(csrf);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const start = await fetch(`${app.baseUrl}/api/auth/signin/sso`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: jar.header() },
    body: new URLSearchParams({ csrfToken, callbackUrl: `${app.baseUrl}/`, json: "true" }),
  });
  jar.store(start);
  const { url } = (await start.json()) as { url: string };
  // PKCE and state travel to the provider.
  expect(new URL(url).searchParams.get("code_challenge_method")).toBe("S256");
  expect(new URL(url).searchParams.get("state")).toBeTruthy();
  const callback = await followIdpPages(url, login, (u) => u.startsWith(app.baseUrl));
  const back = await fetch(callback, { redirect: "manual", headers: { cookie: jar.header() } });
  jar.store(back);
  return { jar, landed: new URL(back.headers.get("location") ?? "", app.baseUrl).href };
}

describe("console sign-in through an OpenID provider", () => {
  it("signs a new person in, creates them with the role of their groups, and shows the provider's button", async () => {
    const { jar, landed } = await ssoSignIn("ada");
    expect(landed).toBe(`${app.baseUrl}/`);
    expect(jar.get(SESSION_COOKIE)).toBeTruthy();
    const me = await apiRequest<Me>(app.baseUrl, "/api/v1/me", { cookie: jar.header() });
    expect(me.body.user).toMatchObject({ email: "ada@example.com", role: "ADMIN", disabled: false });
    const page = await (await fetch(`${app.baseUrl}/signin`)).text();
    expect(page).toContain("Test IdP");
    expect(page).not.toContain('name="password"');
  });

  it("sends an unverified e-mail back to the sign-in page with the reason, without a session", async () => {
    const { jar, landed } = await ssoSignIn("dan");
    expect(new URL(landed).pathname).toBe("/signin");
    expect(new URL(landed).searchParams.get("error")).toMatch(/^sso:.*unverified/);
    expect(jar.get(SESSION_COOKIE)).toBeUndefined();
  });

  it("refuses the password form when PASSWORD_SIGNIN=off, even the seeded admin's right password", async () => {
    expect((await signIn(app.baseUrl, "root@example.com", "admin-password-1")).ok).toBe(false);
  });
});
