// The protected upstream fixture itself: real tokens from the real provider process, verified at the upstream.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { removeTempDirs } from "./gateway-harness";
import { jtiOf, startProtectedUpstream, type ProtectedUpstream } from "./protected-upstream";

const CLIENTS = [
  { client_id: "ann", client_secret: "ann-secret", email: "ann@corp.test", scope: "read" },
  { client_id: "ben", client_secret: "ben-secret", email: "ben@corp.test", scope: "read" },
];

describe("protected upstream fixture", () => {
  let up: ProtectedUpstream;
  const clients: Client[] = [];

  async function connect(token: string | (() => Promise<string>)): Promise<Client> {
    const bearer = typeof token === "string" ? () => Promise.resolve(token) : token;
    const transport = new StreamableHTTPClientTransport(new URL(up.url), {
      fetch: async (input, init) => {
        const headers = new Headers(init?.headers);
        headers.set("authorization", `Bearer ${await bearer()}`);
        return fetch(input, { ...init, headers });
      },
    });
    const client = new Client({ name: "fixture-test", version: "1" });
    await client.connect(transport);
    clients.push(client);
    return client;
  }

  beforeAll(async () => {
    up = await startProtectedUpstream(CLIENTS);
  });
  afterAll(async () => {
    for (const c of clients) await c.close();
    await up?.stop();
    await removeTempDirs();
  });

  it("serves RFC 9728 metadata naming the issuer and challenges a request without a token", async () => {
    const meta = (await (await fetch(new URL("/.well-known/oauth-protected-resource/mcp", up.url))).json()) as Record<string, unknown>;
    expect(meta).toMatchObject({ resource: up.url, authorization_servers: [up.issuer] });
    const res = await fetch(up.url, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toBe(`Bearer resource_metadata="${new URL("/.well-known/oauth-protected-resource/mcp", up.url).href}"`);
    const bad = await fetch(up.url, { method: "POST", headers: { "content-type": "application/json", authorization: "Bearer not.a.jwt" }, body: "{}" });
    expect(bad.status).toBe(401);
    expect(bad.headers.get("www-authenticate")).toContain('error="invalid_token"');
  });

  it("whoami answers the identity of the token, and the call log records it with its jti", async () => {
    const token = await up.token("ann");
    const client = await connect(token);
    const result = await client.callTool({ name: "whoami", arguments: {} });
    expect(result.structuredContent).toMatchObject({ sub: "ann", email: "ann@corp.test", client_id: "ann" });
    const calls = (await up.log()).filter((l) => l.event === "call");
    expect(calls.at(-1)).toMatchObject({ tool: "whoami", email: "ann@corp.test", jti: jtiOf(token) });
  });

  it("an expired token gets 401 invalid_token; a fresh one continues the same session", async () => {
    let token = await up.token("ben");
    const client = await connect(() => Promise.resolve(token));
    await up.expireJti(jtiOf(token));
    await expect(client.callTool({ name: "whoami", arguments: {} })).rejects.toThrow(/401|invalid_token|expired/i);
    expect((await up.log()).at(-1)).toMatchObject({ event: "refused", reason: "expired", jti: jtiOf(token) });
    token = await up.token("ben");
    const result = await client.callTool({ name: "whoami", arguments: {} });
    expect(result.structuredContent).toMatchObject({ email: "ben@corp.test" });
  });

  it("a session opened by one subject refuses another subject's token", async () => {
    let token = await up.token("ann");
    const client = await connect(() => Promise.resolve(token));
    token = await up.token("ben");
    await expect(client.callTool({ name: "whoami", arguments: {} })).rejects.toThrow(/belongs to another subject/);
    expect((await up.log()).at(-1)).toMatchObject({ event: "refused", reason: "session_of_another_subject" });
  });
});
