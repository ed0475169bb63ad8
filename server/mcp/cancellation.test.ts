import { describe, expect, it } from "vitest";
import type { ChangeBus, ChangeEvent } from "../events/change-bus";
import { cancellable, CancelledByClientError } from "./cancellation";

/** The bus's subscribe side only: events are delivered to the listeners as published. */
function localBus() {
  const listeners = new Set<(e: ChangeEvent) => void>();
  const bus = { subscribe: (fn: (e: ChangeEvent) => void) => (listeners.add(fn), () => void listeners.delete(fn)) } as unknown as ChangeBus;
  return { bus, emit: (e: ChangeEvent) => listeners.forEach((fn) => fn(e)), listeners };
}

const aborted = (signal: AbortSignal) => new Promise<unknown>((resolve) => signal.addEventListener("abort", () => resolve(signal.reason), { once: true }));

describe("cancellable", () => {
  it("aborts on the agent's cancellation of this request only, and stops listening when done", async () => {
    const { bus, emit, listeners } = localBus();
    const reason = await cancellable(bus, "s1", 7, undefined, (signal) => {
      emit({ kind: "cancel", mcpSessionId: "s1", requestId: 8 });
      emit({ kind: "cancel", mcpSessionId: "s2", requestId: 7 });
      expect(signal.aborted).toBe(false);
      const r = aborted(signal);
      emit({ kind: "cancel", mcpSessionId: "s1", requestId: 7, reason: "user pressed stop" });
      return r;
    });
    expect(reason).toBeInstanceOf(CancelledByClientError);
    expect((reason as Error).message).toBe("user pressed stop");
    expect(listeners.size).toBe(0);
  });

  it("aborts when the transport's signal aborts, with its reason, and leaves no listener on it", async () => {
    const { bus } = localBus();
    const transport = new AbortController();
    const reason = await cancellable(bus, "s1", 1, transport.signal, (signal) => {
      const r = aborted(signal);
      transport.abort(new Error("client went away"));
      return r;
    });
    expect((reason as Error).message).toBe("client went away");

    const later = new AbortController();
    let inner: AbortSignal | undefined;
    await cancellable(bus, "s1", 2, later.signal, (signal) => Promise.resolve((inner = signal)));
    later.abort();
    expect(inner?.aborted).toBe(false);
  });

  it("starts aborted when the transport's signal already is", async () => {
    const { bus } = localBus();
    const transport = new AbortController();
    transport.abort(new Error("gone"));
    const state = await cancellable(bus, "s1", 3, transport.signal, (signal) => Promise.resolve(signal.aborted));
    expect(state).toBe(true);
  });
});
