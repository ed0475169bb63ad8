// OpenID discovery against real HTTP servers on loopback: what an operator's misconfigured or hostile issuer
// can answer, each refused with a message naming what is wrong.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { fetchIssuerMetadata } from "./fetch-issuer-metadata";

const servers: http.Server[] = [];

/** An issuer whose discovery path answers with `answer(issuerUrl)`; null: never answers. */
async function issuer(answer: ((self: string) => { status?: number; body: string }) | null): Promise<string> {
  let self = "";
  const server = http.createServer((req, res) => {
    if (!answer) return; // holds the request open
    const { status = 200, body } = answer(self);
    res.writeHead(req.url === "/.well-known/openid-configuration" ? status : 404, { "content-type": "application/json" }).end(body);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  self = `http://127.0.0.1:${String((server.address() as AddressInfo).port)}`;
  return self;
}

afterEach(async () => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise((resolve) => s.close(resolve));
  }
});

describe("fetchIssuerMetadata", () => {
  it("reads issuer and jwks_uri", async () => {
    const url = await issuer((self) => ({ body: JSON.stringify({ issuer: self, jwks_uri: `${self}/jwks`, token_endpoint: `${self}/token` }) }));
    expect(await fetchIssuerMetadata(url)).toEqual({ issuer: url, jwks_uri: `${url}/jwks` });
  });

  it("refuses a document naming another issuer", async () => {
    const url = await issuer(() => ({ body: JSON.stringify({ issuer: "https://elsewhere.example", jwks_uri: "https://elsewhere.example/jwks" }) }));
    await expect(fetchIssuerMetadata(url)).rejects.toThrow(/names the issuer https:\/\/elsewhere.example/);
  });

  it("refuses a document without a usable jwks_uri", async () => {
    const url = await issuer((self) => ({ body: JSON.stringify({ issuer: self, jwks_uri: "file:///etc/passwd" }) }));
    await expect(fetchIssuerMetadata(url)).rejects.toThrow(/no usable jwks_uri/);
  });

  it("refuses an answer larger than the limit without reading it all", async () => {
    const url = await issuer((self) => ({ body: JSON.stringify({ issuer: self, jwks_uri: `${self}/jwks`, padding: "x".repeat(300_000) }) }));
    await expect(fetchIssuerMetadata(url)).rejects.toThrow(/larger than 262144 bytes/);
  });

  it("refuses an error status", async () => {
    const url = await issuer(() => ({ status: 500, body: "{}" }));
    await expect(fetchIssuerMetadata(url)).rejects.toThrow(/answered 500/);
  });

  it("gives up on an issuer that does not answer within the timeout", async () => {
    const url = await issuer(null);
    await expect(fetchIssuerMetadata(url, { timeoutMs: 200 })).rejects.toThrow(/timeout|aborted/i);
  });
});
