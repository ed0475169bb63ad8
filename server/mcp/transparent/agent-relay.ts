// What passes between an upstream session of `/mcp/s/<slug>` and its agent, besides the agent's own requests: the
// upstream's requests (sampling, elicitation, roots) relayed to the agent and answered by its reply, which may land
// on any process (pending-replies.ts, the change bus); its notifications, on the stream of the request they belong
// to or else on the agent's GET stream; and the agent's replies and notifications for the upstream.
import { ErrorCode, McpError, type JSONRPCRequest, type Notification } from "@modelcontextprotocol/sdk/types.js";
import type { ChangeBus } from "../../events/change-bus";
import type { Logger } from "../../logger";
import { STATELESS_SESSION_PREFIX } from "../modern/stateless-view";
import type { InFlight, LiveSession } from "./live-session";
import type { PendingReplies } from "./pending-replies";

export type AgentRelay = {
  /** An upstream's request relayed to the agent; resolves with the agent's answer. */
  ask(s: LiveSession, request: JSONRPCRequest, signal: AbortSignal): Promise<Record<string, unknown>>;
  /** An upstream's notification relayed to the agent, in order. */
  notify(s: LiveSession, n: Notification): void;
  /** A reply or notification from the agent, for the process holding this session. */
  fromAgent(mcpSessionId: string, message: Record<string, unknown>): Promise<void>;
};

export function agentRelay(deps: { bus: ChangeBus; log: Logger; replies: PendingReplies; relayTimeoutMs: number; live: ReadonlyMap<string, LiveSession> }): AgentRelay {
  /** Sends a message to the agent: on the stream of the request it belongs to, else on its GET stream. */
  async function toAgent(s: LiveSession, message: Record<string, unknown>, related: InFlight | undefined) {
    if (related) {
      try {
        await related.transport.send(message as never, { relatedRequestId: related.requestId });
        return;
      } catch {
        // The request's stream is gone: fall back to the GET stream.
      }
    }
    await deps.bus.publish({ kind: "session-out", mcpSessionId: s.mcpSessionId, message });
  }

  /** The request an upstream message most likely belongs to: the newest one in flight (MCP gives no link). */
  const current = (s: LiveSession): InFlight | undefined => s.inFlight.at(-1);

  /** A server-to-client request (sampling, elicitation, roots) relayed to the agent, answered by its reply. */
  async function ask(s: LiveSession, request: JSONRPCRequest, signal: AbortSignal): Promise<Record<string, unknown>> {
    const related = current(s);
    // A 2026-07-28 client is reached only on the answer of a request of its own (MRTR). Asked between its requests
    // (server-everything asks roots/list 350 ms after initialize), nobody is there to answer: the upstream is told
    // so at once rather than waiting relayTimeoutMs for a reply that cannot come.
    if (!related && s.mcpSessionId.startsWith(STATELESS_SESSION_PREFIX)) throw new McpError(ErrorCode.MethodNotFound, `${request.method}: no request of this client is in flight to ask it on`);
    const id = `portcullis-${crypto.randomUUID()}`;
    const reply = deps.replies.wait(s.mcpSessionId, id, deps.relayTimeoutMs, signal);
    // Handled from the start: the session can close (dropSession rejects the wait) while the request is still being
    // sent, and that rejection must reach `await reply` below rather than end the process as an unhandled one.
    reply.catch(() => undefined);
    try {
      await toAgent(s, { jsonrpc: "2.0", id, method: request.method, ...(request.params && { params: request.params }) }, related);
    } catch (err) {
      deps.replies.forget(s.mcpSessionId, id);
      throw err;
    }
    const answer = await reply;
    if ("error" in answer) {
      const e = answer.error as { code: number; message: string; data?: unknown };
      throw new McpError(e.code, e.message, e.data);
    }
    return answer.result as Record<string, unknown>;
  }

  function notify(s: LiveSession, n: Notification) {
    // List changes and resource updates are not part of any request: the GET stream carries them.
    const unrelated = n.method.endsWith("/list_changed") || n.method === "notifications/resources/updated";
    const related = unrelated ? undefined : current(s);
    const send = () =>
      toAgent(s, { jsonrpc: "2.0", method: n.method, ...(n.params && { params: n.params }) }, related).catch((err: unknown) =>
        deps.log.warn({ err, session: s.mcpSessionId }, "could not relay a notification"),
      );
    // In order: each send stores its event before writing it, so concurrent sends could overtake one another.
    if (related) related.sent = related.sent.then(send);
    else void send();
  }

  /** A reply or notification from the agent, for the process holding this session. */
  async function fromAgent(mcpSessionId: string, message: Record<string, unknown>) {
    if ("id" in message && !("method" in message)) {
      deps.replies.settle(mcpSessionId, message);
      return;
    }
    const s = deps.live.get(mcpSessionId);
    if (s && message.method === "notifications/roots/list_changed") await s.client.sendRootsListChanged().catch(() => undefined);
  }

  return { ask, notify, fromAgent };
}
