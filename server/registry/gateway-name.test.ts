import { describe, expect, it } from "vitest";
import { GatewayError } from "../errors";
import { invalidToolNameReason, MAX_GATEWAY_NAME_CHARS, parseGatewayName, printableToolName, toGatewayName, ZServerSlug } from "./gateway-name";

describe("toGatewayName / parseGatewayName", () => {
  it.each<[string, string, string]>([
    ["github", "create_issue", "github__create_issue"],
    ["orders-db", "query", "orders-db__query"],
    ["0x", "a", "0x__a"],
    ["a", "tool.with-dots_and-dashes", "a__tool.with-dots_and-dashes"],
    ["s3", "CamelCaseTool", "s3__CamelCaseTool"],
    ["a", "double__underscore", "a__double__underscore"],
    ["a", "_leading", "a___leading"],
    ["a".repeat(63), "t", `${"a".repeat(63)}__t`],
    ["a", "x".repeat(128), `a__${"x".repeat(128)}`],
  ])("%s + %s ⇄ %s", (slug, tool, name) => {
    expect(toGatewayName(slug, tool)).toBe(name);
    expect(parseGatewayName(name)).toEqual({ slug, tool });
  });

  it.each<[string, string]>([
    ["no separator", "github_create_issue"],
    ["an empty string", ""],
    ["only the separator", "__"],
    ["an empty slug", "__create_issue"],
    ["an empty tool", "github__"],
    ["an upper-case slug", "GitHub__create_issue"],
    ["an all-caps slug", "GITHUB__create_issue"],
    ["a Cyrillic look-alike in the slug", "gіthub__create_issue"],
    ["a Cyrillic look-alike in the tool", "github__сreate_issue"],
    ["a full-width letter", "ｇithub__create_issue"],
    ["a slug starting with a hyphen", "-github__x"],
    ["an underscore in the slug", "git_hub__x"],
    ["a 64-character slug", `${"a".repeat(64)}__x`],
    ["a 129-character tool", `a__${"x".repeat(129)}`],
    ["a space in the tool", "github__create issue"],
    ["a slash in the tool", "github__issues/create"],
    ["a trailing newline", "github__x\n"],
    ["a leading space", " github__x"],
    ["a zero-width space", "github\u200b__x"],
  ])("rejects %s", (_label, name) => {
    expect(parseGatewayName(name)).toBeNull();
  });

  it.each<[string, string, RegExp]>([
    ["GitHub", "x", /not a valid server slug/],
    ["", "x", /not a valid server slug/],
    ["git_hub", "x", /not a valid server slug/],
    ["github", "", /tool name "" is not/],
    ["github", "create issue", /tool name "create issue" is not/],
    ["github", "tооl", /is not 1–128 characters/],
  ])("toGatewayName(%j, %j) throws", (slug, tool, message) => {
    expect(() => toGatewayName(slug, tool)).toThrow(GatewayError);
    expect(() => toGatewayName(slug, tool)).toThrow(message);
  });
});

describe("ZServerSlug", () => {
  it.each(["github", "orders-db", "a", "9", "a-", "x".repeat(63)])("accepts %j", (slug) => {
    expect(ZServerSlug.parse(slug)).toBe(slug);
  });

  it.each(["", "GitHub", "-a", "a_b", "a b", "a.b", "ä", "x".repeat(64), " github"])(
    "rejects %j with a message saying what is allowed",
    (slug) => {
      const result = ZServerSlug.safeParse(slug);
      expect(result.success).toBe(false);
      expect(result.error?.issues[0]?.message).toMatch(/lower-case letters a–z, digits and hyphens/);
    },
  );
});

describe("invalidToolNameReason / printableToolName", () => {
  it.each([
    ["acme__whoami", null, "acme__whoami"],
    ["ACME__who.am-i_2", null, "ACME__who.am-i_2"],
    ["", "is empty", ""],
    ["acme__echo\u0000", "contains U+0000", "acme__echo\\u0000"],
    ["acme__echo\r\nx", "contains U+000D", "acme__echo\\u000d\\u000ax"],
    ["acme__\u202eohce", "contains U+202E", "acme__\\u202eohce"],
    ["acme__\ud800", "contains U+D800", "acme__\\ud800"],
    ["acme__\u{1f600}", "contains U+1F600", "acme__\\u{1f600}"],
    ["acme__who ami", "contains U+0020", "acme__who ami"],
    ["x".repeat(MAX_GATEWAY_NAME_CHARS), null, "x".repeat(MAX_GATEWAY_NAME_CHARS)],
    ["x".repeat(MAX_GATEWAY_NAME_CHARS + 1), "is 194 characters long", `${"x".repeat(MAX_GATEWAY_NAME_CHARS)}…`],
  ])("%j: %s, shown as %j", (name, reason, shown) => {
    const why = invalidToolNameReason(name);
    if (reason === null) expect(why).toBeNull();
    else expect(why).toContain(reason);
    expect(printableToolName(name)).toBe(shown);
  });

  it("a tool name on /mcp/s/<server> has at most 128 characters", () => {
    expect(invalidToolNameReason("x".repeat(128), 128)).toBeNull();
    expect(invalidToolNameReason("x".repeat(129), 128)).toMatch(/at most 128/);
  });
});
