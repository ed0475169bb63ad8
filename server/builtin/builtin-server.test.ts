import { describe, expect, it } from "vitest";
import { isGatewayError } from "../errors";
import { assertBuiltinChange, assertSlugNotReserved, builtinGatewayName, isBuiltinGatewayName, isBuiltinLaunch } from "./builtin-server";

const codeOf = (fn: () => void): string | undefined => {
  try {
    fn();
    return undefined;
  } catch (err) {
    return isGatewayError(err) ? err.code : "not a GatewayError";
  }
};

const builtin = { transport: "BUILTIN", slug: "portcullis" };
const upstream = { transport: "STDIO", slug: "files" };

describe("the built-in server's guards", () => {
  it.each([
    ["removing it", builtin, undefined, "builtin_server"],
    ["disabling it", builtin, { enabled: false }, "builtin_server"],
    ["a launch change", builtin, { command: "node" }, "builtin_server"],
    ["a restart", builtin, { action: "restart" }, "builtin_server"],
    ["a canary", builtin, { asCanary: true, canaryPercent: 10 }, "builtin_server"],
    ["its rate limit", builtin, { rateLimitPerMinute: 100 }, undefined],
    ["its name and timeout", builtin, { name: "Gateway", timeoutMs: 5000 }, undefined],
    ["fields left undefined", builtin, { rateLimitPerMinute: 5, enabled: undefined }, undefined],
    ["removing an upstream", upstream, undefined, undefined],
    ["disabling an upstream", upstream, { enabled: false }, undefined],
  ] as const)("%s", (_what, server, patch, code) => {
    expect(codeOf(() => assertBuiltinChange(server, patch as Record<string, unknown> | undefined))).toBe(code);
  });

  it("the slug portcullis is reserved, other slugs are not", () => {
    expect(codeOf(() => assertSlugNotReserved("portcullis"))).toBe("slug_reserved");
    expect(codeOf(() => assertSlugNotReserved("portcullis-2"))).toBeUndefined();
  });

  it("names and launches", () => {
    expect(builtinGatewayName("get_task_status")).toBe("portcullis__get_task_status");
    expect(isBuiltinGatewayName("portcullis__search_tools")).toBe(true);
    expect(isBuiltinGatewayName("files__read")).toBe(false);
    expect(isBuiltinLaunch({ transport: "BUILTIN" })).toBe(true);
    expect(isBuiltinLaunch({ transport: "STDIO", command: "x" })).toBe(false);
    expect(isBuiltinLaunch(null)).toBe(false);
  });
});
