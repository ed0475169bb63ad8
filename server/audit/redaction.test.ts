// The redaction corpus: every planted value below must not survive; near-misses must. Run against the default
// settings in both modes, plus the knobs an admin has (custom patterns, disabled patterns, field names).
import { describe, expect, it } from "vitest";
import { BUILTIN_PATTERNS, DEFAULT_REDACTION_SETTINGS, FORMER_BUILTIN_PATTERNS, ZRedactionSettings } from "../../lib/redaction-schemas";
import { buildRedactor, cardNumberValid, luhnValid, storedArguments, withCurrentBuiltins } from "./redaction";

const key = Buffer.alloc(32, 7);
const hashed = buildRedactor(DEFAULT_REDACTION_SETTINGS, { key, secrets: ["upstream-db-password-123"] });
const masked = buildRedactor({ ...DEFAULT_REDACTION_SETTINGS, mode: "mask" }, { secrets: ["upstream-db-password-123"] });

/** [label, planted value, the pattern that must catch it] */
export const PLANTED: [string, string, string][] = [
  ["e-mail", "jane.doe+billing@example.co.uk", "email"],
  ["e-mail, upper case", "OPS@EXAMPLE.COM", "email"],
  ["e-mail, RFC 5322 local part", "o'brien{x}|y#z!@example.com", "email"],
  ["Visa card", "4111 1111 1111 1111", "card"],
  ["Mastercard, dashes", "5555-5555-5555-4444", "card"],
  ["Amex, no spaces", "378282246310005", "card"],
  ["mainland China mobile", "13812345678", "phone_cn"],
  ["mainland China mobile with +86", "+86 139 1234 5678", "phone_cn"],
  ["international phone", "+44 20 7946 0958", "phone_intl"],
  ["US phone with country code", "+1 (415) 555-2671", "phone_intl"],
  ["mainland China resident ID", "11010519491231002X", "cn_id"],
  ["order number", "ORD-20261130", "order_number"],
  ["bearer token", "Bearer abc.def-ghi_jkl", "bearer_token"],
  ["JWT", "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NSJ9.c2lnbmF0dXJl", "jwt"],
  ["Stripe key", "sk_live_4eC39HqLyjWDarjtT1zdp7dc", "api_key"],
  ["GitHub token", "ghp_16C7e42F292c6912E7710c838347Ae178B4a", "api_key"],
  ["AWS access key id", "AKIAIOSFODNN7EXAMPLE", "api_key"],
  ["Slack token", "xoxb-123456789012-abcdefghij", "api_key"],
  ["Portcullis API token", "pct_0123456789abcdef", "api_key"],
  ["Google API key", "AIzaSyA1234567890abcdefghijklmnopqrstuv", "api_key"],
  ["a known upstream secret", "upstream-db-password-123", "secret"],
];

const NEAR_MISSES = ["limit 500 rows", "2026-11-30T12:00:00Z", "order 12345", "version 1.2.3.4", "1234 5678 9012 3456", "ORD-12", "user@localhost", "price 1399.00 CNY"];

