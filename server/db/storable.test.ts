import { describe, expect, it } from "vitest";
import { storableJson, storableText, unstorablePath, unstorableText } from "./storable";

describe("storableText", () => {
  it.each([
    ["plain text", "hello", "hello", false],
    ["a surrogate pair (an emoji) is whole", "a\ud83d\ude00b", "a\ud83d\ude00b", false],
    ["NUL", "a\u0000b", "a\u2400b", true],
    ["a lone high surrogate", "a\ud800b", "a\ufffdb", true],
    ["a lone low surrogate", "a\udc00b", "a\ufffdb", true],
    ["a high surrogate at the end", "ab\udbff", "ab\ufffd", true],
    ["low before high", "\udc00\ud800", "\ufffd\ufffd", true],
  ])("%s", (_title, input, text, changed) => {
    expect(storableText(input)).toEqual({ text, changed });
    expect(unstorableText(input)).toBe(changed);
  });

  it("cuts at the limit with a marker, never inside a surrogate pair", () => {
    expect(storableText("abcdef", 3)).toEqual({ text: "abc…[cut 3 chars]", changed: true });
    expect(storableText("ab\ud83d\ude00cd", 3)).toEqual({ text: "ab…[cut 4 chars]", changed: true });
  });
});

describe("storableJson", () => {
  it("sanitizes keys and values at any depth and says so", () => {
    expect(storableJson({ "k\u0000": ["\ud800", { inner: "ok" }], n: 1 })).toEqual({ value: { "k\u2400": ["\ufffd", { inner: "ok" }], n: 1 }, changed: true });
  });

  it("leaves clean JSON as it is", () => {
    const v = { a: [1, "two", { three: null }], b: true };
    expect(storableJson(v)).toEqual({ value: v, changed: false });
  });

  it("turns a bigint into a string and cuts nesting past 64 levels", () => {
    let deep: unknown = "bottom";
    for (let i = 0; i < 70; i++) deep = { d: deep };
    const out = storableJson({ big: 12n, deep });
    expect(out.changed).toBe(true);
    expect((out.value as { big: string }).big).toBe("12");
    expect(JSON.stringify(out.value)).toContain('"[…]"');
  });
});

describe("unstorablePath", () => {
  it.each([
    [{ a: "ok" }, null],
    [{ a: { b: ["x", "y\u0000"] } }, "$.a.b[1]"],
    [{ "k\ud800": 1 }, "$.k\ufffd"],
    ["\udfff", "$"],
  ])("%j → %s", (value, path) => {
    expect(unstorablePath(value)).toBe(path);
  });
});
