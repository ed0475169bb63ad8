// The clientId of POST /api/v1/oauth/clients/block and /unblock: each bad value is refused with its own code
// (the route answers 422 validation_failed with the code in details); good ids, URLs included, pass as given.
import { describe, expect, it } from "vitest";
import { MAX_OAUTH_CLIENT_ID_CHARS, ZBlockClient, ZUnblockClient } from "./oauth-schemas";

const codesOf = (body: unknown) => {
  const r = ZBlockClient.safeParse(body);
  return r.success ? [] : r.error.issues.map((i) => (i.code === "custom" ? (i.params as { code?: string } | undefined)?.code : undefined) ?? i.code);
};

describe("ZBlockClient – clientId", () => {
  it.each([
    ["empty", "", "client_id_empty"],
    ["3000 characters", "a".repeat(3000), "client_id_too_long"],
    ["a newline", "abc\ndef", "client_id_control_character"],
    ["a NUL", "abc\u0000", "client_id_control_character"],
    ["a C1 control", "abc\u0085", "client_id_control_character"],
    ["DEL", "abc\u007f", "client_id_control_character"],
  ])("POST /api/v1/oauth/clients/block – refuses %s", (_what, clientId, code) => {
    expect(codesOf({ clientId })).toEqual([code]);
    expect(ZUnblockClient.safeParse({ clientId }).success).toBe(false);
  });

  it("POST /api/v1/oauth/clients/block – refuses a missing or non-string clientId", () => {
    expect(codesOf({})).toEqual(["invalid_type"]);
    expect(codesOf({ clientId: 42 })).toEqual(["invalid_type"]);
  });

  it.each([
    ["a registered client's id", "x0Y1-abc_DEF"],
    ["a metadata document URL", "https://client.example.com/oauth/client.json"],
    ["the longest id", "h".repeat(MAX_OAUTH_CLIENT_ID_CHARS)],
  ])("POST /api/v1/oauth/clients/block – accepts %s", (_what, clientId) => {
    expect(ZBlockClient.parse({ clientId, reason: "leaked" })).toEqual({ clientId, reason: "leaked" });
  });
});
