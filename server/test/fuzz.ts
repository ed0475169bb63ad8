// Shared pieces of the property-based and fuzz tests (fast-check). CI runs a few seeded runs per property;
// `npm run fuzz` sets FUZZ_RUNS (and may set FUZZ_SEED) for a long run of the same properties.
import fc from "fast-check";

/** fast-check parameters: seeded, `ciRuns` runs unless FUZZ_RUNS asks for more. */
export function fuzzParams(ciRuns: number): { numRuns: number; seed: number; endOnFailure: true } {
  return { numRuns: Number(process.env.FUZZ_RUNS ?? ciRuns), seed: Number(process.env.FUZZ_SEED ?? 17), endOnFailure: true };
}

/** How long a long fuzz run may take per test (CI runs are short; `npm run fuzz` gives each property room). */
export const fuzzTimeoutMs = (ciMs: number) => (process.env.FUZZ_RUNS ? 30 * 60_000 : ciMs);

/** Strings that break storage and parsers: NUL, lone surrogates, controls, long runs, next to ordinary text. */
export const hostileString: fc.Arbitrary<string> = fc.oneof(
  fc.string({ maxLength: 20 }),
  fc.constantFrom("\u0000", "\ud800", "\udfff", "a\u0000b", "x\ud83d", "\ud83d\ude00", "%zz", "../..", "\u202e", "' OR 1=1 --", "${secret:X}", "__proto__", "constructor"),
  fc.string({ unit: fc.constantFrom("\u0000", "\ud800", "\udc00", "a", "\n", "\\", '"', "é", "😀"), maxLength: 12 }),
  fc.nat({ max: 6000 }).map((n) => "x".repeat(n)),
);

/** JSON values whose strings and keys are hostile, a few levels deep. */
export const hostileJson: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.constant(null),
    fc.boolean(),
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    hostileString,
    fc.array(tie("value"), { maxLength: 4 }),
    fc.dictionary(hostileString, tie("value"), { maxKeys: 4 }),
  ),
})).value;

/** A nesting `depth` levels deep, as JSON text (arrays or objects). */
export const deeplyNested: fc.Arbitrary<string> = fc
  .tuple(fc.integer({ min: 100, max: 20_000 }), fc.boolean())
  .map(([depth, arrays]) => (arrays ? "[".repeat(depth) + "]".repeat(depth) : '{"a":'.repeat(depth) + "1" + "}".repeat(depth)));

/** Not JSON, or JSON that no schema wants. */
export const malformedJsonText: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom("", " ", "{", "[", "nul", "{\"a\":}", "\u0000", "[1,]", "{'a':1}", "1e999999", "\"\\ud800\"", "null", "[]", "[[]]", "true", "0", "\"x\""),
  fc.string({ maxLength: 40 }),
);
