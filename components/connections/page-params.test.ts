import { describe, expect, it } from "vitest";
import { readConnectionsParams } from "./page-params";

describe("readConnectionsParams", () => {
  it.each([
    [{}, { outcome: null, focusSlug: null }],
    [{ connected: "tracker" }, { outcome: { connected: "tracker" }, focusSlug: null }],
    [
      { error: "access_denied", server: "tracker" },
      { outcome: { error: "access_denied", server: "tracker" }, focusSlug: "tracker" },
    ],
    [{ error: "access_denied" }, { outcome: { error: "access_denied", server: null }, focusSlug: null }],
    [{ server: "tracker" }, { outcome: null, focusSlug: "tracker" }],
    [{ server: ["a", "b"] }, { outcome: null, focusSlug: "a" }],
    [{ server: "" }, { outcome: null, focusSlug: null }],
  ])("%j → %j", (params, expected) => {
    expect(readConnectionsParams(params)).toEqual(expected);
  });

  it("cuts an overlong value instead of showing all of it", () => {
    expect(readConnectionsParams({ server: "x".repeat(5000) }).focusSlug).toHaveLength(200);
  });
});
