import { describe, expect, it } from "vitest";
import { parseScopeTools, scopeReaching, toolsForScopes } from "./scope-tools";

describe("OAUTH_SCOPE_TOOLS", () => {
  const map = parseScopeTools("orders:read=orders__get_*, orders__list_*; admin=*; orders:read=orders__count");

  it("parses scope=pattern,… entries, merging a scope named twice", () => {
    expect([...map]).toEqual([
      ["orders:read", ["orders__get_*", "orders__list_*", "orders__count"]],
      ["admin", ["*"]],
    ]);
  });

  it.each(["orders:read", "=x", "a b=x", "scope="])("refuses %j with the entry named", (spec) => {
    expect(() => parseScopeTools(spec)).toThrow(/OAUTH_SCOPE_TOOLS/);
  });

  it.each([
    [[], []],
    [["orders:read"], ["orders__get_*", "orders__list_*", "orders__count"]],
    [["unknown", "admin"], ["*"]],
  ])("scopes %j reach %j", (scopes, tools) => {
    expect(toolsForScopes(map, scopes)).toEqual(tools);
  });

  it("without a mapping, scopes do not narrow the tools", () => {
    expect(toolsForScopes(parseScopeTools(""), [])).toEqual(["*"]);
  });

  it.each([
    ["orders__get_order", "orders:read"],
    ["files__read_file", "admin"],
  ])("%s is reached by the first scope mapping to it: %s", (tool, scope) => {
    expect(scopeReaching(map, tool)).toBe(scope);
  });

  it("a tool no scope maps to needs no step-up scope", () => {
    expect(scopeReaching(parseScopeTools("a=x__*"), "y__z")).toBeUndefined();
  });
});
