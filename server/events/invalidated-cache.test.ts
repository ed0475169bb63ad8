import { describe, expect, it, vi } from "vitest";
import type { ChangeBus, ChangeEvent } from "./change-bus";
import { createInvalidatedCache } from "./invalidated-cache";

function fakeBus() {
  const subs = new Set<(e: ChangeEvent) => void>();
  const bus: ChangeBus = {
    publish: async (e) => subs.forEach((fn) => fn(e)),
    subscribe: (fn) => (subs.add(fn), () => void subs.delete(fn)),
    heardEverywhere: (fn) => fn(),
    close: async () => undefined,
  };
  return { bus, emit: (e: ChangeEvent) => subs.forEach((fn) => fn(e)) };
}

function setup(ttlMs = 10_000) {
  const { bus, emit } = fakeBus();
  const cache = createInvalidatedCache<{ id: string; owner: string }>({
    bus,
    ttlMs,
    invalidates: (e) => (e.kind === "session-closed" ? e.mcpSessionId : e.kind === "user" ? (_k, v) => v.owner === e.userId : undefined),
  });
  let loads = 0;
  const load = (id: string, owner = "u1") => async () => (loads++, { id, owner });
  return { cache, emit, load, loads: () => loads };
}

describe("createInvalidatedCache", () => {
  it("serves nothing until the bus listens, then serves from memory", async () => {
    const { cache, emit, load, loads } = setup();
    await cache.get("a", load("a"));
    await cache.get("a", load("a"));
    expect(loads()).toBe(2);
    emit({ kind: "listening", listening: true });
    await cache.get("a", load("a"));
    await cache.get("a", load("a"));
    expect(loads()).toBe(3);
  });

  it("drops an entry named by an event, and entries a predicate picks", async () => {
    const { cache, emit, load, loads } = setup();
    emit({ kind: "listening", listening: true });
    await cache.get("a", load("a", "u1"));
    await cache.get("b", load("b", "u2"));
    emit({ kind: "session-closed", mcpSessionId: "a" });
    await cache.get("a", load("a", "u1"));
    await cache.get("b", load("b", "u2"));
    expect(loads()).toBe(3);
    emit({ kind: "user", userId: "u2" });
    await cache.get("a", load("a", "u1"));
    await cache.get("b", load("b", "u2"));
    expect(loads()).toBe(4);
  });

  it("forgets everything when the bus stops listening, and serves nothing until it listens again", async () => {
    const { cache, emit, load, loads } = setup();
    emit({ kind: "listening", listening: true });
    await cache.get("a", load("a"));
    emit({ kind: "listening", listening: false });
    await cache.get("a", load("a"));
    await cache.get("a", load("a"));
    expect(loads()).toBe(3);
  });

  it("expires entries after the TTL", async () => {
    vi.useFakeTimers();
    try {
      const { cache, emit, load, loads } = setup(1000);
      emit({ kind: "listening", listening: true });
      await cache.get("a", load("a"));
      vi.advanceTimersByTime(999);
      await cache.get("a", load("a"));
      expect(loads()).toBe(1);
      vi.advanceTimersByTime(2);
      await cache.get("a", load("a"));
      expect(loads()).toBe(2);
    } finally {
      vi.useRealTimers();
    }
  });

  it("does not store what a load read before an invalidation that arrived while it ran", async () => {
    const { cache, emit } = setup();
    emit({ kind: "listening", listening: true });
    let release!: () => void;
    const slow = cache.get("a", () => new Promise((r) => (release = () => r({ id: "a", owner: "u1" }))));
    emit({ kind: "session-closed", mcpSessionId: "a" });
    // A caller after the invalidation does not join the stale load.
    const fresh = vi.fn(async () => ({ id: "a", owner: "fresh" }));
    expect(await cache.get("a", fresh)).toEqual({ id: "a", owner: "fresh" });
    release();
    expect(await slow).toEqual({ id: "a", owner: "u1" }); // its own caller gets what it read…
    // …but it is not stored over the fresh entry.
    expect(await cache.get("a", fresh)).toEqual({ id: "a", owner: "fresh" });
    expect(fresh).toHaveBeenCalledTimes(1);
  });

  it("shares one load between concurrent misses and caches neither null nor errors", async () => {
    const { cache, emit } = setup();
    emit({ kind: "listening", listening: true });
    const load = vi.fn(async () => ({ id: "a", owner: "u1" }));
    await Promise.all([cache.get("a", load), cache.get("a", load), cache.get("a", load)]);
    expect(load).toHaveBeenCalledTimes(1);
    const none = vi.fn(async () => null);
    await cache.get("n", none);
    await cache.get("n", none);
    expect(none).toHaveBeenCalledTimes(2);
    const failing = vi.fn(async () => Promise.reject(new Error("db down")));
    await expect(cache.get("f", failing)).rejects.toThrow("db down");
    await expect(cache.get("f", failing)).rejects.toThrow("db down");
    expect(failing).toHaveBeenCalledTimes(2);
  });
});
