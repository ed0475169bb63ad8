// An upstream session of `/mcp/s/<slug>` as this process holds it (session-upstreams.ts), and the agent's requests
// it is serving now.
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import type { RequestId } from "@modelcontextprotocol/sdk/types.js";
import type { ServerRoute } from "../../registry/create-registry";
import type { BearerSource } from "../../upstream/bearer-fetch";
import type { ConnectedUpstream } from "../../upstream/upstream-client";

/** A downstream request of this session being served on this process, with the stream its answer goes to. */
export type InFlight = {
  requestId: RequestId;
  transport: WebStandardStreamableHTTPServerTransport;
  /** The notifications relayed on this request's stream, one after another; its answer goes after them. */
  sent: Promise<unknown>;
};

export type LiveSession = {
  mcpSessionId: string;
  route: ServerRoute;
  conn: ConnectedUpstream;
  client: Client;
  inFlight: InFlight[];
  lastUsedAt: number;
  /** The bearer of an upstream that authenticates its callers: the session user's credential (issue 22). */
  bearer?: BearerSource | undefined;
};

