// Test support for issue 22: a real OpenID provider process (fixtures/oidc-provider-process.ts) and the protected
// upstream MCP server it guards (fixtures/protected-upstream-server.ts), with real tokens minted by the provider
// (client_credentials with the upstream as resource) and the upstream's call log.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { exportJWK, generateKeyPair, type JWK } from "jose";
import { freePort, spawnTsServer, tempDir, type ChildServer } from "./gateway-harness";
import type { LogLine } from "./fixtures/protected-upstream-server";
import { completeJsonLines } from "./json-lines";

export type FixtureClient = { client_id: string; client_secret: string; email: string; scope: string };

export type ProtectedUpstream = {
  issuer: string;
  /** The upstream's MCP endpoint, also its resource (the `aud` of its tokens). */
  url: string;
  /** A fresh access token of `clientId` for `resource` (default: the upstream) (a JWT, RS256, `jti` unique). */
  token(clientId: string, resource?: string): Promise<string>;
  /** Everything the upstream logged so far. */
  log(): Promise<LogLine[]>;
  /** The upstream treats the token of this `jti` as expired from now on (answers 401 invalid_token). */
  expireJti(jti: string): Promise<void>;
  stop(): Promise<void>;
};

/** The claims of a JWT (read, not verified: the upstream verifies). */
export function claimsOf(token: string): { jti: string; client_id: string } & Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split(".")[1]!, "base64url").toString()) as { jti: string; client_id: string };
}

export const jtiOf = (token: string): string => claimsOf(token).jti;

export async function startProtectedUpstream(clients: FixtureClient[]): Promise<ProtectedUpstream> {
  const { privateKey } = await generateKeyPair("RS256", { extractable: true });
  const jwk: JWK = { ...(await exportJWK(privateKey)), kid: "upstream-idp-1", alg: "RS256", use: "sig" };
  const idpPort = await freePort();
  const issuer = `http://127.0.0.1:${String(idpPort)}`;
  const idp: ChildServer = await spawnTsServer("server/test/fixtures/oidc-provider-process.ts", [], { OIDC_PORT: String(idpPort), OIDC_JWK: JSON.stringify(jwk), OIDC_CLIENTS: JSON.stringify(clients) }, /ready/);
  const port = await freePort();
  const callLog = path.join(await tempDir("protected-upstream"), "calls.jsonl");
  let upstream: ChildServer;
  try {
    upstream = await spawnTsServer("server/test/fixtures/protected-upstream-server.ts", [], { PROTECTED_PORT: String(port), PROTECTED_ISSUER: issuer, PROTECTED_CALL_LOG: callLog }, /ready/);
  } catch (err) {
    await idp.stop();
    throw err;
  }
  const origin = `http://127.0.0.1:${String(port)}`;
  const url = `${origin}/mcp`;
  return {
    issuer,
    url,
    async token(clientId, resource = url) {
      const c = clients.find((x) => x.client_id === clientId);
      if (!c) throw new Error(`no fixture client ${clientId}`);
      const res = await fetch(`${issuer}/token`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", authorization: `Basic ${Buffer.from(`${c.client_id}:${c.client_secret}`).toString("base64")}` },
        body: new URLSearchParams({ grant_type: "client_credentials", resource, scope: c.scope }),
      });
      const body = (await res.json()) as { access_token?: string };
      if (!body.access_token) throw new Error(`the provider issued no token: ${JSON.stringify(body)}`);
      return body.access_token;
    },
    async log() {
      const text = await readFile(callLog, "utf8").catch(() => "");
      return completeJsonLines<LogLine>(text);
    },
    async expireJti(jti) {
      const res = await fetch(`${origin}/control/expire`, { method: "POST", body: JSON.stringify({ jti }) });
      if (res.status !== 204) throw new Error(`expire answered ${String(res.status)}`);
    },
    async stop() {
      await upstream.stop();
      await idp.stop();
    },
  };
}
