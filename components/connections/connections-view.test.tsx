// The Connections page as a user sees it: their connections with the one needing a reconnect first and marked,
// the servers still to connect, the callback's outcome, and the button an agent's `?server=` link points at.
import { describe, expect, it } from "vitest";
import { renderStatic, textOf as text } from "@/components/render-static";
import type { TConnectionList } from "./types";
import type { CallbackOutcome } from "./callback-notice";
import { ConnectionsContent } from "./connections-view";
import { connection } from "./fixtures";

const data: TConnectionList = {
  connections: [
    connection(),
    connection({
      id: "conn-2",
      serverId: "srv-2",
      serverSlug: "crm",
      serverName: "CRM",
      status: "needs_reconnect",
      account: "alice@crm.example",
    }),
  ],
  available: [{ serverId: "srv-3", serverSlug: "docs", serverName: "Document store" }],
};

function render(d: TConnectionList, outcome: CallbackOutcome = null, focusSlug: string | null = null) {
  return renderStatic(<ConnectionsContent data={d} outcome={outcome} focusSlug={focusSlug} />);
}
const highlighted = (html: string) => [...html.matchAll(/<button[^>]*data-highlighted="true"[^>]*>/g)].map((m) => m[0]);

describe("the Connections page", () => {
  it("lists the user's connections, the one to reconnect first and marked, with account, provider and scopes", () => {
    const html = render(data);
    const rows = [...html.matchAll(/data-testid="connection-row" data-server="([^"]+)" data-status="([^"]+)"/g)];
    expect(rows.map((m) => [m[1], m[2]])).toEqual([
      ["crm", "needs_reconnect"],
      ["tracker", "connected"],
    ]);
    const t = text(html);
    expect(t).toContain("Reconnect needed");
    expect(t).toContain("alice@example.com");
    expect(t).toContain("id.example.com");
    expect(t).toContain("issues:read issues:write");
    expect(html).toContain('aria-label="Reconnect CRM"');
    expect(html).toContain('aria-label="Disconnect Issue tracker"');
    expect(highlighted(html)).toEqual([]);
  });

  it("tells why a connection needs reconnecting, and names an account the token left unnamed", () => {
    const html = render({
      connections: [
        connection({ status: "needs_reconnect", lastError: "The provider refused the refresh (invalid_grant)." }),
        connection({ id: "conn-3", serverId: "srv-4", serverSlug: "wiki", serverName: "Wiki", account: null }),
      ],
      available: [],
    });
    expect(html).toMatch(/data-testid="connection-error"[^>]*>The provider refused the refresh \(invalid_grant\)\.</);
    expect(text(html)).toContain("an unnamed account");
  });

  it("offers the servers not connected yet, each with its Connect button", () => {
    const html = render(data);
    expect(html).toContain('data-testid="available-server" data-server="docs"');
    expect(html).toContain('aria-label="Connect Document store"');
  });

  it("?server= of a server to connect highlights its Connect button and says why the user is here", () => {
    const html = render(data, null, "docs");
    expect(highlighted(html)).toHaveLength(1);
    expect(highlighted(html)[0]).toContain('aria-label="Connect Document store"');
    expect(text(html)).toContain("Your agent needs your account on Document store");
  });

  it("?server= of a connection needing a reconnect highlights its Reconnect button", () => {
    const html = render(data, null, "crm");
    expect(highlighted(html)[0]).toContain('aria-label="Reconnect CRM"');
    expect(text(html)).toContain("Your connection to CRM has stopped working");
  });

  it("?server= of a server the user cannot connect says so and highlights nothing", () => {
    const html = render(data, null, "ghost");
    expect(highlighted(html)).toEqual([]);
    expect(text(html)).toContain("There is no server ghost for you to connect");
  });

  it("shows the callback's success by the server's name, and its failure as an alert", () => {
    expect(text(render(data, { connected: "crm" }))).toContain(
      "Connected to CRM. Your agents' calls to it now use your account.",
    );
    const failed = render(data, { error: "upstream_auth_denied", server: "docs" }, "docs");
    expect(failed).toMatch(/role="alert"[^>]*data-testid="connect-error-notice"/);
    expect(text(failed)).toContain(
      "Could not connect to Document store. The sign-in was cancelled or refused at the provider.",
    );
    // The alert explains; the focus notice would repeat it, but the button to try again is still highlighted.
    expect(failed).not.toContain('data-testid="server-focus-notice"');
    expect(highlighted(failed)[0]).toContain('aria-label="Connect Document store"');
  });

  it("after an admin's shared connect, says it was the shared account and links back to the server's settings", () => {
    const html = render(data, { connected: "wiki" });
    expect(text(html)).toContain("Connected wiki's shared account. Every permitted call to it uses this account.");
    expect(html).toContain('href="/servers/wiki?tab=auth"');
  });

  it("explains what the page is for when no server acts as each user", () => {
    const html = render({ connections: [], available: [] });
    expect(text(html)).toContain("No server asks for your own account");
    expect(html).not.toContain("<table");
  });
});
