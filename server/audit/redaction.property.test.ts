// Redaction is total: whatever a tool call carries (hostile strings and keys, deep or cyclic values, errors),
// it answers and never throws, no NUL survives, and secrets and known patterns do not come through.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DEFAULT_REDACTION_SETTINGS } from "@/lib/redaction-schemas";
import { fuzzParams, hostileJson, hostileString } from "../test/fuzz";
import { buildRedactor, storedArguments } from "./redaction";

const SECRET = "s3cr3t-value-of-the-gateway";
const redactors = [
  buildRedactor({ ...DEFAULT_REDACTION_SETTINGS, mode: "mask" }, { secrets: [SECRET] }),
  buildRedactor({ ...DEFAULT_REDACTION_SETTINGS, mode: "hash" }, { key: Buffer.alloc(32, 7), secrets: [SECRET] }),
];

describe("redaction – property tests", () => {
  it.each(redactors.map((r, i) => [i === 0 ? "mask" : "hash", r] as const))(
    "%s: value() and text() never throw and leave no NUL in a string value",
    (_mode, r) => {
      fc.assert(
        fc.property(hostileJson, (v) => {
          expect(stringsOf(r.value(v)).filter((t) => t.includes("\u0000"))).toEqual([]);
          expect(stringsOf(storedArguments(r, { v })).filter((t) => t.includes("\u0000"))).toEqual([]);
        }),
        fuzzParams(300),
      );
      fc.assert(
        fc.property(
          fc.string({ unit: "binary", maxLength: 200 }),
          hostileString,
          (a, b) => void expect(r.text(a + b)).not.toContain("\u0000"),
        ),
        fuzzParams(300),
      );
    },
  );

  it("a deep or cyclic value and an Error with hostile fields are redacted, not a crash", () => {
    const [r] = redactors;
    const cyclic: Record<string, unknown> = { a: "x\u0000" };
    cyclic.self = cyclic;
    let deep: unknown = "leaf";
    for (let i = 0; i < 10_000; i++) deep = [deep];
    const err = Object.assign(new Error(`failed for ${SECRET}`), { detail: "\ud800" });
    expect(() => r!.value(cyclic)).not.toThrow();
    expect(() => r!.value(deep)).not.toThrow();
    expect((r!.value(err) as Error).message).not.toContain(SECRET);
  });

  it("a UUID is never redacted, alone or inside a sentence (task and request ids in audit details stay whole)", () => {
    fc.assert(
      fc.property(fc.uuid(), fc.constantFrom(...redactors), (id, r) => {
        expect(r.text(id)).toBe(id);
        expect(r.text(`task ${id}: done`)).toBe(`task ${id}: done`);
      }),
      fuzzParams(2000),
    );
  });

  // Any address RFC 5322 allows in its dot-atom form, the rarer local-part characters (`{|}^#!'`) included.
  const email = fc.emailAddress();

  it("the gateway's secrets, secret-named fields and e-mail addresses never come through, wherever they sit", () => {
    fc.assert(
      fc.property(
        hostileString,
        hostileString,
        email,
        fc.constantFrom("password", "apiKey", "X-Api-Key", "client_secret", "Authorization"),
        fc.constantFrom(...redactors),
        (before, after, email, field, r) => {
          const out = JSON.stringify(
            r.value({
              note: `${before} ${SECRET} ${after}`,
              [field]: `${before}${after}x`,
              list: [`${before} ${email} ${after}`],
            }),
          );
          expect(out).not.toContain(SECRET);
          expect(out).not.toContain(`"${before}${after}x"`);
          expect(out).not.toContain(email);
        },
      ),
      fuzzParams(300),
    );
  });
});

/** Every string value in `v` (keys are the audit writer's to make storable: issue 17, item 1). */
function stringsOf(v: unknown): string[] {
  if (typeof v === "string") return [v];
  if (Array.isArray(v)) return v.flatMap(stringsOf);
  if (v && typeof v === "object") return Object.values(v).flatMap(stringsOf);
  return [];
}
