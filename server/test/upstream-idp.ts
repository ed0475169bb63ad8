// Test support for issue 22's OAuth client: the upstream authorization server (fixtures/upstream-idp-process.ts)
// and the protected upstream MCP server it guards (fixtures/protected-upstream-server.ts, from upauth-calls),
// with the provider's counters and a whoami call made with a bearer token over a real MCP client.
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { exportJWK, generateKeyPair, type JWK } from "jose";
import { freePort, spawnTsServer, tempDir, type ChildServer } from "./gateway-harness";

export type IdpStats = { authorization_code: number; refresh_token: number; client_credentials: number; token_exchange: number; refused_refresh: number; revocations: number; registrations: number };
export type IdpClient = { client_id: string; client_secret?: string; grant_types: string[]; redirect_uris?: string[]; email?: string };

export type UpstreamIdp = {
  issuer: string;
  /** The protected upstream's MCP endpoint (its resource). */
  upstreamUrl: string;
  stats(): Promise<IdpStats>;
  /** Destroys every refresh token the provider issued to this account (the user revoked the app there). */
  revokeRefresh(account: string): Promise<number>;
  /** A client_credentials token of a static client, for `resource` (a subject token of token exchange, say). */
  clientToken(clientId: string, secret: string, resource: string): Promise<string>;
  stop(): Promise<void>;
};

export async function startUpstreamIdp(opts: { accounts: Record<string, { email: string }>; clients: IdpClient[]; accessTtl?: number }): Promise<UpstreamIdp> {
  const { privateKey } = await generateKeyPair("RS256", { extractable: true });
  const jwk: JWK = { ...(await exportJWK(privateKey)), kid: "upstream-idp", alg: "RS256", use: "sig" };
  const idpPort = await freePort();
  const issuer = `http://127.0.0.1:${String(idpPort)}`;
  const env = { IDP_PORT: String(idpPort), IDP_JWK: JSON.stringify(jwk), IDP_ACCOUNTS: JSON.stringify(opts.accounts), IDP_CLIENTS: JSON.stringify(opts.clients), IDP_ACCESS_TTL: String(opts.accessTtl ?? 300) };
  const idp: ChildServer = await spawnTsServer("server/test/fixtures/upstream-idp-process.ts", [], env, /ready/);
  const port = await freePort();
  let upstream: ChildServer;
  try {
    const callLog = path.join(await tempDir("upstream-idp"), "calls.jsonl");
    upstream = await spawnTsServer("server/test/fixtures/protected-upstream-server.ts", [], { PROTECTED_PORT: String(port), PROTECTED_ISSUER: issuer, PROTECTED_CALL_LOG: callLog }, /ready/);
  } catch (err) {
    await idp.stop();
    throw err;
  }
  return {
    issuer,
    upstreamUrl: `http://127.0.0.1:${String(port)}/mcp`,
    stats: async () => (await (await fetch(`${issuer}/__stats`)).json()) as IdpStats,
    revokeRefresh: async (account) => ((await (await fetch(`${issuer}/__revoke-refresh?account=${encodeURIComponent(account)}`, { method: "POST" })).json()) as { revoked: number }).revoked,
    async clientToken(clientId, secret, resource) {
      const res = await fetch(`${issuer}/token`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", authorization: `Basic ${Buffer.from(`${clientId}:${secret}`).toString("base64")}` },
        body: new URLSearchParams({ grant_type: "client_credentials", resource }),
      });
      const body = (await res.json()) as { access_token?: string };
      if (!body.access_token) throw new Error(`no token: ${JSON.stringify(body)}`);
      return body.access_token;
    },
    async stop() {
      await upstream.stop();
      await idp.stop();
    },
  };
}

/** Calls the protected upstream's `whoami` with this bearer token: whose token reached it. */
export async function whoAmI(url: string, accessToken: string): Promise<{ sub: string | null; email: string | null; client_id: string | null }> {
  const client = new Client({ name: "upstream-idp-test", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${accessToken}` } } }));
  try {
    const result = await client.callTool({ name: "whoami", arguments: {} });
    return result.structuredContent as { sub: string | null; email: string | null; client_id: string | null };
  } finally {
    await client.close();
  }
}
