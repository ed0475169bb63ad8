import { describe, expect, it } from "vitest";
import { isAuthorizationServerPath } from "./oauth-server-paths";

describe("isAuthorizationServerPath", () => {
  it.each([
    ["/oauth/authorize?x=1", true],
    ["/oauth/token", true],
    ["/.well-known/oauth-authorization-server", true],
    // Portcullis as a client of upstream servers: answered by the console, not the embedded authorization server.
    ["/oauth/upstream/callback?state=s&code=c", false],
    ["/oauth/upstream-client.json", false],
    ["/api/v1/connections", false],
  ])("%s → %s", (url, expected) => {
    expect(isAuthorizationServerPath(url)).toBe(expected);
  });
});
