// The listen stream's own rules, on an in-memory bus: acknowledgement first, only opted-in lists that changed,
// resource updates only for listened URIs the session may read now, the end on a refused look, the graceful end.
import { describe, expect, it } from "vitest";
import type { ChangeBus, ChangeEvent } from "../../events/change-bus";
import { listFingerprint, type ListView } from "./list-fingerprint";
import { listenStream, type Look } from "./listen-stream";
import { createListenStreams } from "./listen-streams";
import type { ModernMessage } from "./modern-request-refusal";
import { serveListen } from "./serve-listen";
import { sseMessages } from "../../http/sse-messages";

function memoryBus() {
  const fns = new Set<(e: ChangeEvent) => void>();
  const bus = { subscribe: (fn: (e: ChangeEvent) => void) => (fns.add(fn), () => void fns.delete(fn)) } as unknown as ChangeBus;
  return { bus, emit: (e: ChangeEvent) => fns.forEach((fn) => fn(e)), listeners: () => fns.size };
}

const view = (tools: string[], prompts: string[] = []): ListView => ({ tools: tools.map((name) => ({ name })), prompts: prompts.map((name) => ({ name })), resources: [] });

function open(opts: { look: Look; uris?: string[]; readable?: (u: string) => boolean; filter?: { toolsListChanged?: boolean; promptsListChanged?: boolean } }) {
  const { bus, emit, listeners } = memoryBus();
  let graceful: () => void = () => {};
  let ended = 0;
  const res = listenStream({
    id: 7,
    filter: { toolsListChanged: opts.filter?.toolsListChanged ?? true, promptsListChanged: opts.filter?.promptsListChanged ?? false, resourcesListChanged: false, resourceSubscriptions: opts.uris ?? [] },
    acknowledged: { toolsListChanged: true },
    bus,
    look: opts.look,
    first: { fingerprint: listFingerprint(view(["a"])), mayRead: opts.readable ?? (() => true) },
    resourceSession: "listen-x",
    expiresAt: new Date(Date.now() + 3_600_000),
    signal: new AbortController().signal,
    serverInfo: { name: "portcullis", version: "t" },
    register: (end) => ((graceful = end), true),
    onEnd: () => void ended++,
  })!;
  const frames = sseMessages(res.body!);
  return { emit, next: async (): Promise<Record<string, unknown> | null> => {
      const n = await frames.next();
      return n.done ? null : n.value;
    }, graceful: () => graceful(), ended: () => ended, listeners };
}

describe("listen stream", () => {
  it("acknowledges first, then tells only the opted-in lists that changed", async () => {
    const views = [view(["a"], ["p"]), view(["a", "b"], ["p"])];
    const s = open({ look: async () => ({ fingerprint: listFingerprint(views.shift() ?? view(["a", "b"], ["p"])), mayRead: () => true }) });
    expect(await s.next()).toMatchObject({ method: "notifications/subscriptions/acknowledged", params: { _meta: { "io.modelcontextprotocol/subscriptionId": 7 } } });
    // The first look finds prompts changed (not asked for), the second tools.
    s.emit({ kind: "policy" });
    s.emit({ kind: "registry" });
    expect(await s.next()).toEqual({ jsonrpc: "2.0", method: "notifications/tools/list_changed", params: { _meta: { "io.modelcontextprotocol/subscriptionId": 7 } } });
    s.graceful();
    expect(await s.next()).toEqual({ jsonrpc: "2.0", id: 7, result: { resultType: "complete", _meta: { "io.modelcontextprotocol/subscriptionId": 7, "io.modelcontextprotocol/serverInfo": { name: "portcullis", version: "t" } } } });
    expect(await s.next()).toBeNull();
    expect(s.ended()).toBe(1);
    expect(s.listeners()).toBe(0);
  });

  it("passes on resource updates only for listened URIs the session may read, as its access is now", async () => {
    let readable = true;
    // Each look sees one more tool, so its list_changed shows the look is done.
    let tools = ["a"];
    const s = open({ uris: ["u:1"], readable: () => readable, look: async () => ((tools = [...tools, `t${String(tools.length)}`]), { fingerprint: listFingerprint(view(tools)), mayRead: () => readable }) });
    await s.next();
    const updated = (mcpSessionId: string, uri: string) => s.emit({ kind: "session-out", mcpSessionId, message: { jsonrpc: "2.0", method: "notifications/resources/updated", params: { uri } } });
    updated("listen-other", "u:1");
    updated("listen-x", "u:2");
    updated("listen-x", "u:1");
    expect(await s.next()).toMatchObject({ method: "notifications/resources/updated", params: { uri: "u:1" } });
    // The grant narrows: the next look records it, and updates stop.
    readable = false;
    s.emit({ kind: "policy" });
    expect(await s.next()).toMatchObject({ method: "notifications/tools/list_changed" });
    updated("listen-x", "u:1");
    s.emit({ kind: "session-closed", mcpSessionId: "listen-x" });
    expect(await s.next()).toMatchObject({ id: 7, result: { resultType: "complete" } });
  });

  it("ends with the look's error (a revoked session), once", async () => {
    const s = open({ look: async () => ({ error: { code: -32001, message: "revoked" } }) });
    await s.next();
    s.emit({ kind: "agent_session", sessionId: "x" });
    s.emit({ kind: "agent_session", sessionId: "x" });
    expect(await s.next()).toEqual({ jsonrpc: "2.0", id: 7, error: { code: -32001, message: "revoked" } });
    expect(await s.next()).toBeNull();
    expect(s.ended()).toBe(1);
  });
});

describe("serveListen", () => {
  it("tells a resource update the upstream sends as soon as it is subscribed, before the stream opened (ci64, ci67)", async () => {
    const fns = new Set<(e: ChangeEvent) => void>();
    const emit = (e: ChangeEvent) => fns.forEach((fn) => fn(e));
    const bus = { subscribe: (fn: (e: ChangeEvent) => void) => (fns.add(fn), () => void fns.delete(fn)), publish: async (e: ChangeEvent) => emit(e) } as unknown as ChangeBus;
    const res = await serveListen(
      { jsonrpc: "2.0", id: 9, method: "subscriptions/listen", params: { notifications: { resourceSubscriptions: ["test://watched"] }, _meta: {} } } satisfies ModernMessage,
      {
        bus,
        streams: createListenStreams(),
        agentSession: { id: "s1", expiresAt: new Date(Date.now() + 3_600_000) },
        look: async () => ({ fingerprint: listFingerprint(view(["a"])), mayRead: () => true }),
        // The upstream answers the subscription and announces an update in the same breath: both before the stream.
        subscribe: async (handle) => {
          emit({ kind: "session-out", mcpSessionId: handle, message: { jsonrpc: "2.0", method: "notifications/resources/updated", params: { uri: "test://watched" } } });
          emit({ kind: "session-out", mcpSessionId: handle, message: { jsonrpc: "2.0", method: "notifications/resources/updated", params: { uri: "test://other" } } });
          return null;
        },
        signal: new AbortController().signal,
        serverInfo: { name: "portcullis", version: "t" },
      },
    );
    const frames = sseMessages(res.body!);
    expect((await frames.next()).value).toMatchObject({ method: "notifications/subscriptions/acknowledged" });
    expect((await frames.next()).value).toEqual({ jsonrpc: "2.0", method: "notifications/resources/updated", params: { uri: "test://watched", _meta: { "io.modelcontextprotocol/subscriptionId": 9 } } });
    // One listener: the stream's own (the early one stopped when the stream began listening).
    expect(fns.size).toBe(1);
  });
});
