import { describe, expect, it } from "vitest";
import { hashArguments } from "./hash-arguments";

describe("hashArguments", () => {
  it.each([
    ["keys in another order", { a: 1, b: "x" }, { b: "x", a: 1 }],
    ["nested keys in another order", { q: { z: [1, { y: 2, x: 1 }], a: null } }, { q: { a: null, z: [1, { x: 1, y: 2 }] } }],
    ["no arguments and empty arguments", undefined, {}],
  ])("the same call: %s", (_, one, other) => {
    expect(hashArguments(one)).toBe(hashArguments(other));
  });

  it.each([
    ["another value", { id: "ORD-8" }, { id: "ORD-9" }],
    ["array items in another order", { ids: [1, 2] }, { ids: [2, 1] }],
    ["a key more", { id: 1 }, { id: 1, force: true }],
    ["a value's type", { id: 1 }, { id: "1" }],
  ])("another call: %s", (_, one, other) => {
    expect(hashArguments(one)).not.toBe(hashArguments(other));
  });
});
