// Client ID metadata documents fetched from a real local HTTPS server (its own self-signed certificate, trusted by
// these tests only). The server counts the requests of each path, so a refusal is shown to send nothing and the
// cache to fetch once. Host names are answered by an injected resolver, as the outbound guard allows: *.cimd.test
// is the local server, which only an admin allowance (OUTBOUND_ALLOWED_HOSTS) lets the gateway reach.
import https from "node:https";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import Provider, { type Adapter, type AdapterPayload } from "oidc-provider";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { OutboundPolicy, Resolver } from "../net/outbound-url";
import { selfSignedCert } from "../test/fixtures/self-signed-cert";
import { createClientMetadataCache, type ClientMetadataCacheSettings } from "./client-metadata-cache";
import {
  createClientMetadataDocumentResolver,
  resolveClientMetadataDocument,
  type ClientMetadataDocumentDeps,
} from "./client-metadata-document";
import { ClientMetadataError } from "./client-metadata-error";

type Handler = (req: IncomingMessage, res: ServerResponse) => void;
const routes = new Map<string, Handler>();
const hits = new Map<string, number>();
const dripping = new Set<NodeJS.Timeout>();
let server: https.Server;
let port = 0;
let cert = "";

const resolver: Resolver = (host) => {
  const address = host.endsWith(".cimd.test")
    ? "127.0.0.1"
    : host === "internal.example.com"
      ? "10.0.0.7"
      : host === "sneaky.example.com"
        ? "127.0.0.1"
        : null;
  return address
    ? Promise.resolve([{ address, family: 4 }])
    : Promise.reject(Object.assign(new Error(`no such host ${host}`), { code: "ENOTFOUND" }));
};
const ALLOWED: OutboundPolicy = { allowedHosts: ["app.cimd.test", "127.0.0.1"] };
const CACHE: ClientMetadataCacheSettings = {
  minSeconds: 60,
  maxSeconds: 24 * 3600,
  defaultSeconds: 300,
  failureSeconds: 30,
  maxEntries: 1000,
};

function deps(over: Partial<ClientMetadataDocumentDeps> & { now?: () => number } = {}): ClientMetadataDocumentDeps {
  const { now, ...rest } = over;
  return {
    policy: ALLOWED,
    resolve: resolver,
    ca: cert,
    timeoutMs: 5_000,
    maxBytes: 5 * 1024,
    cache: createClientMetadataCache(CACHE, now),
    ...rest,
  };
}

const urlOf = (path: string, host = "app.cimd.test") => `https://${host}:${String(port)}${path}`;
/** Serves `body` at `path` (a JSON object is the document) and returns the client_id URL of it. */
function serve(path: string, body: Record<string, unknown> | string, headers: Record<string, string> = {}): string {
  routes.set(path, (_req, res) => {
    const text = typeof body === "string" ? body : JSON.stringify(body);
    res.writeHead(200, { "content-type": "application/json", ...headers }).end(text);
  });
  return urlOf(path);
}
const documentFor = (clientId: string, extra: Record<string, unknown> = {}) => ({
  client_id: clientId,
  client_name: "Test Agent",
  redirect_uris: ["http://127.0.0.1:33418/callback"],
  ...extra,
});

async function refusal(clientId: string, d: ClientMetadataDocumentDeps = deps()): Promise<ClientMetadataError> {
  const outcome = await resolveClientMetadataDocument(clientId, d);
  if (!(outcome instanceof ClientMetadataError))
    throw new Error(`expected ${clientId} to be refused, got ${JSON.stringify(outcome)}`);
  return outcome;
}

