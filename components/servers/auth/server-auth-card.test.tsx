// The server page's Authentication card as an admin sees it: the mode and what it needs, the reason a server
// not reached over HTTP keeps `none`, the shared account's state and who is connected; a stored client secret is
// never put back into the page.
import { describe, expect, it } from "vitest";
import { renderStatic, textOf as text } from "@/components/render-static";
import { connection } from "@/components/connections/fixtures";
import type { TServer } from "@/lib/schemas";
import type { TServerAuth } from "@/components/connections/types";
import { ConnectedUsersTable } from "./connected-users-table";
import { ServerAuthContent } from "./server-auth-card";

const http = { id: "srv-1", name: "Issue tracker", transport: "http" } satisfies Pick<
  TServer,
  "id" | "name" | "transport"
>;
const auth = (over: Partial<TServerAuth> = {}): TServerAuth => ({
  mode: "per_user",
  issuer: "https://id.example.com",
  registration: "pre_registered",
  clientId: "portcullis-client",
  scopes: ["issues:read"],
  shared: null,
  connectedUsers: 2,
  tokenExchange: null,
  ...over,
});

const wrap = renderStatic;
const render = (a: TServerAuth, server: Pick<TServer, "id" | "name" | "transport"> = http) =>
  wrap(<ServerAuthContent server={server} auth={a} />);
const radio = (html: string, value: string) => html.match(new RegExp(`<input[^>]*value="${value}"[^>]*>`))?.[0] ?? "";

describe("the Authentication card", () => {
  it("per_user: the mode checked, the pre-registered client's id, an empty secret field, who is connected", () => {
    const html = render(auth());
    expect(radio(html, "per_user")).toContain('checked=""');
    expect(radio(html, "shared")).not.toContain("disabled");
    expect(text(html)).toContain("Now: Each user's own account · provider https://id.example.com · 2 users connected");
    expect(html).toMatch(/<input[^>]*id="auth-client-id"[^>]*value="portcullis-client"/);
    const secret = html.match(/<input[^>]*id="auth-client-secret"[^>]*>/)?.[0] ?? "";
    expect(secret).toContain('type="password"');
    expect(secret).toContain('value=""');
    expect(secret).toContain('placeholder="Stored – type to replace"');
    expect(text(html)).toContain("Connected users");
    expect(text(html)).toContain("In use: the pre-registered client.");
  });

  it("a server the gateway starts keeps none, and says why", () => {
    const html = render(auth({ mode: "none", registration: null, clientId: null, scopes: [], connectedUsers: 0 }), {
      ...http,
      transport: "stdio",
    });
    expect(radio(html, "none")).not.toContain("disabled");
    for (const m of ["shared", "per_user", "token_exchange", "client_credentials"])
      expect(radio(html, m)).toContain('disabled=""');
    expect(html).toContain('data-testid="auth-mode-non-http"');
    expect(text(html)).toContain("Only servers reached over HTTP");
    expect(html).not.toContain('id="auth-client-id"');
    expect(text(html)).not.toContain("Connected users");
  });

  it("shared without an account: a Connect button and what happens until then", () => {
    const html = render(auth({ mode: "shared", registration: "metadata_document", clientId: null, connectedUsers: 0 }));
    expect(text(html)).toContain("Connect shared account");
    expect(html).toContain('data-testid="shared-not-connected"');
    expect(text(html)).toContain("In use: its client ID metadata document.");
    expect(radio(html, "automatic")).toContain('checked=""');
  });

  it("shared with an account needing a reconnect: its state, account and provider, and Reconnect", () => {
    const shared = connection({ mode: "shared", status: "needs_reconnect", account: "svc-bot@example.com" });
    const html = render(auth({ mode: "shared", shared, connectedUsers: 0 }));
    expect(text(html)).toContain("Reconnect needed");
    expect(text(html)).toContain("svc-bot@example.com");
    expect(text(html)).toContain("Reconnect shared account");
    expect(html).toContain('aria-label="Disconnect the shared account"');
  });

  it("token exchange asks for the audience", () => {
    const html = render(
      auth({ mode: "token_exchange", tokenExchange: { audience: "api://tracker" }, connectedUsers: 0 }),
    );
    expect(html).toMatch(/<input[^>]*id="auth-audience"[^>]*value="api:\/\/tracker"/);
  });

  it("still lists connected users after the mode left per_user, so an admin can disconnect them", () => {
    expect(text(render(auth({ mode: "none", connectedUsers: 1 })))).toContain("Connected users");
  });
});

describe("the connected users", () => {
  it("lists each user's email, account and status with a Disconnect of their own", () => {
    const html = wrap(
      <ConnectedUsersTable
        server={http}
        connections={[
          { ...connection(), userEmail: "alice@example.com" },
          {
            ...connection({ id: "conn-2", account: "bob-sub", status: "needs_reconnect" }),
            userEmail: "bob@example.com",
          },
        ]}
      />,
    );
    expect([...html.matchAll(/data-testid="connected-user-row" data-email="([^"]+)"/g)].map((m) => m[1])).toEqual([
      "alice@example.com",
      "bob@example.com",
    ]);
    expect(html).toContain('aria-label="Disconnect bob@example.com"');
    expect(text(html)).toContain("Reconnect needed");
  });

  it("says when no one is connected", () => {
    expect(text(wrap(<ConnectedUsersTable server={http} connections={[]} />))).toContain(
      "No user has connected an account to Issue tracker yet.",
    );
  });
});
