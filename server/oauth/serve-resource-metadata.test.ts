import { describe, expect, it } from "vitest";
import { oauthConfigOf, ZOAuthEnv } from "./oauth-config";
import { serveResourceMetadata } from "./serve-resource-metadata";

const config = oauthConfigOf(ZOAuthEnv.parse({ OAUTH_ISSUER: "https://idp.example", OAUTH_REQUIRED_SCOPES: "mcp", OAUTH_SCOPE_TOOLS: "orders:read=orders__*" }));
const deps = { config, publicUrl: "https://gw.example", endpointExists: async (e: { kind: string; slug?: string }) => e.kind !== "server" || e.slug === "orders" };
const get = (method = "GET") => new Request("https://gw.example/.well-known/oauth-protected-resource/mcp", { method });

describe("GET /.well-known/oauth-protected-resource/<endpoint>", () => {
  it("answers the endpoint's metadata, public and cacheable", async () => {
    const res = await serveResourceMetadata(deps, get(), { kind: "server", slug: "orders" });
    expect(res.status).toBe(200);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(await res.json()).toEqual({
      resource: "https://gw.example/mcp/s/orders",
      authorization_servers: ["https://idp.example"],
      scopes_supported: ["mcp", "orders:read"],
      bearer_methods_supported: ["header"],
      resource_name: "Portcullis mcp/s/orders",
    });
  });

  it("404 without OAuth configured, as before enterprise mode", async () => {
    expect((await serveResourceMetadata({ ...deps, config: null }, get(), { kind: "aggregate" })).status).toBe(404);
  });

  it("404 for an unknown or disabled server and for a path that names no endpoint", async () => {
    expect((await serveResourceMetadata(deps, get(), { kind: "server", slug: "gone" })).status).toBe(404);
    expect((await serveResourceMetadata(deps, get(), null)).status).toBe(404);
  });

  it("405 for a method other than GET and HEAD", async () => {
    const res = await serveResourceMetadata(deps, get("POST"), { kind: "aggregate" });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("GET, HEAD");
  });
});
