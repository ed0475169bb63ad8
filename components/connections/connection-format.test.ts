import { describe, expect, it } from "vitest";
import { callbackErrorMessage, issuerHost, serverFocus, sortConnections } from "./connection-format";
import { connection } from "./fixtures";

const data = {
  connections: [
    connection(),
    connection({ id: "conn-2", serverId: "srv-2", serverSlug: "crm", serverName: "CRM", status: "needs_reconnect" }),
  ],
  available: [{ serverId: "srv-3", serverSlug: "docs", serverName: "Document store" }],
};

describe("serverFocus", () => {
  it.each([
    ["docs", { kind: "connect", serverId: "srv-3", serverName: "Document store" }],
    ["crm", { kind: "reconnect", connection: data.connections[1] }],
    ["tracker", { kind: "connected", connection: data.connections[0] }],
    ["ghost", { kind: "unavailable", serverSlug: "ghost" }],
  ])("?server=%s points at %j", (slug, expected) => {
    expect(serverFocus(data, slug)).toEqual(expected);
  });
});

describe("sortConnections", () => {
  it("lists connections needing a reconnect first, then by server name", () => {
    const list = [
      connection({ id: "b", serverName: "Beta" }),
      connection({ id: "z", serverName: "Zulu", status: "needs_reconnect" }),
      connection({ id: "a", serverName: "Alpha" }),
    ];
    expect(sortConnections(list).map((c) => c.id)).toEqual(["z", "a", "b"]);
    expect(list.map((c) => c.id)).toEqual(["b", "z", "a"]);
  });
});

describe("callbackErrorMessage", () => {
  it("explains a known code and names an unknown one", () => {
    expect(callbackErrorMessage("upstream_auth_denied")).toBe("The sign-in was cancelled or refused at the provider.");
    expect(callbackErrorMessage("weird_code")).toBe("The connection could not be made (weird_code).");
  });
});

describe("issuerHost", () => {
  it.each([
    ["https://id.example.com/realms/acme", "id.example.com"],
    ["http://127.0.0.1:4000", "127.0.0.1:4000"],
    ["not a url", "not a url"],
  ])("%s → %s", (issuer, host) => {
    expect(issuerHost(issuer)).toBe(host);
  });
});
