// A subscriptions/listen response stream (2026-07-28): the acknowledgement first, then only what the client
// opted in to — a list's list_changed when what this agent session sees in it changed (any process's change
// reaches this one over the change bus), and resources/updated for the URIs it listens to and may read.
// Every change re-authenticates the session: revoked, expired or disabled, the stream ends with the reason.
// A comment line keeps quiet streams open through proxies; the gateway shutting down ends each gracefully.
import type { ChangeBus, ChangeEvent } from "../../events/change-bus";
import { changedLists, type ListFingerprint } from "./list-fingerprint";
import type { ListenFilter } from "./listen-filter";

export const SUBSCRIPTION_ID = "io.modelcontextprotocol/subscriptionId";
export const LISTEN_KEEP_ALIVE_MS = 15_000;

type Message = Record<string, unknown>;
/** The session's view now, or the JSON-RPC error that ends the stream (the session may no longer listen). */
export type Look = () => Promise<{ fingerprint: ListFingerprint; mayRead: (uri: string) => boolean } | { error: Message }>;

export type ListenSpec = {
  id: string | number;
  filter: ListenFilter;
  acknowledged: Record<string, unknown>;
  bus: ChangeBus;
  look: Look;
  /** The first look, taken before the stream opened (changes from then on are told). */
  first: { fingerprint: ListFingerprint; mayRead: (uri: string) => boolean };
  /** Where the upstream's resources/updated for this stream arrive (the relay's session-out), when subscribed. */
  resourceSession?: string | undefined;
  /**
   * What the bus said about `resourceSession` between the upstream subscription and this stream (an upstream may
   * send an update at once): replayed once the stream listens itself, after `stop` ends that early listener.
   */
  early?: { events: ChangeEvent[]; stop(): void } | undefined;
  /** When the agent session expires: the stream ends then. */
  expiresAt: Date;
  signal: AbortSignal;
  serverInfo: unknown;
  /** Registers the stream's graceful end (gateway shutdown); false: over the agent session's limit. */
  register(end: () => void): boolean;
  /** Runs once, whichever way the stream ended. */
  onEnd(): void;
};

/**
 * Holds what the bus says about upstream session `session` (its messages, its end) until a stream listens itself
 * (ListenSpec.early): from before its subscription, since a server may announce an update as soon as it is subscribed.
 */
export function holdSessionEvents(bus: ChangeBus, session: string): NonNullable<ListenSpec["early"]> {
  const events: ChangeEvent[] = [];
  const stop = bus.subscribe((e) => {
    if ((e.kind === "session-out" || e.kind === "session-closed") && e.mcpSessionId === session) events.push(e);
  });
  return { events, stop };
}

/** Bus events after which what a session sees may have changed (or the session may have ended). */
const RELEVANT = new Set<ChangeEvent["kind"]>(["registry", "policy", "virtual_server", "agent_session", "user", "api_token"]);
const NOTIFY = { tools: "toolsListChanged", prompts: "promptsListChanged", resources: "resourcesListChanged" } as const;

export function listenStream(spec: ListenSpec): Response | null {
  const tag = { [SUBSCRIPTION_ID]: spec.id };
  const encoder = new TextEncoder();
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let ended = false;
  let last = spec.first;
  const cleanups: (() => void)[] = [];
  const write = (chunk: string) => {
    if (ended) return;
    try {
      controller.enqueue(encoder.encode(chunk));
    } catch {
      end();
    }
  };
  const send = (m: Message) => write(`event: message\ndata: ${JSON.stringify(m)}\n\n`);
  const notify = (method: string, params: Message = {}) => send({ jsonrpc: "2.0", method, params: { ...params, _meta: tag } });
  function end(final?: Message) {
    if (ended) return;
    if (final) send(final);
    ended = true;
    for (const c of cleanups.splice(0)) c();
    try {
      controller.close();
    } catch {
      /* already closed or cancelled */
    }
    spec.onEnd();
  }
  const graceful = () => end({ jsonrpc: "2.0", id: spec.id, result: { resultType: "complete", _meta: { ...tag, "io.modelcontextprotocol/serverInfo": spec.serverInfo } } });
  if (!spec.register(graceful)) return null;

  // One look at a time; changes that arrive meanwhile are folded into one more look after it.
  let looking: Promise<void> | undefined;
  let again = false;
  const recheck = () => {
    if (ended) return;
    if (looking) return void (again = true);
    looking = (async () => {
      do {
        again = false;
        const now = await spec.look().catch((err: unknown) => ({ error: { code: -32603, message: `The subscription could not be checked: ${err instanceof Error ? err.message : String(err)}` } }));
        if (ended) return;
        if ("error" in now) return end({ jsonrpc: "2.0", id: spec.id, error: now.error });
        for (const kind of changedLists(last.fingerprint, now.fingerprint)) if (spec.filter[NOTIFY[kind]]) notify(`notifications/${kind}/list_changed`);
        last = now;
      } while (again && !ended);
    })().finally(() => (looking = undefined));
  };
  const uris = new Set(spec.filter.resourceSubscriptions);

  const stream = new ReadableStream<Uint8Array>({
    start: (c) => {
      controller = c;
      notify("notifications/subscriptions/acknowledged", { notifications: spec.acknowledged });
      const onEvent = (e: ChangeEvent) => {
        if (RELEVANT.has(e.kind) || (e.kind === "listening" && e.listening)) recheck();
        else if (e.kind === "session-out" && e.mcpSessionId === spec.resourceSession) {
          const m = e.message as { method?: unknown; params?: { uri?: unknown } };
          const uri = m.params?.uri;
          // Only what was asked for, and only while this session may read it (its grant may have narrowed).
          if (m.method === "notifications/resources/updated" && typeof uri === "string" && uris.has(uri) && last.mayRead(uri)) notify("notifications/resources/updated", { uri });
        } else if (e.kind === "session-closed" && e.mcpSessionId === spec.resourceSession) graceful();
      };
      cleanups.push(spec.bus.subscribe(onEvent));
      // Listening now: the early listener stops in the same turn (no event reaches both), and what it heard is told.
      spec.early?.stop();
      for (const e of spec.early?.events.splice(0) ?? []) onEvent(e);
      const keepAlive = setInterval(() => write(": keep-alive\n\n"), LISTEN_KEEP_ALIVE_MS);
      // The session's own end, checked where it falls (a revocation arrives over the bus instead).
      const expiry = setTimeout(recheck, Math.max(0, Math.min(spec.expiresAt.getTime() - Date.now() + 1, 2 ** 31 - 1)));
      cleanups.push(() => clearInterval(keepAlive), () => clearTimeout(expiry));
      keepAlive.unref();
      expiry.unref();
      if (spec.signal.aborted) end();
      else {
        const abort = () => end();
        spec.signal.addEventListener("abort", abort, { once: true });
        cleanups.push(() => spec.signal.removeEventListener("abort", abort));
      }
    },
    cancel: () => end(),
  });
  return new Response(stream, { status: 200, headers: { "content-type": "text/event-stream", "cache-control": "no-cache, no-transform", "x-accel-buffering": "no" } });
}
