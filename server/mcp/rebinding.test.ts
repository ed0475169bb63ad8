// DNS-rebinding protection of the MCP endpoints: which Host and Origin headers are answered.
import { describe, expect, it } from "vitest";
import { rebindingRefusal } from "./handle-mcp-request";

const req = (headers: Record<string, string>) => new Request("http://127.0.0.1:3000/mcp", { method: "POST", headers });

describe("rebindingRefusal", () => {
  it("answers IP literals, localhost and allowed names", () => {
    expect(rebindingRefusal(req({ host: "127.0.0.1:3000" }), [])).toBeNull();
    expect(rebindingRefusal(req({ host: "[::1]:3000" }), [])).toBeNull();
    expect(rebindingRefusal(req({ host: "localhost:3000" }), [])).toBeNull();
    expect(rebindingRefusal(req({ host: "gateway.example.com" }), ["gateway.example.com"])).toBeNull();
    expect(rebindingRefusal(req({ host: "Gateway.Example.com:443" }), ["gateway.example.com"])).toBeNull();
  });

  it("refuses other host names, naming the setting that allows them", () => {
    expect(rebindingRefusal(req({ host: "evil.example.com" }), ["gateway.example.com"])).toMatch(/evil\.example\.com.*MCP_ALLOWED_HOSTS/);
  });

  it("refuses an Origin that is not the addressed host; no Origin is fine", () => {
    expect(rebindingRefusal(req({ host: "localhost:3000", origin: "http://evil.example.com" }), [])).toMatch(/Origin/);
    expect(rebindingRefusal(req({ host: "localhost:3000", origin: "http://localhost:3000" }), [])).toBeNull();
    expect(rebindingRefusal(req({ host: "localhost:3000", origin: "null" }), [])).toMatch(/Origin/);
  });
});
