// The reconnect backoff alone: doubling per attempt, the cap, and the ±20 % jitter at its two ends.
import { describe, expect, it } from "vitest";
import { reconnectDelay } from "./reconnect-delay";

const opts = { reconnectDelayMs: 500, maxReconnectDelayMs: 30_000 };
const middle = () => 0.5; // jitter factor 1.0

describe("reconnectDelay", () => {
  it.each([
    [0, 500],
    [1, 1000],
    [2, 2000],
    [5, 16_000],
    [6, 30_000], // 32 000 capped
    [20, 30_000],
  ])("attempt %i waits %i ms before jitter", (attempt, ms) => {
    expect(reconnectDelay(opts, attempt, middle)).toBe(ms);
  });

  it("jitters between 80 % and 120 % of the capped delay", () => {
    expect(reconnectDelay(opts, 1, () => 0)).toBe(800);
    expect(reconnectDelay(opts, 1, () => 0.999_999)).toBeCloseTo(1200, 3);
    expect(reconnectDelay(opts, 30, () => 0)).toBe(24_000);
  });
});
