import { describe, expect, it } from "vitest";
import { decodeHeaderValue } from "../../mcp/modern/decode-header-value";
import { encodeHeaderValue } from "./encode-header-value";
import { inputRequestsOf, MAX_UPSTREAM_STATE_CHARS, upstreamRequestState } from "./input-requests";
import { RpcFailure } from "./rpc-failure";

const reason = (f: () => unknown) => {
  try {
    f();
  } catch (err) {
    return err instanceof RpcFailure ? (err.data as { reason: string }).reason : String(err);
  }
  return "accepted";
};

describe("an upstream's input_required, checked before anything acts on it", () => {
  it.each([
    ["absent", undefined, "accepted"],
    ["a string within bounds", "s".repeat(MAX_UPSTREAM_STATE_CHARS), "accepted"],
    ["one character too long", "s".repeat(MAX_UPSTREAM_STATE_CHARS + 1), "upstream_request_state_too_large"],
    ["a number", 42, "upstream_request_state_invalid"],
    ["an object", { s: 1 }, "upstream_request_state_invalid"],
  ])("requestState %s: %s", (_what, state, expected) => {
    expect(reason(() => upstreamRequestState(state))).toBe(expected);
  });

  const ok = { method: "elicitation/create", params: { message: "?" } };
  it.each([
    ["absent (state only)", undefined, "accepted"],
    ["one elicitation", { a: ok }, "accepted"],
    ["sampling and roots", { s: { method: "sampling/createMessage", params: {} }, r: { method: "roots/list" } }, "accepted"],
    ["an array", [ok], "upstream_input_requests_invalid"],
    ["a string", "nope", "upstream_input_requests_invalid"],
    ["an unknown method", { a: { method: "tools/call", params: {} } }, "upstream_input_requests_invalid"],
    ["params not an object", { a: { method: "roots/list", params: [1] } }, "upstream_input_requests_invalid"],
    ["a key with spaces", { "a b": ok }, "upstream_input_requests_invalid"],
    ["a key of 129 characters", { ["k".repeat(129)]: ok }, "upstream_input_requests_invalid"],
    ["17 requests", Object.fromEntries(Array.from({ length: 17 }, (_, i) => [`k${String(i)}`, ok])), "upstream_input_requests_invalid"],
  ])("inputRequests %s: %s", (_what, requests, expected) => {
    expect(reason(() => inputRequestsOf(requests))).toBe(expected);
  });
});

describe("routing header values a 2026 upstream is sent", () => {
  it.each(["tools/call", "a tool name", " leading space", "trailing ", "ünïcode", "=?base64?looks encoded?=", "tab\there", ""])("%j round-trips through the gateway's own strict decoder", (value) => {
    expect(decodeHeaderValue(encodeHeaderValue(value))).toEqual({ ok: true, value });
  });
});
