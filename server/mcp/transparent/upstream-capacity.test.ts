import { describe, expect, it } from "vitest";
import { createUpstreamCapacity, idleTimeoutMs, type CapacityLimits, type SlotKey } from "./upstream-capacity";

const limits: CapacityLimits = { perSession: 2, perUser: 3, perServer: 4, perProcess: 5, idleMs: 600_000, pressureIdleMs: 30_000, pressureFraction: 0.5 };

describe("idleTimeoutMs", () => {
  it.each([
    [0, 600_000],
    [0.5, 600_000],
    [0.75, 315_000],
    [1, 30_000],
    [2, 30_000],
  ])("at occupancy %d the idle timeout is %i ms", (occupancy, ms) => {
    expect(idleTimeoutMs(limits, occupancy)).toBe(ms);
  });

  it("never scales when pressure starts only at the limit itself", () => {
    expect(idleTimeoutMs({ ...limits, pressureFraction: 1 }, 1)).toBe(600_000);
  });
});

describe("createUpstreamCapacity", () => {
  let t = 0;
  const key = (id: string, over: Partial<SlotKey> = {}): SlotKey => ({ mcpSessionId: id, sessionKey: "as1", userId: "u1", serverId: "srv", slug: "s", ...over });
  const busy = () => null;

  it("claims once per MCP session; refuses by the first limit reached, with a retry hint, and counts it", () => {
    const c = createUpstreamCapacity(limits, () => t);
    c.claim(key("a"), busy);
    expect(c.claim(key("a"), busy).removed).toEqual([]);
    c.claim(key("b"), busy);
    expect(() => c.claim(key("c"), busy)).toThrow(expect.objectContaining({ code: "upstream_capacity", details: { limit: "session", max: 2 }, retryAfterSeconds: 30 }));
    c.claim(key("c", { sessionKey: "as2" }), busy);
    expect(() => c.claim(key("d", { sessionKey: "as3" }), busy)).toThrow(expect.objectContaining({ details: { limit: "user", max: 3 } }));
    c.claim(key("e", { sessionKey: "x", userId: "u2" }), busy);
    expect(() => c.claim(key("f", { sessionKey: "y", userId: "u3" }), busy)).toThrow(expect.objectContaining({ details: { limit: "server", max: 4 } }));
    c.claim(key("g", { sessionKey: "z", userId: "u4", serverId: "other", slug: "o" }), busy);
    expect(() => c.claim(key("h", { sessionKey: "w", userId: "u5", serverId: "third" }), busy)).toThrow(expect.objectContaining({ details: { limit: "process", max: 5 } }));
    expect(c.stats()).toMatchObject({ perServer: { s: 4, o: 1 }, refusals: { session: 1, user: 1, server: 1, process: 1 } });
  });

  it("over a limit evicts the same user's longest-idle process in scope, never another user's", () => {
    t = 1_000;
    const c = createUpstreamCapacity(limits, () => t);
    c.claim(key("a", { userId: "u1", sessionKey: "1" }), () => 100);
    c.claim(key("b", { userId: "u1", sessionKey: "2" }), () => 50);
    c.claim(key("c", { userId: "u2", sessionKey: "3" }), () => 10);
    c.claim(key("d", { userId: "u2", sessionKey: "4" }), () => 20);
    // Server full: u1's newcomer takes u1's longest-idle (b), not u2's older ones.
    expect(c.claim(key("e", { userId: "u1", sessionKey: "5" }), busy).removed.map((s) => s.mcpSessionId)).toEqual(["b"]);
    // u3 has nothing to give up: refused, with the time until the oldest idle one may be reaped at full pressure.
    expect(() => c.claim(key("f", { userId: "u3", sessionKey: "6" }), busy)).toThrow(expect.objectContaining({ details: { limit: "server", max: 4 }, retryAfterSeconds: 30 }));
    expect(c.stats().reaped.evicted).toBe(1);
  });

  it("a claim first reaps what has expired at the current pressure; an abandoned reservation goes at once", () => {
    t = 0;
    const c = createUpstreamCapacity(limits, () => t);
    c.claim(key("old", { userId: "u1", sessionKey: "1" }), () => 0);
    c.claim(key("gone", { userId: "u2", sessionKey: "2" }), () => -Infinity);
    t = 100_000;
    const { removed } = c.claim(key("new", { userId: "u3", sessionKey: "3" }), busy);
    expect(removed.map((s) => s.mcpSessionId)).toEqual(["gone"]);
    expect(c.holds("old")).toBe(true);
    t = 600_001;
    expect(c.expire().map((s) => s.mcpSessionId)).toEqual(["old"]);
  });
});
