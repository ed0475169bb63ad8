// What the approval queue masks before it shows arguments: a corpus of planted values and near-misses.
import { describe, expect, it } from "vitest";
import { redactString, redactValue } from "./redact";

describe("redactString", () => {
  it.each([
    ["an e-mail address", "write to jane.doe+ops@example.co.uk today", "write to [email] today"],
    ["a card number with spaces", "card 4111 1111 1111 1111 on file", "card [number] on file"],
    ["a card number with dashes", "4111-1111-1111-1111", "[number]"],
    ["a 16-digit ID number", "id 1234567890123456", "id [number]"],
    ["a mainland China mobile", "call 13812345678 now", "call [phone] now"],
    ["an international phone number", "call +44 20 7946 0958 now", "call [phone] now"],
    ["a bearer token", "Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.e30.abc", "Authorization: Bearer [secret]"],
    ["a Stripe-style key", "key sk_live_4eC39HqLyjWDarjtT1zdp7dc", "key [secret]"],
    ["a GitHub token", "ghp_16C7e42F292c6912E7710c838347Ae178B4a", "[secret]"],
    ["an AWS access key id", "AKIAIOSFODNN7EXAMPLE", "[secret]"],
    ["a Portcullis session token", "pcs_abcdefghijklmnop", "[secret]"],
  ])("masks %s", (_label, input, expected) => {
    expect(redactString(input)).toBe(expected);
  });

  it.each([
    ["an order id", "ORD-2024-0001"],
    ["a short number", "limit 500 rows"],
    ["a date", "2026-11-30"],
    ["plain prose", "delete the stale export"],
  ])("leaves %s alone", (_label, input) => {
    expect(redactString(input)).toBe(input);
  });
});

describe("redactValue", () => {
  it("masks secret fields whole, walks nested objects and arrays, and keeps other types", () => {
    const input = { password: "hunter2", apiKey: "abc", nested: { to: ["a@b.example", "ok"], count: 3, flag: true, none: null }, Authorization: "Basic xyz" };
    expect(redactValue(input)).toEqual({ password: "[redacted]", apiKey: "[redacted]", nested: { to: ["[email]", "ok"], count: 3, flag: true, none: null }, Authorization: "[redacted]" });
  });

  it("does not change its input", () => {
    const input = { note: "jane@example.com" };
    redactValue(input);
    expect(input.note).toBe("jane@example.com");
  });
});
