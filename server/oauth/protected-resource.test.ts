import { describe, expect, it } from "vitest";
import { oauthConfigOf, ZOAuthEnv } from "./oauth-config";
import { bearerChallenge, isResourceMetadataPath, metadataEndpointOf, metadataUrlOf, resourceUrlOf } from "./protected-resource";

const P = "/.well-known/oauth-protected-resource";

describe("protected resource metadata paths (RFC 9728)", () => {
  it.each([
    [`${P}/mcp`, { kind: "aggregate" }],
    [`${P}/mcp/`, { kind: "aggregate" }],
    [`${P}/mcp/code`, { kind: "code" }],
    [`${P}/mcp/code/?x=1`, { kind: "code" }],
    [`${P}/mcp/s/orders`, { kind: "server", slug: "orders" }],
    [`${P}/mcp/s/orders/`, { kind: "server", slug: "orders" }],
    [`${P}/mcp//`, null],
    [`${P}/mcp/s/`, null],
    [`${P}/other`, null],
    [P, null],
    ["/mcp", null],
  ])("%s → %j", (url, endpoint) => {
    expect(metadataEndpointOf(url)).toEqual(endpoint);
  });

  it("the prefix itself and what is under it are ours to answer; nothing else", () => {
    expect([P, `${P}/x`, `${P}x`, "/.well-known/openid-configuration"].map(isResourceMetadataPath)).toEqual([true, true, false, false]);
  });

  it("resource and metadata URLs are built from PUBLIC_URL, a trailing slash on it ignored", () => {
    expect(resourceUrlOf("https://gw.example/", { kind: "server", slug: "a-b" })).toBe("https://gw.example/mcp/s/a-b");
    expect(metadataUrlOf("https://gw.example", { kind: "code" })).toBe(`https://gw.example${P}/mcp/code`);
  });
});

describe("Bearer challenge", () => {
  const config = oauthConfigOf(ZOAuthEnv.parse({ OAUTH_ISSUER: "https://idp.example", OAUTH_REQUIRED_SCOPES: "mcp openid" }))!;

  it("names the realm, the error, the scope to ask for and the metadata", () => {
    expect(bearerChallenge(config, "https://gw.example", { kind: "aggregate" }, { error: "invalid_token" })).toBe(
      `Bearer realm="portcullis", error="invalid_token", scope="mcp openid", resource_metadata="https://gw.example${P}/mcp"`,
    );
    expect(bearerChallenge(config, "https://gw.example", { kind: "aggregate" }, { error: "insufficient_scope", scope: "orders:read" })).toContain('scope="orders:read"');
  });

  it("without OAuth it is the plain challenge it always was", () => {
    expect(bearerChallenge(null, "https://gw.example", { kind: "aggregate" })).toBe('Bearer realm="portcullis"');
  });
});

describe("OAuth configuration", () => {
  it("is off without OAUTH_ISSUER", () => {
    expect(oauthConfigOf(ZOAuthEnv.parse({}))).toBeNull();
  });

  it("has the documented defaults", () => {
    expect(oauthConfigOf(ZOAuthEnv.parse({ OAUTH_ISSUER: "https://idp.example/realms/x" }))).toMatchObject({
      audience: null,
      requiredScopes: [],
      userClaim: "email",
      defaultRole: "USER",
      clockToleranceSeconds: 30,
      algorithms: ["RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512", "EdDSA"],
    });
  });

  it.each(["none", "HS256", "RS256,HS512", ""])("refuses OAUTH_ALGORITHMS=%j: only asymmetric algorithms", (algs) => {
    expect(() => oauthConfigOf(ZOAuthEnv.parse({ OAUTH_ISSUER: "https://idp.example", OAUTH_ALGORITHMS: algs }))).toThrow(/OAUTH_ALGORITHMS/);
  });
});