describe("redaction corpus", () => {
  it.each(PLANTED)("catches %s in running text, in both modes", (_label, planted, pattern) => {
    const text = `before ${planted} after`;
    const h = hashed.text(text);
    const m = masked.text(text);
    expect(h).not.toContain(planted);
    expect(m).not.toContain(planted);
    expect(m).toContain(`[${pattern}]`);
    expect(h).toMatch(new RegExp(`\\[${pattern}:[0-9a-f]{10}\\]`));
    expect(h.startsWith("before ") && h.endsWith(" after")).toBe(true);
  });

  it.each(NEAR_MISSES)("leaves %j alone", (text) => {
    expect(hashed.text(text)).toBe(text);
  });

  it("hash mode correlates: the same value gives the same tag, another value another", () => {
    expect(hashed.text("a@example.com")).toBe(hashed.text("a@example.com"));
    expect(hashed.text("a@example.com")).not.toBe(hashed.text("b@example.com"));
    // Another key (another installation) gives other tags.
    expect(buildRedactor(DEFAULT_REDACTION_SETTINGS, { key: Buffer.alloc(32, 8) }).text("a@example.com")).not.toBe(hashed.text("a@example.com"));
  });

  it("redacts values of secret-named fields whole, walks objects and arrays, keeps numbers and booleans", () => {
    const out = masked.value({ Password: "hunter2", api_key: 42, nested: { authToken: "x", to: ["a@b.example", "plain"], n: 3, ok: true, none: null } });
    expect(out).toEqual({ Password: "[redacted]", api_key: "[redacted]", nested: { authToken: "[redacted]", to: ["[email]", "plain"], n: 3, ok: true, none: null } });
  });

  it("redacts errors' messages and stacks", () => {
    const out = masked.value(new Error("login failed for jane@example.com")) as { message: string; stack: string };
    expect(out.message).toBe("login failed for [email]");
    expect(out.stack).not.toContain("jane@example.com");
  });

  it("an admin's pattern is applied, and a disabled built-in is not", () => {
    const settings = ZRedactionSettings.parse({
      ...DEFAULT_REDACTION_SETTINGS,
      mode: "mask",
      patterns: [...DEFAULT_REDACTION_SETTINGS.patterns.map((p) => (p.name === "email" ? { ...p, enabled: false } : p)), { name: "ticket", pattern: "TCK-\\d{4}", enabled: true }],
    });
    const r = buildRedactor(settings);
    expect(r.text("TCK-1234 by a@example.com")).toBe("[ticket] by a@example.com");
  });

  it("rejects invalid settings with a reason", () => {
    const bad = ZRedactionSettings.safeParse({ ...DEFAULT_REDACTION_SETTINGS, patterns: [{ name: "x", pattern: "(", enabled: true }] });
    expect(bad.success).toBe(false);
    expect(JSON.stringify(bad.error?.issues)).toMatch(/valid regular expression/);
    expect(ZRedactionSettings.safeParse({ ...DEFAULT_REDACTION_SETTINGS, patterns: [{ name: "Bad Name", pattern: "x", enabled: true }] }).success).toBe(false);
  });

  it("cuts large stored arguments after redaction, keeping the keys", () => {
    const out = storedArguments(masked, { big: "x".repeat(40_000), who: "a@example.com" }) as { truncated: boolean; keys: string[]; preview: string };
    expect(out.truncated).toBe(true);
    expect(out.keys).toEqual(["big", "who"]);
    expect(out.preview.length).toBe(16 * 1024);
    expect(storedArguments(masked, { who: "a@example.com" })).toEqual({ who: "[email]" });
  });

  it("Luhn: real card numbers pass, a changed digit fails", () => {
    expect(luhnValid("4111111111111111")).toBe(true);
    expect(luhnValid("4111111111111112")).toBe(false);
  });

  // Every number here passes Luhn; only the issuer prefix and length tell a card from a timestamp or an id.
  it.each([
    ["Visa 16", "4111 1111 1111 1111", true],
    ["Visa 13", "4222222222222", true],
    ["Mastercard 5x", "5555-5555-5555-4444", true],
    ["Mastercard 2-series", "2223003122003222", true],
    ["American Express", "378282246310005", true],
    ["Diners Club 14", "30569309025904", true],
    ["Discover", "6011111111111117", true],
    ["JCB", "3530111333300000", true],
    ["UnionPay", "6200000000000005", true],
    ["Mir", "2200000000000004", true],
    ["migration timestamp", "20260101022800", false],
    ["another timestamp", "20260101040000", false],
    ["a 14-digit id", "12345678901237", false],
    ["a 14-digit id starting with 4", "40000000001232", false],
    ["+86 and a mainland mobile", "86 13810000002", false],
  ])("card check: %s (%s) → %s", (_label, digits, card) => {
    expect(luhnValid(digits)).toBe(true);
    expect(cardNumberValid(digits)).toBe(card);
  });

  it.each([
    ["a mainland mobile with +86", "call +86 13810000002 now", "call [phone_cn] now"],
    ["an international number whose digits pass Luhn with a Visa prefix", "call +44 1111 1111 1111 18 now", "call [phone_intl] now"],
    ["a migration name", "applied 20260101022800_add_tasks", "applied 20260101022800_add_tasks"],
    ["a card next to a phone number", "card 4111 1111 1111 1111, phone +86 13810000002", "card [card], phone [phone_cn]"],
  ])("a phone number wins its span over a card, and timestamps are left alone: %s", (_label, text, expected) => {
    expect(masked.text(text)).toBe(expected);
  });

  it.each([
    ["the task id whose digits were redacted as a phone number", "e6079016-db97-405c-9f59-a16185047781"],
    ["a UUID whose last group is a mainland mobile", "e6079016-db97-405c-9f59-013812345678"],
    ["a UUID whose last two groups are a Luhn-valid UnionPay number", "0a1b2c3d-4e5f-4a6b-8123-456789012340"],
    ["a UUID whose first three groups are a Luhn-valid Visa number", "41111111-1111-4115-8f00-0123456789ab"],
    ["a hex digest", "sha256:3f1d13812345678e4111111111111111a0"],
  ])("identifiers keep their digits: %s", (_label, id) => {
    expect(cardNumberValid("8123456789012340") && cardNumberValid("4111111111114115")).toBe(true);
    expect(masked.text(`task ${id} done`)).toBe(`task ${id} done`);
    expect(hashed.value({ taskId: id })).toEqual({ taskId: id });
  });

  it("a phone number or a card next to punctuation, CJK text or a hyphenated label is still redacted", () => {
    expect(masked.text("手机13812345678，卡号4111111111111111。")).toBe("手机[phone_cn]，卡号[card]。");
    expect(masked.text("tel:13812345678 card=4111-1111-1111-1111;")).toBe("tel:[phone_cn] card=[card];");
    expect(masked.text("tel-13812345678")).toBe("tel-[phone_cn]");
  });

  it("saved settings holding a built-in pattern as an earlier version shipped it read as today's built-in; an edited one is kept", () => {
    const saved = {
      ...DEFAULT_REDACTION_SETTINGS,
      patterns: DEFAULT_REDACTION_SETTINGS.patterns.map((p) =>
        p.name === "phone_cn" ? { ...p, pattern: FORMER_BUILTIN_PATTERNS.phone_cn![0]! } : p.name === "card" ? { ...p, pattern: "(?<!\\d)\\d{16}(?!\\d)", enabled: false } : p,
      ),
    };
    const read = withCurrentBuiltins(saved);
    expect(read.patterns.find((p) => p.name === "phone_cn")?.pattern).toBe(BUILTIN_PATTERNS.find((p) => p.name === "phone_cn")?.pattern);
    expect(read.patterns.find((p) => p.name === "card")).toEqual({ name: "card", pattern: "(?<!\\d)\\d{16}(?!\\d)", enabled: false });
    expect(buildRedactor({ ...saved, mode: "mask" }).text("id a16185047781")).toBe("id a[phone_cn]");
    expect(buildRedactor({ ...read, mode: "mask" }).text("id a16185047781")).toBe("id a16185047781");
  });

  it("with the phone patterns disabled, a Luhn-valid card inside a phone-like text is still a card", () => {
    const noPhones = buildRedactor({ ...DEFAULT_REDACTION_SETTINGS, mode: "mask", patterns: DEFAULT_REDACTION_SETTINGS.patterns.map((p) => (p.name.startsWith("phone") ? { ...p, enabled: false } : p)) });
    expect(noPhones.text("call +44 1111 1111 1111 18 now")).toBe("call +[card] now");
  });
});
