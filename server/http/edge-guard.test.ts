import path from "node:path";
import { describe, expect, it } from "vitest";
import { clientErrorResponse } from "./client-error";
import { edgeRefusal } from "./edge-guard";
import { loadRouteTable } from "./route-table";

const routes = loadRouteTable(path.resolve(import.meta.dirname, "../../app"));
const refuse = (method: string, url: string) => {
  const r = edgeRefusal(routes, method, url, "req-1");
  return r && { status: r.status, allow: r.headers.allow, body: JSON.parse(r.body) as unknown };
};

describe("edgeRefusal", () => {
  it.each([
    ["DELETE", "/api/v1/tools", "GET, HEAD, OPTIONS"],
    ["POST", "/api/v1/me", "GET, HEAD, OPTIONS"],
    ["PUT", "/api/health", "GET, HEAD, OPTIONS"],
    ["GET", "/api/v1/tokens/abc", "OPTIONS, DELETE"],
  ])("%s %s – 405 method_not_allowed with Allow: %s", (method, url, allow) => {
    expect(refuse(method, url)).toEqual({
      status: 405,
      allow,
      body: {
        error: { code: "method_not_allowed", message: expect.stringContaining(`${method} is not served`) as string },
      },
    });
  });

  it.each([
    ["PUT", "/mcp"],
    ["PATCH", "/mcp/s/x"],
    ["PUT", "/mcp/code"],
  ])("%s %s – 405 as a JSON-RPC error with Allow", (method, url) => {
    expect(refuse(method, url)).toEqual({
      status: 405,
      allow: "GET, HEAD, OPTIONS, POST, DELETE",
      body: {
        jsonrpc: "2.0",
        id: null,
        error: { code: -32000, message: expect.stringContaining(`${method} is not served`) as string },
      },
    });
  });

  it.each([
    ["/api/v1/tokens/%zz", "not valid percent-encoded UTF-8"],
    ["/api/v1/tokens/%c0%80", "not valid percent-encoded UTF-8"],
    ["/api/v1/tokens/%ed%a0%80", "not valid percent-encoded UTF-8"],
    ["/api/v1/tokens/%", "not valid percent-encoded UTF-8"],
    ["/api/v1/tokens/a%00b", "a NUL character or a lone surrogate"],
    [`/api/v1/tokens/${"x".repeat(5000)}`, "longer than 1024 characters"],
    [`/api/v1/tools/${"%41".repeat(400)}/rules`, "longer than 1024 characters"],
  ])("DELETE %s – 400 invalid_path", (url, why) => {
    expect(refuse("DELETE", url)).toEqual({
      status: 400,
      allow: undefined,
      body: { error: { code: "invalid_path", message: expect.stringContaining(why) as string } },
    });
  });

  it.each(["/api/v1/grants?userId=%00", "/api/v1/audit?q=a%00b", "/api/v1/policy/history?%00=1"])(
    "GET %s – 400 bad_request (a NUL in the query string)",
    (url) => {
      expect(refuse("GET", url)).toEqual({
        status: 400,
        allow: undefined,
        body: { error: { code: "bad_request", message: "The query string contains a NUL character (%00)." } },
      });
    },
  );

  it("a malformed path on an MCP endpoint is a JSON-RPC error", () => {
    expect(refuse("POST", "/mcp/s/%zz")).toMatchObject({
      status: 400,
      body: { jsonrpc: "2.0", id: null, error: { code: -32000 } },
    });
  });

  it.each([
    ["GET", "/api/v1/tools"],
    ["DELETE", "/api/v1/tokens/abc?x=%zz"],
    ["POST", "/mcp"],
    ["OPTIONS", "/api/v1/me"],
    ["HEAD", "/api/health"],
    ["PUT", "/api/v1/no/such/route"],
    ["GET", "/%zz"],
    ["POST", "/servers"],
  ])("%s %s – passed on to Next.js", (method, url) => {
    expect(edgeRefusal(routes, method, url)).toBeNull();
  });
});

describe("clientErrorResponse", () => {
  it("answers a header overflow with 431 headers_too_large and anything else with 400 bad_request, as JSON", () => {
    const [head, body] = clientErrorResponse({ code: "HPE_HEADER_OVERFLOW" }).split("\r\n\r\n");
    expect(head).toMatch(/^HTTP\/1\.1 431 Request Header Fields Too Large\r\n/);
    expect(head).toContain(`content-length: ${Buffer.byteLength(body!)}`);
    expect(JSON.parse(body!)).toEqual({ error: { code: "headers_too_large", message: expect.any(String) as string } });
    expect(JSON.parse(clientErrorResponse({ code: "HPE_INVALID_METHOD" }).split("\r\n\r\n")[1]!)).toMatchObject({
      error: { code: "bad_request" },
    });
  });
});
