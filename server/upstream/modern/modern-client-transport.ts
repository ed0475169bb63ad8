// The 2026-07-28 wire under the gateway's 1.32 SDK `Client`: a `Transport` that takes the 2025-shaped
// messages the Client sends and speaks the stateless generation to the upstream — each request its own POST
// with the `_meta` envelope and routing headers, `initialize` answered from the probe's `server/discover`,
// `notifications/cancelled` as closing that request's stream, progress and log messages handed back as they
// stream. So the pool, discovery, health pings and the transparent relay keep one Client type for both
// generations (docs: decision "2026 upstreams under the 1.32 Client").
//
// An upstream's `input_required` is either translated (mode "translate": its inputRequests become
// server→client requests to the Client — whose handlers relay them to a 2025 agent, or refuse them — and the
// request is retried with their answers and the upstream's requestState, at most `maxRounds` times), or handed
// back as the result (mode "passthrough": a 2026 client behind answers it; the endpoint wraps the state).
import { randomUUID } from "node:crypto";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { headerParams, type HeaderParam } from "../../mcp/modern/param-header-refusal";
import { inputRequestsOf, upstreamRequestState } from "./input-requests";
import { answerMessages, ENVELOPE, routingHeaders, withEnvelope, type Envelope, type Message } from "./modern-wire";
import type { Discovered } from "./probe-modern-upstream";
import { RpcFailure } from "./rpc-failure";
import { UpstreamListen } from "./upstream-listen";

export type InputMode = "translate" | "passthrough";

export type ModernTransportOptions = {
  url: URL;
  fetch: typeof fetch;
  headers: Record<string, string>;
  discovered: Discovered;
  mode: InputMode;
  /** Rounds of input one request may ask for before it fails (the v2 SDK's own shim stops at 8). */
  maxRounds?: number;
  /** The upstream's tools as the registry knows them (their x-mcp-header annotations); tools/list answers add to them. */
  tools?: readonly { name: string; inputSchema?: unknown }[] | undefined;
};

export const MAX_INPUT_ROUNDS = 8;

type Id = string | number;

