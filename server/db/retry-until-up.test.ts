import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { retryUntilUp, writeUntilUp } from "./retry-until-up";

describe("retryUntilUp", () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());

  it("tries again 1 s apart growing to 5 s until a try succeeds, one try at a time", async () => {
    const at: number[] = [];
    const start = Date.now();
    let failuresLeft = 4;
    const failures: number[] = [];
    const r = retryUntilUp(
      () => {
        at.push(Date.now() - start);
        return failuresLeft-- > 0 ? Promise.reject(new Error("database down")) : Promise.resolve();
      },
      { closed: () => false, onFailure: (_err, n) => failures.push(n) },
    );
    r.schedule();
    r.schedule(); // already scheduled: no second try
    await vi.runAllTimersAsync();
    expect(at).toEqual([1000, 3000, 7000, 12000, 17000]);
    expect(failures).toEqual([1, 2, 3, 4]);
  });

  it("starts from the first delay again after reset, and stops once closed or cancelled", async () => {
    let closed = false;
    let tries = 0;
    const r = retryUntilUp(() => (tries++, Promise.reject(new Error("down"))), { closed: () => closed, onFailure: () => undefined });
    r.schedule();
    await vi.advanceTimersByTimeAsync(3000);
    expect(tries).toBe(2);
    r.cancel();
    r.reset();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(tries).toBe(2);
    r.schedule();
    await vi.advanceTimersByTimeAsync(1000);
    expect(tries).toBe(3);
    closed = true;
    await vi.advanceTimersByTimeAsync(60_000);
    expect(tries).toBe(3);
  });
});

describe("writeUntilUp", () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());

  const down = Object.assign(new Error("down"), { retry: true });
  const retryable = (err: unknown) => (err as { retry?: boolean }).retry === true;

  it("writes again 0.5 s apart growing to 5 s while the failure is retryable, and answers the write's value", async () => {
    const at: number[] = [];
    const start = Date.now();
    let failuresLeft = 5;
    const delays: number[] = [];
    const result = writeUntilUp(
      () => {
        at.push(Date.now() - start);
        return failuresLeft-- > 0 ? Promise.reject(down) : Promise.resolve("written");
      },
      { closed: () => false, retryable, firstDelayMs: 500, onFailure: (_err, _n, delayMs) => delays.push(delayMs) },
    );
    await vi.runAllTimersAsync();
    await expect(result).resolves.toBe("written");
    expect(delays).toEqual([500, 1000, 2000, 4000, 5000]);
    expect(at).toEqual([0, 500, 1500, 3500, 7500, 12500]);
  });

  it("throws any other failure at once, and answers null when the owner closes while waiting", async () => {
    const other = new Error("constraint");
    await expect(writeUntilUp(() => Promise.reject(other), { closed: () => false, retryable, onFailure: () => undefined })).rejects.toBe(other);
    let closed = false;
    const result = writeUntilUp(() => Promise.reject(down), { closed: () => closed, retryable, onFailure: () => void (closed = true) });
    await vi.runAllTimersAsync();
    await expect(result).resolves.toBeNull();
  });

  it("ends its wait when the owner's signal aborts, without waiting it out", async () => {
    const stop = new AbortController();
    let tries = 0;
    const result = writeUntilUp(
      () => {
        tries++;
        return Promise.reject(down);
      },
      { closed: () => stop.signal.aborted, retryable, onFailure: () => undefined, signal: stop.signal },
    );
    // The first try has failed; the next is 1 s away, and no timer is advanced from here on.
    await vi.advanceTimersByTimeAsync(0);
    expect([tries, vi.getTimerCount()]).toEqual([1, 1]);
    stop.abort();
    await expect(result).resolves.toBeNull();
    expect([tries, vi.getTimerCount()]).toEqual([1, 0]);
  });
});
