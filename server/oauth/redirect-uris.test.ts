// Redirect URIs of a client metadata document: which are acceptable at all, and which make the client native.
import { describe, expect, it } from "vitest";
import { ClientMetadataError } from "./client-metadata-error";
import { checkRedirectUris, redirectUriProblem } from "./redirect-uris";

describe("redirectUriProblem", () => {
  it.each([
    "https://app.example.com/cb",
    "https://app.example.com/cb?x=1",
    "http://127.0.0.1:33418/callback",
    "http://127.0.0.1/callback",
    "http://[::1]:8080/cb",
    "http://localhost:6274/oauth/callback",
    "com.example.app:/oauth2redirect",
  ])("accepts %s", (uri) => {
    expect(redirectUriProblem(uri)).toBeNull();
  });

  it.each([
    ["http://app.example.com/cb", "uses http://"],
    ["http://127.0.0.2/cb", "uses http://"],
    ["http://localhost.evil.com/cb", "uses http://"],
    ["https://app.example.com/cb#x", "has a fragment"],
    ["https://app.example.com/cb#", "has a fragment"],
    ["https://user:pw@app.example.com/cb", "has a user name or password"],
    ["javascript:alert(1)", "uses the scheme javascript:"],
    ["data:text/html,hi", "uses the scheme data:"],
    ["file:///etc/passwd", "uses the scheme file:"],
    ["myapp://cb", "uses the scheme myapp:"],
    ["/relative", "is not an absolute URI"],
    [`https://app.example.com/${"a".repeat(2048)}`, "longer than 2048"],
  ])("refuses %s: %s", (uri, why) => {
    expect(redirectUriProblem(uri)).toContain(why);
  });
});

describe("checkRedirectUris", () => {
  it.each([
    [["https://app.example.com/cb", "http://127.0.0.1:5000/cb"], undefined, "web"],
    [["com.example.app:/cb", "http://127.0.0.1:5000/cb"], undefined, "native"],
    [["http://localhost:5000/cb"], "native", "native"],
    [["https://app.example.com/cb"], "native", "native"],
  ])("%j with application_type %s is a %s client", (uris, declared, type) => {
    expect(checkRedirectUris(uris, declared)).toEqual({ redirect_uris: uris, application_type: type });
  });

  it.each([
    [["com.example.app:/cb"], "web", "invalid_redirect_uri", "needs application_type"],
    [["https://localhost/cb"], "native", "invalid_redirect_uri", "loopback host"],
    [["com.example.app:/cb", "https://127.0.0.1/cb"], undefined, "invalid_redirect_uri", "loopback host"],
    [["https://app.example.com/cb"], "desktop", "invalid_field", "application_type"],
    [undefined, undefined, "missing_redirect_uris", "has no redirect_uris"],
  ])("refuses %j with application_type %s: %s", (uris, declared, reason, why) => {
    const outcome = checkRedirectUris(uris, declared);
    expect(outcome).toBeInstanceOf(ClientMetadataError);
    expect(outcome).toMatchObject({
      code: "invalid_client_metadata",
      reason,
      message: expect.stringContaining(why) as unknown,
    });
  });
});
