import { describe, expect, it } from "vitest";
import { ZCreateApiToken, ZCreateUser, ZPageQuery, ZUpdateServer, ZUpdateTool, ZUpdateUser, ZUserListQuery } from "./schemas";

function issuePaths(result: { success: boolean; error?: { issues: { path: PropertyKey[]; code: string }[] } }) {
  expect(result.success).toBe(false);
  return result.error!.issues.map((i) => `${i.code}@${i.path.join(".")}`);
}

describe("ZCreateUser", () => {
  it("trims and lower-cases the e-mail and defaults the role to USER", () => {
    expect(ZCreateUser.parse({ email: "  Alice.Smith@Example.COM \n" })).toEqual({
      email: "alice.smith@example.com",
      role: "USER",
    });
  });

  it("keeps a name, role and password", () => {
    expect(ZCreateUser.parse({ email: "b@x.io", name: "  Bob ", role: "APPROVER", password: "longenough" })).toEqual({
      email: "b@x.io",
      name: "Bob",
      role: "APPROVER",
      password: "longenough",
    });
  });

  it.each([
    ["a string without @", { email: "not-an-email" }, "email"],
    ["an empty e-mail", { email: "   " }, "email"],
    ["a missing e-mail", {}, "email"],
    ["a 7-character password", { email: "a@b.io", password: "1234567" }, "password"],
    ["an unknown role", { email: "a@b.io", role: "ROOT" }, "role"],
  ])("rejects %s", (_label, input, field) => {
    const res = ZCreateUser.safeParse(input);
    expect(issuePaths(res).some((p) => p.endsWith(`@${field}`))).toBe(true);
  });

  it("rejects unknown keys (strict), so a client cannot smuggle fields in", () => {
    const res = ZCreateUser.safeParse({ email: "a@b.io", passwordHash: "x", disabled: true });
    expect(issuePaths(res)).toContain("unrecognized_keys@");
  });
});

describe("ZUpdateUser", () => {
  it("rejects an empty patch", () => {
    const res = ZUpdateUser.safeParse({});
    expect(res.success).toBe(false);
    expect(res.error?.issues[0]?.message).toMatch(/at least one field/);
  });

  it.each([[{ disabled: true }], [{ role: "ADMIN" }], [{ name: null }], [{ password: "new password" }]])(
    "accepts a single-field patch %o",
    (patch) => {
      expect(ZUpdateUser.safeParse(patch).success).toBe(true);
    },
  );

  it.each([
    ["an unknown key", { email: "x@y.z" }],
    ["a short password", { password: "short" }],
    ["a non-boolean disabled", { disabled: "yes" }],
  ])("rejects %s", (_label, patch) => {
    expect(ZUpdateUser.safeParse(patch).success).toBe(false);
  });
});

describe("ZCreateApiToken and ZPageQuery", () => {
  it("defaults a token's name and bounds its lifetime", () => {
    expect(ZCreateApiToken.parse({})).toEqual({ name: "api" });
    expect(ZCreateApiToken.safeParse({ expiresInDays: 0 }).success).toBe(false);
    expect(ZCreateApiToken.safeParse({ expiresInDays: 3651 }).success).toBe(false);
  });

  it("coerces the page size from a query string and bounds it", () => {
    expect(ZPageQuery.parse({ limit: "20" })).toEqual({ limit: 20 });
    expect(ZPageQuery.parse({})).toEqual({ limit: 50 });
    expect(ZPageQuery.safeParse({ limit: "0" }).success).toBe(false);
    expect(ZPageQuery.safeParse({ limit: "201" }).success).toBe(false);
  });
});

describe("rate-limit overrides (ZUpdateServer, ZUpdateTool)", () => {
  it.each([[1], [600], [1_000_000], [null]])("accepts rateLimitPerMinute %j (null clears it)", (rateLimitPerMinute) => {
    expect(ZUpdateServer.parse({ rateLimitPerMinute })).toEqual({ rateLimitPerMinute });
    expect(ZUpdateTool.parse({ rateLimitPerMinute })).toEqual({ rateLimitPerMinute });
  });

  it.each([[0], [-5], [1.5], ["60"], [1_000_001]])("rejects rateLimitPerMinute %j", (rateLimitPerMinute) => {
    expect(ZUpdateServer.safeParse({ rateLimitPerMinute }).success).toBe(false);
    expect(ZUpdateTool.safeParse({ rateLimitPerMinute }).success).toBe(false);
  });
});

describe("ZUserListQuery", () => {
  it("takes a trimmed search text", () => {
    expect(ZUserListQuery.parse({ q: "  Ada " })).toEqual({ limit: 50, q: "Ada" });
    expect(ZUserListQuery.parse({})).toEqual({ limit: 50 });
  });

  it.each([
    ["a NUL", "ada\u0000", "search_control_character"],
    ["a line break", "ada\nbob", "search_control_character"],
    ["a lone high surrogate", "ada\ud800", "search_invalid_unicode"],
    ["a lone low surrogate", "\udc00ada", "search_invalid_unicode"],
  ])("refuses %s with a stable code", (_label, q, code) => {
    const parsed = ZUserListQuery.safeParse({ q });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((i) => (i as { params?: { code?: string } }).params?.code)).toEqual([code]);
  });

  it("refuses a search longer than an e-mail address can be", () => {
    expect(ZUserListQuery.safeParse({ q: "a".repeat(255) }).success).toBe(false);
    expect(ZUserListQuery.safeParse({ q: "a".repeat(254) }).success).toBe(true);
  });
});
