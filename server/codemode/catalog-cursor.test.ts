import { describe, expect, it } from "vitest";
import { decodeCursor, encodeCursor } from "./catalog-cursor";

const b64 = (s: string) => Buffer.from(s, "utf8").toString("base64url");

describe("browse_catalog cursors", () => {
  it("hand back the last key of the listing they came from", () => {
    expect(decodeCursor(encodeCursor("", "orders"), "")).toEqual({ after: "orders" });
    expect(decodeCursor(encodeCursor("orders", "get_order"), "orders")).toEqual({ after: "get_order" });
    expect(decodeCursor(encodeCursor("orders", "名前"), "orders")).toEqual({ after: "名前" });
  });

  it.each([
    ["", ""],
    ["garbage", ""],
    ["c1.", ""],
    ["c1.***", ""],
    ["c1.a\u0000b", ""],
    ["c1.\ud800", ""],
    [`c1.${b64("{")}`, ""],
    [`c1.${b64('{"a":1}')}`, ""],
    [`c1.${b64("[1,2]")}`, ""],
    [`c1.${b64('["",""]')}`, ""],
    [`c1.${b64('["","a","b"]')}`, ""],
    [`c1.${"A".repeat(1000)}`, ""],
    [encodeCursor("orders", "x"), ""],
    [encodeCursor("", "x"), "orders"],
    [encodeCursor("billing", "x"), "orders"],
  ])("refuses %j for listing %j", (cursor, listing) => {
    expect(decodeCursor(cursor, listing)).toHaveProperty("problem");
  });
});
