import { describe, expect, it } from "vitest";
import { fastPathOf } from "./fast-path";

describe("fastPathOf – what `portcullis start` answers before Next.js", () => {
  it.each([
    ["POST", "/mcp", { kind: "mcp", endpoint: { kind: "aggregate" } }],
    ["GET", "/mcp/s/orders?x", { kind: "mcp", endpoint: { kind: "server", slug: "orders" } }],
    ["DELETE", "/mcp/code", { kind: "mcp", endpoint: { kind: "code" } }],
    ["HEAD", "/mcp", null],
    ["OPTIONS", "/mcp", null],
    ["GET", "/mcp/", null],
    ["GET", "/.well-known/oauth-protected-resource/mcp", { kind: "resource-metadata", endpoint: { kind: "aggregate" } }],
    ["GET", "/.well-known/oauth-protected-resource/mcp/s/orders/", { kind: "resource-metadata", endpoint: { kind: "server", slug: "orders" } }],
    ["GET", "/.well-known/oauth-protected-resource/unknown", { kind: "resource-metadata", endpoint: null }],
    ["POST", "/.well-known/oauth-protected-resource/mcp", null],
    ["GET", "/.well-known/openid-configuration", null],
    ["GET", "/api/v1/tools", null],
    ["GET", "/api/ready", { kind: "ready" }],
    ["GET", "/api/ready?probe=1", { kind: "ready" }],
    ["GET", "/api/ready/", null],
    ["GET", "/api/readyz", null],
    ["HEAD", "/api/ready", null],
    ["POST", "/api/ready", null],
  ])("%s %s → %j", (method, url, expected) => {
    expect(fastPathOf(method, url)).toEqual(expected);
  });
});