export class ModernClientTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private readonly running = new Map<Id, AbortController>();
  private readonly asked = new Map<Id, (m: Message) => void>();
  private envelope: Envelope = { capabilities: {}, clientInfo: { name: "portcullis", version: "0" } };
  private closed = false;
  /** Each tool's x-mcp-header parameters, by name: its calls mirror them in Mcp-Param-* headers. */
  private readonly paramHeaders = new Map<string, HeaderParam[]>();

  /** The upstream's list changes and resource updates, heard on a subscriptions/listen stream once initialized. */
  private readonly listen: UpstreamListen;

  constructor(private readonly o: ModernTransportOptions) {
    this.learnTools(o.tools);
    this.listen = new UpstreamListen({ url: o.url, fetch: o.fetch, headers: o.headers, capabilities: o.discovered.capabilities, envelope: () => this.envelope, deliver: (m) => this.deliver(m) });
  }

  private learnTools(tools: unknown) {
    if (!Array.isArray(tools)) return;
    for (const t of tools as { name?: unknown; inputSchema?: unknown }[]) {
      if (typeof t.name !== "string") continue;
      const params = headerParams(t.inputSchema);
      if (params.length) this.paramHeaders.set(t.name, params);
      else this.paramHeaders.delete(t.name);
    }
  }

  async start(): Promise<void> {}

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.listen.close();
    for (const c of this.running.values()) c.abort(new Error("the connection was closed"));
    this.onclose?.();
  }

  /** Requests resolve once their first POST has an answer (a fetch that fails throws, as the 2025 transport does). */
  async send(message: JSONRPCMessage): Promise<void> {
    if (this.closed) throw new Error("the connection is closed");
    const m = message as Message;
    if (typeof m.method !== "string") {
      // The Client's answer to an input request this transport asked it.
      this.asked.get(m.id as Id)?.(m);
      return;
    }
    if (m.id === undefined) {
      if (m.method === "notifications/cancelled") this.running.get((m.params as { requestId?: Id } | undefined)?.requestId ?? "")?.abort(new Error("cancelled by the caller"));
      // initialized and roots/list_changed: there is no session upstream to tell.
      return;
    }
    let started!: (err?: Error) => void;
    const first = new Promise<void>((resolve, reject) => (started = (err) => (err === undefined ? resolve() : reject(err))));
    void this.request(m, started);
    await first;
  }

  private deliver(m: Message) {
    if (!this.closed) this.onmessage?.(m as JSONRPCMessage);
  }

  private async request(m: Message, started: (err?: Error) => void) {
    const id = m.id as Id;
    const control = new AbortController();
    this.running.set(id, control);
    let first = true;
    const onFirst = (err?: unknown) => {
      if (!first) return false;
      first = false;
      started(err === undefined ? undefined : err instanceof Error ? err : new Error("the request could not be sent", { cause: err }));
      return true;
    };
    try {
      const result = await this.answer(m, control.signal, onFirst);
      onFirst();
      this.deliver({ jsonrpc: "2.0", id, result });
    } catch (err) {
      // The first POST failed: the Client's request rejects with the cause, as over the 2025 transport.
      if (!(err instanceof RpcFailure) && onFirst(err)) return;
      onFirst();
      this.deliver({ jsonrpc: "2.0", id, error: RpcFailure.from(err).toJson() });
    } finally {
      this.running.delete(id);
    }
  }

  private async answer(m: Message, signal: AbortSignal, onFirst: (err?: unknown) => boolean): Promise<Message> {
    const params = (m.params ?? {}) as Message;
    switch (m.method) {
      case "initialize": {
        this.envelope = { ...this.envelope, capabilities: (params.capabilities ?? {}) as Message, clientInfo: params.clientInfo as Envelope["clientInfo"] };
        const d = this.o.discovered;
        this.listen.reopen();
        return { protocolVersion: params.protocolVersion, capabilities: d.capabilities, serverInfo: d.serverInfo, ...(d.instructions && { instructions: d.instructions }) };
      }
      case "ping":
        // 2026-07-28 has no ping: a discover is the liveness check.
        await this.exchange({ ...m, method: "server/discover", params: {} }, signal, onFirst);
        return {};
      case "logging/setLevel":
        // Per request in 2026-07-28: every request from now on carries the level.
        this.envelope = { ...this.envelope, logLevel: typeof params.level === "string" ? params.level : undefined };
        return {};
      // No session upstream: the URI joins (or leaves) the listen stream's resourceSubscriptions.
      case "resources/subscribe":
        if (typeof params.uri !== "string") throw new RpcFailure(-32602, "Invalid params: uri must be a string");
        this.listen.subscribe(params.uri);
        return {};
      case "resources/unsubscribe":
        if (typeof params.uri !== "string") throw new RpcFailure(-32602, "Invalid params: uri must be a string");
        this.listen.unsubscribe(params.uri);
        return {};
      default:
        return this.rounds(m, signal, onFirst);
    }
  }

  /** The request, and in translate mode its retries with the input the upstream asked for. */
  private async rounds(m: Message, signal: AbortSignal, onFirst: (err?: unknown) => boolean): Promise<Message> {
    const params = (m.params ?? {}) as Message;
    const maxRounds = this.o.maxRounds ?? MAX_INPUT_ROUNDS;
    let retry: Message = {};
    for (let round = 0; ; round++) {
      const result = await this.exchange({ ...m, params: { ...params, ...retry } }, signal, onFirst);
      if (result.resultType !== "input_required") return completed(result);
      const requestState = upstreamRequestState(result.requestState);
      if (this.o.mode === "passthrough") return result;
      if (round >= maxRounds) throw new RpcFailure(-32603, `The upstream asked for input ${String(maxRounds + 1)} times without finishing the request`, { reason: "upstream_input_rounds_exceeded", maxRounds });
      const responses: Message = {};
      for (const [key, request] of inputRequestsOf(result.inputRequests)) responses[key] = await this.askClient(request, signal);
      retry = { inputResponses: responses, ...(requestState !== undefined && { requestState }) };
    }
  }

  /** One POST: notifications streamed before the answer are handed on; the answer's result, or its error thrown. */
  private async exchange(m: Message, signal: AbortSignal, onFirst: (err?: unknown) => boolean): Promise<Message> {
    const params = withEnvelope(m.params as Message | undefined, this.envelope);
    const res = await this.o.fetch(this.o.url, {
      method: "POST",
      headers: { ...this.o.headers, ...routingHeaders(m.method as string, params, this.paramHeaders.get(String(params.name))) },
      body: JSON.stringify({ jsonrpc: "2.0", id: m.id, method: m.method, params }),
      signal,
    });
    onFirst();
    const messages = answerMessages(res);
    try {
      for await (const reply of messages) {
        if (typeof reply.method === "string") {
          // Progress and log messages of this request; a 2026 server sends its client no requests on a stream.
          if (reply.id === undefined) this.deliver(reply);
          continue;
        }
        if (reply.error) throw RpcFailure.fromJson(reply.error);
        if (typeof reply.result !== "object" || reply.result === null) throw new RpcFailure(-32603, "The upstream answered without a result");
        if (m.method === "tools/list") this.learnTools((reply.result as Message).tools);
        return reply.result as Message;
      }
    } finally {
      await messages.return(undefined);
    }
    throw new RpcFailure(-32603, `The upstream's answer ended before its result (HTTP ${String(res.status)})`);
  }

  /** One input request asked of the Client (its handler relays it to the agent or refuses), answered by its reply. */
  private askClient(request: { method: string; params: Message }, signal: AbortSignal): Promise<Message> {
    const id = `portcullis-input-${randomUUID()}`;
    // A 2025 URL-mode elicitation names itself; the 2026 shape leaves that to the requestState.
    const params = request.method === "elicitation/create" && request.params.mode === "url" && request.params.elicitationId === undefined ? { ...request.params, elicitationId: randomUUID() } : request.params;
    return new Promise<Message>((resolve, reject) => {
      const stop = () => {
        this.asked.delete(id);
        reject(signal.reason instanceof Error ? signal.reason : new Error("cancelled"));
      };
      if (signal.aborted) return stop();
      signal.addEventListener("abort", stop, { once: true });
      this.asked.set(id, (reply) => {
        this.asked.delete(id);
        signal.removeEventListener("abort", stop);
        if (reply.error) {
          const e = RpcFailure.fromJson(reply.error);
          reject(new RpcFailure(e.code, `The client did not answer the upstream's ${request.method}: ${e.message}`, e.data));
        } else resolve((reply.result ?? {}) as Message);
      });
      this.deliver({ jsonrpc: "2.0", id, method: request.method, params });
    });
  }
}

/** A complete result as a 2025 Client expects it: without the 2026 envelope fields. */
function completed(result: Message): Message {
  const { resultType: _type, ttlMs: _ttl, cacheScope: _scope, ...rest } = result;
  const meta = rest._meta as Message | undefined;
  if (!meta || !(ENVELOPE.serverInfo in meta)) return rest;
  const { [ENVELOPE.serverInfo]: _info, ...kept } = meta;
  return Object.keys(kept).length ? { ...rest, _meta: kept } : (({ _meta: _m, ...r }) => r)(rest);
}
