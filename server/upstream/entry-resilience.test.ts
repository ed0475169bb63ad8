// An entry's resilience policy alone (no connection): what is retried, and what the circuit breaker counts.
import { BrokenCircuitError, CircuitState } from "cockatiel";
import { describe, expect, it } from "vitest";
import { entryResilience, resiliencePolicy } from "./entry-resilience";
import { UpstreamCallCanceledError, UpstreamUnavailableError } from "./upstream-errors";

const opts = { halfOpenAfterMs: 60_000, breakerFailures: 2 };

/** A request that fails with `errors` in turn, then answers "ok"; counts its attempts. */
function flaky(...errors: Error[]) {
  let attempts = 0;
  return {
    run: () => {
      const err = errors[attempts++];
      return err ? Promise.reject(err) : Promise.resolve("ok");
    },
    attempts: () => attempts,
  };
}

describe("resiliencePolicy", () => {
  it("retries a transient failure once when the request may be repeated", async () => {
    const e = entryResilience(opts, 1);
    const req = flaky(new UpstreamUnavailableError("dropped"));
    expect(await resiliencePolicy(e, true).execute(req.run)).toBe("ok");
    expect(req.attempts()).toBe(2);
  });

  it("does not retry when the request may not be repeated, nor a caller's cancellation", async () => {
    const once = flaky(new UpstreamUnavailableError("dropped"));
    await expect(resiliencePolicy(entryResilience(opts, 1), false).execute(once.run)).rejects.toBeInstanceOf(UpstreamUnavailableError);
    expect(once.attempts()).toBe(1);
    const canceled = flaky(new UpstreamCallCanceledError("cancelled"));
    await expect(resiliencePolicy(entryResilience(opts, 1), true).execute(canceled.run)).rejects.toBeInstanceOf(UpstreamCallCanceledError);
    expect(canceled.attempts()).toBe(1);
  });

  it("opens the circuit after consecutive transient failures, but not for cancellations", async () => {
    const e = entryResilience(opts, 1);
    for (let i = 0; i < 3; i++) await expect(resiliencePolicy(e, false).execute(() => Promise.reject(new UpstreamCallCanceledError("cancelled")))).rejects.toBeInstanceOf(UpstreamCallCanceledError);
    expect(e.breaker.state).toBe(CircuitState.Closed);
    for (let i = 0; i < 2; i++) await expect(resiliencePolicy(e, false).execute(() => Promise.reject(new UpstreamUnavailableError("down")))).rejects.toBeInstanceOf(UpstreamUnavailableError);
    expect(e.breaker.state).toBe(CircuitState.Open);
    await expect(resiliencePolicy(e, false).execute(() => Promise.resolve("ok"))).rejects.toBeInstanceOf(BrokenCircuitError);
  });
});
