// Shared pieces of the property-based and fuzz tests (fast-check). CI runs a few seeded runs per property;
// `npm run fuzz` sets FUZZ_RUNS (and may set FUZZ_SEED) for a long run of the same properties.
import fc from "fast-check";

/** fast-check parameters: seeded, `ciRuns` runs unless FUZZ_RUNS asks for more. */
export function fuzzParams(ciRuns: number): { numRuns: number; seed: number; endOnFailure: true } {
  return {
    numRuns: Number(process.env.FUZZ_RUNS ?? ciRuns),
    seed: Number(process.env.FUZZ_SEED ?? 17),
    endOnFailure: true,
  };
}

/** How long a long fuzz run may take per test (CI runs are short; `npm run fuzz` gives each property room). */
export const fuzzTimeoutMs = (ciMs: number) => (process.env.FUZZ_RUNS ? 30 * 60_000 : ciMs);

/** Strings that break storage and parsers: NUL, lone surrogates, controls, long runs, next to ordinary text. */
export const hostileString: fc.Arbitrary<string> = fc.oneof(
  fc.string({ maxLength: 20 }),
  fc.constantFrom(
    "\u0000",
    "\ud800",
    "\udfff",
    "a\u0000b",
    "x\ud83d",
    "\ud83d\ude00",
    "%zz",
    "../..",
    "\u202e",
    "' OR 1=1 --",
    "${secret:X}",
    "__proto__",
    "constructor",
  ),
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
  .map(([depth, arrays]) =>
    arrays ? "[".repeat(depth) + "]".repeat(depth) : '{"a":'.repeat(depth) + "1" + "}".repeat(depth),
  );

/** Not JSON, or JSON that no schema wants. */
export const malformedJsonText: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    "",
    " ",
    "{",
    "[",
    "nul",
    '{"a":}',
    "\u0000",
    "[1,]",
    "{'a':1}",
    "1e999999",
    '"\\ud800"',
    "null",
    "[]",
    "[[]]",
    "true",
    "0",
    '"x"',
  ),
  fc.string({ maxLength: 40 }),
);

/** A JSON-RPC message as a hostile client writes it: mostly well-formed, with hostile ids, methods and params. */
export const hostileJsonRpcMessage = fc.record(
  {
    jsonrpc: fc.oneof({ arbitrary: fc.constant("2.0"), weight: 6 }, { arbitrary: hostileString, weight: 1 }),
    id: fc.oneof(
      fc.integer(),
      fc.integer(),
      fc.double({ noNaN: true, noDefaultInfinity: true }),
      hostileString,
      fc.constant(null),
      fc.boolean(),
      fc.dictionary(fc.string(), fc.integer(), { maxKeys: 2 }),
    ),
    method: fc.oneof(
      fc.constantFrom(
        "initialize",
        "ping",
        "tools/list",
        "tools/call",
        "resources/list",
        "resources/read",
        "prompts/list",
        "prompts/get",
        "completion/complete",
        "logging/setLevel",
        "resources/subscribe",
        "tasks/get",
        "tasks/list",
        "notifications/cancelled",
        "notifications/initialized",
      ),
      hostileString,
    ),
    params: fc.oneof(
      hostileJson,
      fc.record(
        {
          name: fc.oneof(fc.constantFrom("counted", "fixture__counted", "execute_code", "search_tools"), hostileString),
          arguments: hostileJson,
        },
        { requiredKeys: [] },
      ),
      fc.record(
        {
          uri: hostileString,
          level: hostileString,
          protocolVersion: hostileString,
          capabilities: hostileJson,
          clientInfo: hostileJson,
          requestId: fc.oneof(hostileString, fc.integer()),
          reason: hostileString,
          taskId: hostileString,
          cursor: hostileString,
        },
        { requiredKeys: [] },
      ),
    ),
    result: hostileJson,
    error: hostileJson,
  },
  { requiredKeys: [] },
);

/** A POST body for an MCP endpoint: a message, a batch, malformed or deeply nested JSON, or any JSON. */
export const hostileJsonRpcBody: fc.Arbitrary<unknown> = fc.oneof(
  hostileJsonRpcMessage,
  fc.array(hostileJsonRpcMessage, { maxLength: 4 }),
  malformedJsonText,
  deeplyNested,
  hostileJson,
);
