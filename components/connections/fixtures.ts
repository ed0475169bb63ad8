// Connections as the REST API answers them, for the page's and the server card's unit tests.
import type { TConnection } from "./types";

export const connection = (over: Partial<TConnection> = {}): TConnection => ({
  id: "conn-1",
  serverId: "srv-1",
  serverSlug: "tracker",
  serverName: "Issue tracker",
  mode: "per_user",
  status: "connected",
  issuer: "https://id.example.com/realms/acme",
  account: "alice@example.com",
  scopes: ["issues:read", "issues:write"],
  expiresAt: "2026-12-02T10:00:00.000Z",
  lastUsedAt: null,
  connectedAt: "2026-12-01T10:00:00.000Z",
  lastError: null,
  ...over,
});
