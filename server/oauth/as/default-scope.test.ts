// An authorization request without `scope` asks for the default scope `mcp` (RFC 6749 §3.3); one that names
// scopes is left as it is. Without the default, oidc-provider answered access_denied after the user had allowed
// (the conformance suite's authorization-code-grant scenario sends no scope: scripts/oauth-server.int.test.ts).
import { describe, expect, it } from "vitest";
import { withDefaultScope } from "./create-authorization-server";

describe("withDefaultScope", () => {
  it.each([
    ["no scope → mcp", "/oauth/authorize?client_id=a&response_type=code", "/oauth/authorize?client_id=a&response_type=code&scope=mcp"],
    ["a named scope is kept", "/oauth/authorize?client_id=a&scope=openid+mcp", "/oauth/authorize?client_id=a&scope=openid+mcp"],
    ["an empty scope is the client's own (kept)", "/oauth/authorize?client_id=a&scope=", "/oauth/authorize?client_id=a&scope="],
    ["no query at all", "/oauth/authorize", "/oauth/authorize"],
  ])("%s", (_label, url, expected) => {
    expect(withDefaultScope(url)).toBe(expected);
  });
});
