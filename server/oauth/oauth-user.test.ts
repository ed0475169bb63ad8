import { describe, expect, it } from "vitest";
import { oauthConfigOf, ZOAuthEnv } from "./oauth-config";
import { emailOfUserKey } from "./oauth-user";

describe("OAUTH_USER_CLAIM → the user's e-mail", () => {
  const config = oauthConfigOf(ZOAuthEnv.parse({ OAUTH_ISSUER: "https://login.example.com/realms/corp", OAUTH_USER_CLAIM: "sub" }))!;

  it.each([
    ["Alice@Corp.example", "alice@corp.example"],
    [" bob@corp.example ", "bob@corp.example"],
    ["0f8a7c2e-5d1b-4c1e-9a55-3f0e7b1d2c44", "0f8a7c2e-5d1b-4c1e-9a55-3f0e7b1d2c44@login.example.com"],
    ["00u1abcd", "00u1abcd@login.example.com"],
  ])("%j → %j", (key, email) => {
    expect(emailOfUserKey(config, key)).toBe(email);
  });
});
