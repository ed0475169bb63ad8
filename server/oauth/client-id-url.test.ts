// Which client_id strings are client ID URLs (draft-ietf-oauth-client-id-metadata-document §3), checked on the
// string as given: the URL parser would quietly remove dot segments and credentials' traces.
import { describe, expect, it } from "vitest";
import { looksLikeClientIdUrl, parseClientIdUrl } from "./client-id-url";
import { ClientMetadataError } from "./client-metadata-error";

describe("parseClientIdUrl", () => {
  it.each([
    "https://app.example.com/oauth/client.json",
    "https://app.example.com:8443/client",
    "https://app.example.com/client?v=1",
    "https://app.example.com/a/b/",
    "https://93.184.216.34/client.json",
  ])("accepts %s", (clientId) => {
    expect(parseClientIdUrl(clientId)).toBeInstanceOf(URL);
  });

  it.each([
    ["http://app.example.com/client.json", "is not an https:// URL"],
    ["HTTPS://app.example.com/client.json", "is not an https:// URL"],
    ["app.example.com/client.json", "is not an https:// URL"],
    ["https://app.example.com", "has no path"],
    ["https://app.example.com/", "has no path"],
    ["https://app.example.com?x=1", "has no path"],
    ["https://app.example.com/client.json#frag", "has a fragment"],
    ["https://app.example.com/client.json#", "has a fragment"],
    ["https://user@app.example.com/client.json", "has a user name or password"],
    ["https://user:pw@app.example.com/client.json", "has a user name or password"],
    ["https://app.example.com/a/../client.json", '"." or ".." path segment'],
    ["https://app.example.com/./client.json", '"." or ".." path segment'],
    ["https://app.example.com/a/%2e%2E/client.json", '"." or ".." path segment'],
    ["https://app.example.com/a/..", '"." or ".." path segment'],
    ["https://app.example.com/client .json", "whitespace, control characters or a backslash"],
    ["https://app.example.com/client\u0000.json", "whitespace, control characters or a backslash"],
    ["https://app.example.com\\client.json", "whitespace, control characters or a backslash"],
    [`https://app.example.com/${"a".repeat(2100)}`, "longer than 2048"],
    ["https://[::1/client.json", "is not a valid URL"],
  ])("refuses %s: %s", (clientId, why) => {
    const err = parseClientIdUrl(clientId);
    expect(err).toBeInstanceOf(ClientMetadataError);
    expect(err).toMatchObject({
      code: "invalid_client",
      reason: "invalid_client_id_url",
      message: expect.stringContaining(why) as unknown,
    });
  });
});

describe("looksLikeClientIdUrl", () => {
  it("tells a URL client_id from a registered one", () => {
    expect(looksLikeClientIdUrl("https://app.example.com/client.json")).toBe(true);
    expect(looksLikeClientIdUrl("HTTPS://app.example.com/client.json")).toBe(true);
    expect(looksLikeClientIdUrl("pcs-client-4f2a")).toBe(false);
    expect(looksLikeClientIdUrl("http://app.example.com/client.json")).toBe(false);
  });
});
