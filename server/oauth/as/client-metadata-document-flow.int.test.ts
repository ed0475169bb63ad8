// A client identified by its metadata document (an HTTPS URL as client_id) through the embedded authorization
// server: the document is served by a real local HTTPS server (a certificate of its own, trusted by this gateway
// only) on a host only an admin allowance lets the gateway reach; the client is shown verified on the consent
// page, gets a token and calls a tool. A document that does not name its URL is refused with its reason, and the
// discovery document says metadata documents are supported.
import { createHash, randomBytes } from "node:crypto";
import https from "node:https";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { User } from "../../db/client";
import type { Resolver } from "../../net/outbound-url";
import { insertUser, userContext } from "../../test/contexts";
import { everythingServer, grantEverything, removeTempDirs, startTestGateway, type TestGateway } from "../../test/gateway-harness";
import { selfSignedCert } from "../../test/fixtures/self-signed-cert";
import { createTestDb, truncateAll } from "../../test/test-db";
import { REDIRECT_URI, TestBrowser } from "./oauth-test-client";

const ECHO = "everything__echo";

describe("embedded authorization server: clients identified by a client ID metadata document", () => {
  const db = createTestDb();
  let gw: TestGateway;
  let base = "";
  let alice: User;
  let docs: https.Server;
  let docsPort = 0;
  const documents = new Map<string, unknown>();
  let fetched = 0;

  // app.cimd.test is the local HTTPS server; only OUTBOUND_ALLOWED_HOSTS lets the gateway reach it (it is loopback).
  const resolve: Resolver = (host) =>
    host === "app.cimd.test" ? Promise.resolve([{ address: "127.0.0.1", family: 4 }]) : Promise.reject(Object.assign(new Error(`no such host ${host}`), { code: "ENOTFOUND" }));
  const clientIdAt = (path: string) => `https://app.cimd.test:${String(docsPort)}${path}`;

  const verifier = randomBytes(32).toString("base64url");
  const authorizeUrl = (clientId: string) =>
    `${base}/oauth/authorize?${new URLSearchParams({
      client_id: clientId,
      response_type: "code",
      redirect_uri: REDIRECT_URI,
      scope: "mcp",
      state: "st",
      resource: `${base}/mcp`,
      code_challenge: createHash("sha256").update(verifier).digest("base64url"),
      code_challenge_method: "S256",
    }).toString()}`;

  beforeAll(async () => {
    const { key, cert } = selfSignedCert(["DNS:app.cimd.test"]);
    docs = https.createServer({ key, cert }, (req, res) => {
      fetched++;
      const doc = documents.get(req.url ?? "");
      if (!doc) return void res.writeHead(404).end();
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(doc));
    });
    await new Promise<void>((r) => docs.listen(0, "127.0.0.1", r));
    docsPort = (docs.address() as AddressInfo).port;
    await truncateAll(db);
    alice = await insertUser(db, { email: "alice@corp.test" });
    await grantEverything(db, alice.id);
    gw = await startTestGateway({
      publicUrlIsServed: true,
      env: { SECRETS_KEY: randomBytes(32).toString("base64"), OUTBOUND_ALLOWED_HOSTS: "app.cimd.test" },
      clientDocuments: { ca: cert, resolve },
    });
    base = gw.http.url;
    const { server } = await gw.gateway.registry.register(userContext(await insertUser(db, { role: "ADMIN" })), everythingServer());
    if (server.status !== "HEALTHY") throw new Error(`everything is ${server.status}: ${server.lastError ?? ""}`);
  });

  afterAll(async () => {
    await gw?.close();
    await new Promise<void>((r) => docs?.close(() => r()));
    await db.$disconnect();
    await removeTempDirs();
  });

  it("the discovery document says client ID metadata documents are supported", async () => {
    const meta = (await (await fetch(`${base}/.well-known/oauth-authorization-server`)).json()) as Record<string, unknown>;
    expect(meta.client_id_metadata_document_supported).toBe(true);
  });

  it("a client whose document names its URL: verified on the consent page, a token for /mcp, a tool call", async () => {
    const clientId = clientIdAt("/agent/client.json");
    documents.set("/agent/client.json", { client_id: clientId, client_name: "Doc Agent", redirect_uris: [REDIRECT_URI], token_endpoint_auth_method: "none" });
    const browser = new TestBrowser();
    const { url } = await browser.follow(authorizeUrl(clientId), base);
    const uid = decodeURIComponent(/\/authorize\/([^/?]+)$/.exec(new URL(url).pathname)![1]!);
    const oauth = gw.gateway.oauthServer!;
    const request = await oauth.consent.load(uid, alice);
    expect(request).toMatchObject({ clientName: "Doc Agent", verified: true, redirectHost: "127.0.0.1:53682" });
    const decided = await oauth.consent.decide(userContext(alice), alice, uid, { decision: "allow", tools: [ECHO], csrfToken: request.csrfToken }, { origin: base, fetchSite: "same-origin" });
    const back = new URL((await browser.follow(new URL(decided.redirectTo, base).href, base)).url);
    const code = back.searchParams.get("code");
    expect(code).toBeTruthy();
    const res = await fetch(`${base}/oauth/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ grant_type: "authorization_code", code: code!, redirect_uri: REDIRECT_URI, code_verifier: verifier, client_id: clientId, resource: `${base}/mcp` }),
    });
    expect(res.status).toBe(200);
    const { access_token } = (await res.json()) as { access_token: string };
    const call = await fetch(`${base}/mcp`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", authorization: `Bearer ${access_token}` },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "doc", version: "1" } } }),
    });
    expect(call.status).toBe(200);
    const session = await db.agentSession.findUniqueOrThrow({ where: { id: decided.sessionId! } });
    expect(session).toMatchObject({ agentId: `oauth:${clientId}`, tools: [ECHO] });
  });

  it("a document that names another client_id is refused with its reason, and no consent page is reached", async () => {
    const clientId = clientIdAt("/liar/client.json");
    documents.set("/liar/client.json", { client_id: "https://someone-else.example/client.json", client_name: "Liar", redirect_uris: [REDIRECT_URI] });
    const before = fetched;
    const res = await new TestBrowser().get(authorizeUrl(clientId));
    expect(res.status).toBe(400);
    const text = await res.text();
    expect(text).toMatch(/^invalid_client_metadata: /);
    expect(text).toContain("client_id");
    expect(fetched).toBe(before + 1);
  });

  it("blocking a client whose URL is longer than an agent id holds revokes the session its consent made", async () => {
    // The session's agent id is `oauth:<client_id>` cut to 200 characters: the block must find it by the same name.
    const path = `/long/${"a".repeat(220)}/client.json`;
    const clientId = clientIdAt(path);
    documents.set(path, { client_id: clientId, client_name: "Long Agent", redirect_uris: [REDIRECT_URI], token_endpoint_auth_method: "none" });
    const browser = new TestBrowser();
    const { url } = await browser.follow(authorizeUrl(clientId), base);
    const uid = decodeURIComponent(/\/authorize\/([^/?]+)$/.exec(new URL(url).pathname)![1]!);
    const oauth = gw.gateway.oauthServer!;
    const request = await oauth.consent.load(uid, alice);
    const decided = await oauth.consent.decide(userContext(alice), alice, uid, { decision: "allow", tools: [ECHO], csrfToken: request.csrfToken }, { origin: base, fetchSite: "same-origin" });
    const admin = userContext(await insertUser(db, { role: "ADMIN" }));
    expect(await oauth.clients.block(admin, clientId)).toEqual({ clientId, blocked: true, revokedSessions: 1 });
    expect((await db.agentSession.findUniqueOrThrow({ where: { id: decided.sessionId! } })).revokedAt).not.toBeNull();
    await oauth.clients.unblock(admin, clientId);
  });

  it("a blocked document client is refused before its document is fetched; the list shows it; unblocked it reaches the consent page", async () => {
    const clientId = clientIdAt("/blocked/client.json");
    documents.set("/blocked/client.json", { client_id: clientId, client_name: "Blocked Agent", redirect_uris: [REDIRECT_URI], token_endpoint_auth_method: "none" });
    const oauth = gw.gateway.oauthServer!;
    const admin = userContext(await insertUser(db, { role: "ADMIN" }));
    expect(await oauth.clients.block(admin, clientId, "unknown vendor")).toEqual({ clientId, blocked: true, revokedSessions: 0 });
    const before = fetched;
    const res = await new TestBrowser().get(authorizeUrl(clientId));
    expect(res.status).toBe(400);
    expect(await res.text()).toMatch(/^invalid_client: .*blocked by an administrator/);
    expect(fetched).toBe(before);
    expect((await oauth.clients.list()).find((c) => c.clientId === clientId)).toMatchObject({ kind: "metadata_document", name: clientId, activeSessions: 0, blocked: { reason: "unknown vendor" } });
    await oauth.clients.unblock(admin, clientId);
    const { url } = await new TestBrowser().follow(authorizeUrl(clientId), base);
    expect(new URL(url).pathname).toMatch(/\/authorize\/[^/]+$/);
  });
});
