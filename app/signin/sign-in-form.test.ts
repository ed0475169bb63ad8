import { describe, expect, it } from "vitest";
import { signInErrorMessage } from "./sign-in-form";

describe("signInErrorMessage", () => {
  it.each([
    ["CredentialsSignin", "Wrong e-mail or password."],
    ["rate_limited:1", "Too many failed sign-in attempts. Try again in 1 second."],
    ["sso:Single sign-on refused: email unverified.", "Single sign-on refused: email unverified."],
    ["OAuthCallback", "Single sign-on failed. Try again, and ask an admin if it keeps failing."],
    ["AccessDenied", "Single sign-on failed. Try again, and ask an admin if it keeps failing."],
    ["Something else", "Sign-in failed. Try again, and ask an admin if it keeps failing."],
  ])("%s → %s", (error, message) => {
    expect(signInErrorMessage(error)).toBe(message);
  });
});
