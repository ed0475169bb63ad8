// subscriptions/listen on any endpoint (2026-07-28): the filter checked, the session's limit of streams, the
// resources it listens to checked as reads are (a URI it may not read refuses the whole request, naming it),
// then subscribed upstream where the endpoint relays one server (/mcp/s: an upstream session of the stream's
// own, ended with it), and the stream opened (listen-stream.ts).
import { randomUUID } from "node:crypto";
import type { ChangeBus } from "../../events/change-bus";
import { GATEWAY_REFUSAL_RPC_CODE } from "../gateway-refusal-code";
import { acknowledgedFilter, parseListenFilter } from "./listen-filter";
import { holdSessionEvents, listenStream, type Look } from "./listen-stream";
import { LISTEN_SESSION_PREFIX, type ListenStreams } from "./listen-streams";
import { modernRefusalResponse, type ModernMessage } from "./modern-request-refusal";

export type ListenServing = {
  bus: ChangeBus;
  streams: ListenStreams;
  agentSession: { id: string; expiresAt: Date };
  look: Look;
  /** Where resource updates can be had (/mcp/s): subscribes `uris` on a new upstream session named `handle`. */
  subscribe?: ((handle: string, uris: string[]) => Promise<{ uri: string; error: { code: number; message: string } } | null>) | undefined;
  signal: AbortSignal;
  serverInfo: unknown;
};

const refusal = (status: number, message: string, data: Record<string, unknown>, id: unknown) => modernRefusalResponse({ status, code: GATEWAY_REFUSAL_RPC_CODE, message, data }, id);
const tooMany = (s: ListenServing, id: unknown) =>
  refusal(429, `This agent session already holds ${String(s.streams.count(s.agentSession.id))} listen streams, the most it may; close one first.`, { code: "too_many_listen_streams" }, id);

export async function serveListen(message: ModernMessage, s: ListenServing): Promise<Response> {
  const filter = parseListenFilter(message.params);
  if ("refused" in filter) return modernRefusalResponse({ status: 400, code: -32602, message: `Invalid params: ${filter.refused}` }, message.id);
  if (s.streams.count(s.agentSession.id) >= s.streams.perSession) return tooMany(s, message.id);
  const first = await s.look();
  if ("error" in first) return modernRefusalResponse({ status: 401, code: first.error.code as number, message: first.error.message as string, ...(first.error.data !== undefined && { data: first.error.data }) }, message.id);
  // Authorized exactly as a read: what the session may not read is refused, and nothing about it is sent.
  const unreadable = filter.resourceSubscriptions.filter((u) => !first.mayRead(u));
  if (unreadable.length) return refusal(403, `This session may not read ${unreadable.join(", ")}: it is outside the session's allowed paths.`, { code: "path_not_allowed", uris: unreadable }, message.id);
  const subscribing = s.subscribe !== undefined && filter.resourceSubscriptions.length > 0;
  const handle = subscribing ? `${LISTEN_SESSION_PREFIX}${randomUUID()}` : undefined;
  // The stream listens to the bus only once the subscription has been answered: what the upstream session says
  // meanwhile is held for it.
  const early = handle ? holdSessionEvents(s.bus, handle) : undefined;
  const closeUpstream = () => {
    early?.stop();
    if (handle) void s.bus.publish({ kind: "session-closed", mcpSessionId: handle }).catch(() => undefined);
  };
  if (handle) {
    const failed = await s.subscribe!(handle, filter.resourceSubscriptions).catch((err: unknown) => {
      closeUpstream();
      throw err;
    });
    if (failed) {
      closeUpstream();
      return refusal(failed.error.code === GATEWAY_REFUSAL_RPC_CODE ? 403 : 400, `Cannot listen to ${failed.uri}: ${failed.error.message}`, { code: "subscription_refused", uri: failed.uri, cause: failed.error }, message.id);
    }
  }
  let release = () => {};
  const response = listenStream({
    id: message.id,
    filter,
    acknowledged: acknowledgedFilter(filter, subscribing),
    bus: s.bus,
    look: s.look,
    first,
    resourceSession: handle,
    early,
    expiresAt: s.agentSession.expiresAt,
    signal: s.signal,
    serverInfo: s.serverInfo,
    register: (end) => {
      const held = s.streams.add(s.agentSession.id, end);
      if (held) release = held.release;
      return held !== null;
    },
    onEnd: () => {
      release();
      closeUpstream();
    },
  });
  if (!response) {
    closeUpstream();
    return tooMany(s, message.id);
  }
  return response;
}
