// The routing headers of a 2026-07-28 request: their encoding, and their agreement with the body.
import { describe, expect, it } from "vitest";
import { decodeHeaderValue, MAX_ENCODED_HEADER_CHARS } from "./decode-header-value";
import { headerParams, paramHeaderRefusal } from "./param-header-refusal";
import { routingHeaderRefusal } from "./routing-header-refusal";

const b64 = (s: string | Buffer) => `=?base64?${Buffer.from(s).toString("base64")}?=`;
const source = (headers: Record<string, string>) => ({
  headers: { get: (n: string) => headers[n.toLowerCase()] ?? null },
  headerNames: () => Object.keys(headers),
});

describe("decodeHeaderValue", () => {
  it.each<[string, string, string | null]>([
    ["plain ASCII", "us-west1", "us-west1"],
    ["Base64 of UTF-8", b64("Hello, 世界"), "Hello, 世界"],
    ["Base64 of a sentinel-looking literal", b64("=?base64?literal?="), "=?base64?literal?="],
    ["no suffix: a literal", "=?base64?SGVsbG8=", "=?base64?SGVsbG8="],
    ["upper-case markers: a literal", "=?BASE64?SGVsbG8=?=", "=?BASE64?SGVsbG8=?="],
    ["missing padding", "=?base64?SGVsbG8?=", null],
    ["characters outside the alphabet", "=?base64?SGVs!!!bG8=?=", null],
    ["bytes that are not UTF-8", b64(Buffer.from([0xc3, 0x28])), null],
    ["a control character", "a\u0001b", null],
    ["non-ASCII sent raw", "café", null],
    ["oversized", "a".repeat(MAX_ENCODED_HEADER_CHARS + 1), null],
  ])("%s", (_what, raw, want) => {
    const got = decodeHeaderValue(raw);
    expect(got.ok ? got.value : null).toBe(want);
  });
});

describe("routingHeaderRefusal", () => {
  const call = { method: "tools/call", params: { name: "srv__echo", _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28" } } };
  const ok = { "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call", "mcp-name": "srv__echo" };
  it.each<[string, Record<string, string>, RegExp | null]>([
    ["all agree", ok, null],
    ["the name Base64-encoded", { ...ok, "mcp-name": b64("srv__echo") }, null],
    ["another tool named", { ...ok, "mcp-name": "srv__delete" }, /Mcp-Name header does not match/],
    ["another method named", { ...ok, "mcp-method": "tools/list" }, /Mcp-Method header "tools\/list"/],
    ["a version unlike _meta's", { ...ok, "mcp-protocol-version": "2025-11-25" }, /MCP-Protocol-Version/],
    ["no version", { "mcp-method": "tools/call", "mcp-name": "srv__echo" }, /MCP-Protocol-Version header is required/],
    ["no method", { "mcp-protocol-version": "2026-07-28", "mcp-name": "srv__echo" }, /Mcp-Method header is required/],
    ["no name", { "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call" }, /Mcp-Name header is required/],
    ["a repeated name (joined by the server)", { ...ok, "mcp-name": "srv__echo, srv__delete" }, /does not match/],
    ["a malformed Mcp-Param", { ...ok, "mcp-param-x": "=?base64?***?=" }, /mcp-param-x header is not valid Base64/],
  ])("%s", (_what, headers, want) => {
    const got = routingHeaderRefusal(source(headers), call);
    if (want === null) expect(got).toBeNull();
    else expect(got).toMatchObject({ status: 400, code: -32020, message: expect.stringMatching(want) as unknown });
  });
});

describe("paramHeaderRefusal", () => {
  const schema = {
    type: "object",
    properties: {
      region: { type: "string", "x-mcp-header": "Region" },
      count: { type: "integer", "x-mcp-header": "Count" },
      dry: { type: "boolean", "x-mcp-header": "Dry" },
      nested: { type: "object", properties: { zone: { type: "string", "x-mcp-header": "Zone" } } },
      ratio: { type: "number", "x-mcp-header": "Ratio" },
      list: { type: "array", items: { type: "string", "x-mcp-header": "Item" } },
    },
  };
  it("reads only statically reachable primitive annotations", () => {
    expect(headerParams(schema).map((p) => p.header)).toEqual(["Region", "Count", "Dry", "Zone"]);
  });
  it.each<[string, Record<string, unknown>, Record<string, string>, RegExp | null]>([
    ["all mirrored", { region: "eu", count: 42, dry: true, nested: { zone: "a" } }, { "mcp-param-region": "eu", "mcp-param-count": "42.0", "mcp-param-dry": "true", "mcp-param-zone": "a" }, null],
    ["a value without its header", { region: "eu" }, {}, /Mcp-Param-Region is required/],
    ["a header unlike the body", { region: "eu" }, { "mcp-param-region": "us" }, /does not match arguments.region/],
    ["an encoded header that decodes to the body", { region: "日本" }, { "mcp-param-region": b64("日本") }, null],
    ["a null value needs no header", { region: null }, {}, null],
    ["an integer compared numerically", { count: 7 }, { "mcp-param-count": "8" }, /Count does not match/],
  ])("%s", (_what, args, headers, want) => {
    const got = paramHeaderRefusal(source(headers), schema, args);
    if (want === null) expect(got).toBeNull();
    else expect(got).toMatchObject({ status: 400, code: -32020, message: expect.stringMatching(want) as unknown });
  });
});
