import { describe, expect, it } from "vitest";
import { ERROR_STATUS, forbidden, GatewayError, isGatewayError, notFound, type ErrorCode } from "./errors";

const EXPECTED: Record<ErrorCode, number> = {
  bad_request: 400,
  invalid_json: 400,
  invalid_tool_name: 400,
  invalid_path: 400,
  validation_failed: 422,
  unknown_secret: 422,
  isolation_unavailable: 422,
  outbound_url_refused: 422,
  unauthenticated: 401,
  invalid_token: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  headers_too_large: 431,
  conflict: 409,
  slug_reserved: 409,
  builtin_server: 409,
  definitions_blocked: 409,
  secret_in_use: 409,
  rate_limited: 429,
  upstream_capacity: 503,
  database_unavailable: 503,
  package_not_found: 422,
  package_registry_unreachable: 502,
  package_install_failed: 502,
  package_tool_missing: 422,
  upstream_unavailable: 502,
  authorization_server_unavailable: 503,
  consent_tools_not_held: 403,
  consent_forged: 403,
  oauth_client_blocked: 403,
  interaction_expired: 410,
  auth_mode_requires_http: 400,
  upstream_auth_mode_mismatch: 409,
  upstream_auth_failed: 502,
  upstream_auth_state_invalid: 400,
  upstream_auth_issuer_mismatch: 400,
  upstream_auth_denied: 400,
  virtual_server_name_taken: 409,
  virtual_name_collision: 422,
  virtual_server_blocked: 409,
  session_scope_mismatch: 403,
  internal: 500,
};

describe("GatewayError", () => {
  it("has exactly the documented codes", () => {
    expect(Object.keys(ERROR_STATUS).sort()).toEqual(Object.keys(EXPECTED).sort());
  });

  it.each(Object.entries(EXPECTED) as [ErrorCode, number][])("maps %s to HTTP %i", (code, status) => {
    const err = new GatewayError(code, "message");
    expect(err.status).toBe(status);
    expect(err.code).toBe(code);
    expect(err.name).toBe("GatewayError");
    expect(err).toBeInstanceOf(Error);
  });

  it("keeps the cause, details and Retry-After", () => {
    const cause = new Error("root");
    const err = new GatewayError("rate_limited", "slow down", { key: "k" }, { cause, retryAfterSeconds: 7 });
    expect(err.cause).toBe(cause);
    expect(err.details).toEqual({ key: "k" });
    expect(err.retryAfterSeconds).toBe(7);
    expect(new GatewayError("internal", "x")).not.toHaveProperty("cause");
  });

  it("builds not_found and forbidden with readable messages", () => {
    expect(notFound("User u1")).toMatchObject({ code: "not_found", status: 404, message: "User u1 was not found." });
    expect(forbidden()).toMatchObject({ code: "forbidden", status: 403 });
    expect(forbidden("Only admins.").message).toBe("Only admins.");
  });
});

describe("isGatewayError", () => {
  const lookAlike = Object.assign(new Error("from another bundle"), { name: "GatewayError", code: "forbidden" });
  it.each([
    ["a GatewayError", new GatewayError("conflict", "x"), true],
    ["an error from another copy of the module", lookAlike, true],
    ["a plain look-alike object", { name: "GatewayError", code: "not_found" }, true],
    ["a plain Error", new Error("x"), false],
    ["an Error with a code but another name", Object.assign(new Error("x"), { code: "ECONNREFUSED" }), false],
    ["a look-alike without a code", { name: "GatewayError" }, false],
    ["null", null, false],
    ["undefined", undefined, false],
    ["a string", "GatewayError", false],
  ])("recognises %s: %s", (_label, value, expected) => {
    expect(isGatewayError(value)).toBe(expected);
  });
});