beforeAll(async () => {
  const tls = selfSignedCert(["DNS:*.cimd.test", "IP:127.0.0.1"]);
  cert = tls.cert;
  server = https.createServer({ key: tls.key, cert: tls.cert }, (req, res) => {
    const path = (req.url ?? "").split("?")[0] ?? "";
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const handler = routes.get(path);
    if (handler) handler(req, res);
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  for (const timer of dripping) clearInterval(timer);
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe("resolveClientMetadataDocument – a valid document", () => {
  it("returns the client's metadata in oidc-provider's shape, verified, from a host an admin allowed", async () => {
    const clientId = urlOf("/valid.json");
    serve(
      "/valid.json",
      documentFor(clientId, {
        logo_uri: "https://app.cimd.test/logo.png",
        client_uri: "https://app.cimd.test/",
        grant_types: ["authorization_code", "refresh_token"],
        contacts: ["x@y.z"],
        unknown_member: 1,
      }),
    );
    expect(await resolveClientMetadataDocument(clientId, deps())).toEqual({
      client_id: clientId,
      client_name: "Test Agent",
      logo_uri: "https://app.cimd.test/logo.png",
      client_uri: "https://app.cimd.test/",
      redirect_uris: ["http://127.0.0.1:33418/callback"],
      application_type: "web",
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
      verified: true,
    });
  });

  it("accepts private_key_jwt with a jwks_uri, and an allowed IP literal", async () => {
    const clientId = urlOf("/jwt.json", "127.0.0.1");
    serve(
      "/jwt.json",
      documentFor(clientId, {
        token_endpoint_auth_method: "private_key_jwt",
        jwks_uri: "https://app.cimd.test/jwks.json",
      }),
    );
    expect(await resolveClientMetadataDocument(clientId, deps())).toMatchObject({
      client_id: clientId,
      token_endpoint_auth_method: "private_key_jwt",
      jwks_uri: "https://app.cimd.test/jwks.json",
      verified: true,
    });
  });
});

describe("resolveClientMetadataDocument – with oidc-provider", () => {
  it("returns metadata that oidc-provider takes as a client from its adapter's find, web and native alike", async () => {
    const web = serve(
      "/op-web.json",
      documentFor(urlOf("/op-web.json"), { logo_uri: "https://app.cimd.test/logo.png" }),
    );
    const native = serve(
      "/op-native.json",
      documentFor(urlOf("/op-native.json"), { redirect_uris: ["com.example.agent:/callback", "http://[::1]/cb"] }),
    );
    const jwt = urlOf("/op-jwt.json");
    serve(
      "/op-jwt.json",
      documentFor(jwt, { token_endpoint_auth_method: "private_key_jwt", jwks_uri: "https://app.cimd.test/jwks.json" }),
    );
    const d = deps();
    // The shape the authorization server's adapter will hand over: the metadata, `verified` kept aside.
    class DocumentAdapter implements Adapter {
      constructor(readonly name: string) {}
      async find(id: string): Promise<AdapterPayload | undefined> {
        if (this.name !== "Client") return undefined;
        const outcome = await resolveClientMetadataDocument(id, d);
        if (outcome instanceof ClientMetadataError) throw outcome;
        const { verified: _verified, ...metadata } = outcome;
        return metadata;
      }
      upsert = () => Promise.resolve();
      findByUserCode = () => Promise.resolve(undefined);
      findByUid = () => Promise.resolve(undefined);
      consume = () => Promise.resolve();
      destroy = () => Promise.resolve();
      revokeByGrantId = () => Promise.resolve();
    }
    const provider = new Provider("https://gateway.test", { adapter: DocumentAdapter });
    expect(await provider.Client.find(web)).toMatchObject({
      clientId: web,
      applicationType: "web",
      redirectUris: ["http://127.0.0.1:33418/callback"],
      tokenEndpointAuthMethod: "none",
      logoUri: "https://app.cimd.test/logo.png",
    });
    expect(await provider.Client.find(native)).toMatchObject({
      clientId: native,
      applicationType: "native",
      redirectUris: ["com.example.agent:/callback", "http://[::1]/cb"],
    });
    expect(await provider.Client.find(jwt)).toMatchObject({
      clientId: jwt,
      tokenEndpointAuthMethod: "private_key_jwt",
      jwksUri: "https://app.cimd.test/jwks.json",
    });
  });
});

describe("resolveClientMetadataDocument – documents that do not identify the client", () => {
  it("refuses a document naming another client_id (exact string comparison, no normalization)", async () => {
    const clientId = serve("/mismatch.json", documentFor(urlOf("/other.json")));
    expect(await refusal(clientId)).toMatchObject({ code: "invalid_client_metadata", reason: "client_id_mismatch" });
    const upperCase = serve("/case.json", documentFor(urlOf("/case.json", "APP.cimd.test")));
    expect(await refusal(upperCase)).toMatchObject({ reason: "client_id_mismatch" });
  });

  it("refuses a document without redirect_uris", async () => {
    const clientId = urlOf("/no-redirects.json");
    serve("/no-redirects.json", { client_id: clientId, client_name: "No redirects" });
    expect(await refusal(clientId)).toMatchObject({ code: "invalid_client_metadata", reason: "missing_redirect_uris" });
  });

  it("refuses a shared-secret auth method and a client_secret", async () => {
    const basic = urlOf("/basic.json");
    serve("/basic.json", documentFor(basic, { token_endpoint_auth_method: "client_secret_basic" }));
    expect(await refusal(basic)).toMatchObject({ reason: "forbidden_auth_method" });
    const secret = urlOf("/secret.json");
    serve("/secret.json", documentFor(secret, { client_secret: "s3cret" }));
    expect(await refusal(secret)).toMatchObject({ reason: "client_secret_present" });
  });

  it("refuses bad JSON, a NUL (raw or escaped) and a lone surrogate, each with its reason", async () => {
    expect(await refusal(serve("/bad.json", '{"client_id": '))).toMatchObject({
      code: "invalid_client_metadata",
      reason: "invalid_json",
    });
    expect(
      await refusal(serve("/raw-nul.json", `{"client_id":"${urlOf("/raw-nul.json")}","client_name":"a\u0000b"}`)),
    ).toMatchObject({ reason: "invalid_json" });
    const escapedNul = urlOf("/nul.json");
    serve(
      "/nul.json",
      `{"client_id":"${escapedNul}","client_name":"a\\u0000b","redirect_uris":["https://app.cimd.test/cb"]}`,
    );
    expect(await refusal(escapedNul)).toMatchObject({
      reason: "invalid_characters",
      message: expect.stringContaining("$.client_name") as unknown,
    });
    const surrogate = urlOf("/surrogate.json");
    serve(
      "/surrogate.json",
      `{"client_id":"${surrogate}","client_name":"a\\ud800b","redirect_uris":["https://app.cimd.test/cb"]}`,
    );
    expect(await refusal(surrogate)).toMatchObject({ reason: "invalid_characters" });
    expect(await refusal(serve("/array.json", "[]"))).toMatchObject({ reason: "not_an_object" });
  });

  it("refuses a document that is not served as application/json, or not with 200", async () => {
    const html = urlOf("/html.json");
    serve("/html.json", documentFor(html), { "content-type": "text/html" });
    expect(await refusal(html)).toMatchObject({ code: "invalid_client", reason: "content_type" });
    expect(await refusal(urlOf("/missing.json"))).toMatchObject({ code: "invalid_client", reason: "http_status" });
  });
});

describe("resolveClientMetadataDocument – the SSRF guard", () => {
  it.each([
    ["loopback IPv4", "127.0.0.1"],
    ["loopback IPv6", "[::1]"],
    ["cloud metadata", "169.254.169.254"],
    ["decimal loopback", "2130706433"],
    ["IPv4-mapped loopback", "[::ffff:127.0.0.1]"],
    ["IPv4-mapped metadata", "[::ffff:a9fe:a9fe]"],
    ["a public name resolving to a private address", "internal.example.com"],
    ["a public name resolving to the local test server", "sneaky.example.com"],
  ])("refuses a document on %s (%s) without sending anything", async (_what, host) => {
    hits.delete("/guarded.json");
    const clientId = urlOf("/guarded.json", host);
    routes.set("/guarded.json", (_req, res) =>
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(documentFor(clientId))),
    );
    const err = await refusal(clientId, deps({ policy: { allowedHosts: [] } }));
    expect(err).toMatchObject({
      code: "invalid_client",
      reason: "forbidden_address",
      message: expect.stringContaining("OUTBOUND_ALLOWED_HOSTS") as unknown,
    });
    expect(hits.get("/guarded.json")).toBeUndefined();
  });

  it("refuses a 302 to 169.254.169.254 without following it", async () => {
    routes.set("/redirect.json", (_req, res) =>
      res.writeHead(302, { location: "http://169.254.169.254/latest/meta-data/" }).end(),
    );
    const err = await refusal(urlOf("/redirect.json"));
    expect(err).toMatchObject({
      code: "invalid_client",
      reason: "redirect",
      message: expect.stringContaining("169.254.169.254") as unknown,
    });
    expect(hits.get("/redirect.json")).toBe(1);
  });

  it("refuses a non-https client_id before fetching", async () => {
    expect(await refusal(`http://app.cimd.test:${String(port)}/doc.json`)).toMatchObject({
      code: "invalid_client",
      reason: "invalid_client_id_url",
    });
    expect(hits.get("/doc.json")).toBeUndefined();
  });
});

describe("resolveClientMetadataDocument – size and time limits", () => {
  it("refuses a declared Content-Length over the limit before reading any of the body", async () => {
    // The body never comes: reading it would end in a timeout, not in too_large.
    const closed = new Promise<void>((resolve) =>
      routes.set("/declared.json", (_req, res) => {
        res.on("close", resolve);
        res.writeHead(200, { "content-type": "application/json", "content-length": "6000" });
        res.write("{");
      }),
    );
    expect(await refusal(urlOf("/declared.json"))).toMatchObject({ code: "invalid_client", reason: "too_large" });
    await closed; // and the connection is dropped, not left open
  }, 5_000); // the server would hold the connection for a minute; the gateway must drop it at once

  it("stops reading an undeclared body at the first chunk past the limit (the server never ends it)", async () => {
    routes.set("/chunked.json", (_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.write(`{"client_name":"${"x".repeat(6000)}`);
    });
    expect(await refusal(urlOf("/chunked.json"))).toMatchObject({ reason: "too_large" });
  });

  it("cuts a document dripped byte by byte at the total time limit", async () => {
    const closed = new Promise<void>((resolve) =>
      routes.set("/drip.json", (_req, res) => {
        res.writeHead(200, { "content-type": "application/json" });
        // A byte every 10 ms forever: no idle timeout would fire, only the total deadline.
        const timer = setInterval(() => res.write(" "), 10);
        dripping.add(timer);
        res.on("close", () => (clearInterval(timer), resolve()));
      }),
    );
    const err = await refusal(urlOf("/drip.json"), deps({ timeoutMs: 300 }));
    expect(err).toMatchObject({
      code: "invalid_client",
      reason: "timeout",
      message: expect.stringContaining("300 ms") as unknown,
    });
    await closed; // the gateway hung up: the server is not left dripping into an open socket
  }, 5_000); // well past the 300 ms deadline, well short of the server's own one-minute timeouts

  it("counts a resolver that never answers against the same deadline", async () => {
    const err = await refusal(
      urlOf("/never.json", "slow-dns.example.com"),
      deps({ timeoutMs: 100, resolve: () => new Promise(() => undefined) }),
    );
    expect(err).toMatchObject({ reason: "timeout" });
  });
});

describe("resolveClientMetadataDocument – the cache", () => {
  it("serves a second resolution from the cache (the resolver the composition root builds)", async () => {
    const clientId = serve("/cached.json", documentFor(urlOf("/cached.json")));
    const resolveClient = createClientMetadataDocumentResolver(
      { timeoutMs: 5_000, maxBytes: 5 * 1024, cache: CACHE },
      ALLOWED,
      { resolve: resolver, ca: cert },
    );
    const first = await resolveClient(clientId);
    expect(first).toMatchObject({ client_id: clientId, verified: true });
    expect(await resolveClient(clientId)).toBe(first);
    expect(hits.get("/cached.json")).toBe(1);
  });

  it("keeps a document for its max-age, held within the minimum and maximum", async () => {
    let now = 1_000_000;
    const clock = () => now;
    const twoMinutes = serve("/max-age.json", documentFor(urlOf("/max-age.json")), {
      "cache-control": "public, max-age=120",
    });
    const noStore = serve("/no-store.json", documentFor(urlOf("/no-store.json")), { "cache-control": "no-store" });
    const forever = serve("/forever.json", documentFor(urlOf("/forever.json")), {
      "cache-control": "max-age=31536000",
    });
    const d = deps({ now: clock });
    for (const id of [twoMinutes, noStore, forever]) await resolveClientMetadataDocument(id, d);
    const count = () => [hits.get("/max-age.json"), hits.get("/no-store.json"), hits.get("/forever.json")];

    now += 59_000;
    for (const id of [twoMinutes, noStore, forever]) await resolveClientMetadataDocument(id, d);
    expect(count()).toEqual([1, 1, 1]); // no-store still lives the 60 s minimum
    now += 2_000;
    for (const id of [twoMinutes, noStore, forever]) await resolveClientMetadataDocument(id, d);
    expect(count()).toEqual([1, 2, 1]);
    now += 59_500;
    for (const id of [twoMinutes, noStore, forever]) await resolveClientMetadataDocument(id, d);
    expect(count()).toEqual([2, 2, 1]); // 120.5 s after the first fetch, 59.5 s after no-store's second
    now = 1_000_000 + 24 * 3600 * 1000 + 1_000;
    await resolveClientMetadataDocument(forever, d);
    expect(count()[2]).toBe(2); // a year's max-age is held to 24 h
  });

  it("shares one fetch among 20 concurrent resolutions of one URL", async () => {
    const clientId = urlOf("/flight.json");
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => (release = resolve));
    routes.set("/flight.json", (_req, res) => {
      void released.then(() =>
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(documentFor(clientId))),
      );
    });
    const d = deps();
    const all = Promise.all(Array.from({ length: 20 }, () => resolveClientMetadataDocument(clientId, d)));
    // The server holds its answer until the request arrived; all 20 resolutions are waiting by then.
    await waitFor(() => hits.get("/flight.json") === 1, server);
    release();
    const outcomes = await all;
    expect(outcomes.every((o) => !(o instanceof ClientMetadataError) && o.client_id === clientId)).toBe(true);
    expect(hits.get("/flight.json")).toBe(1);
  });

  it("remembers a failure briefly, then fetches again", async () => {
    let now = 5_000_000;
    const clientId = urlOf("/flaky.json");
    routes.set("/flaky.json", (_req, res) => res.writeHead(500).end());
    const d = deps({ now: () => now });
    const first = await refusal(clientId, d);
    expect(first).toMatchObject({ reason: "http_status" });
    serve("/flaky.json", documentFor(clientId));
    expect(await refusal(clientId, d)).toBe(first);
    expect(hits.get("/flaky.json")).toBe(1);
    now += 31_000;
    expect(await resolveClientMetadataDocument(clientId, d)).toMatchObject({ client_id: clientId, verified: true });
    expect(hits.get("/flaky.json")).toBe(2);
  });
});

/** Resolves once `done()` holds, checked at each request the server receives. */
function waitFor(done: () => boolean, on: https.Server): Promise<void> {
  if (done()) return Promise.resolve();
  return new Promise((resolve) => {
    const check = () => {
      if (!done()) return;
      on.off("request", check);
      resolve();
    };
    on.on("request", check);
  });
}
