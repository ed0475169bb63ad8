import { describe, expect, it } from "vitest";
import { mcpEndpointOf } from "./mcp-endpoint-of";

describe("mcpEndpointOf", () => {
  it.each([
    ["/mcp", { kind: "aggregate" }],
    ["/mcp?x=1", { kind: "aggregate" }],
    ["/mcp/code", { kind: "code" }],
    ["/mcp/s/echo", { kind: "server", slug: "echo" }],
    ["/mcp/s/a%20b?q", { kind: "server", slug: "a b" }],
    ["/mcp/v/tickets", { kind: "virtual", name: "tickets" }],
    ["/mcp/v/%D0%B0bc", { kind: "virtual", name: "\u0430bc" }],
    ["/mcp/v", null],
    ["/mcp/v/a/b", null],
    ["/mcp/v/%E0%A4%A", null],
    ["/mcp/", null],
    ["/mcp/s", null],
    ["/mcp/s/", null],
    ["/mcp/s/a/b", null],
    ["/mcp/code/x", null],
    ["/mcp/s/%E0%A4%A", null],
    ["/mcpx", null],
    ["/api/v1/tools", null],
  ])("%s → %j", (url, expected) => {
    expect(mcpEndpointOf(url)).toEqual(expected);
  });
});
