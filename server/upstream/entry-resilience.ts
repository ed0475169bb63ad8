// An upstream's resilience: a circuit breaker (consecutive transient failures open it; a cancellation is not
// the upstream's failure, see upstream-errors.ts), a bulkhead (concurrency limit and queue), the policy a
// request runs under (with retries only when it may be repeated), and the hold that keeps the circuit open
// while a sandboxed process uses more memory than its breaker threshold.
import {
  bulkhead,
  CircuitState,
  circuitBreaker,
  ConsecutiveBreaker,
  ExponentialBackoff,
  handleWhen,
  retry,
  wrap,
  type BulkheadPolicy,
  type CircuitBreakerPolicy,
} from "cockatiel";
import type { Usage } from "../sandbox/supervisor";
import type { Entry, PoolOptions, PoolScope } from "./pool-scope";
import { isProcessLaunch } from "./upstream-client";
import { isTransient, UpstreamCallCanceledError } from "./upstream-errors";

/** The breaker and bulkhead of a new entry. */
export function entryResilience(opts: Pick<PoolOptions, "halfOpenAfterMs" | "breakerFailures">, maxConcurrency: number): { breaker: CircuitBreakerPolicy; bulkhead: BulkheadPolicy } {
  // A cancellation is not the upstream's failure, except of the half-open probe: it proved nothing, and
  // cockatiel would close the circuit on an error it does not count; it stays open until a probe answers.
  const counts = (err: unknown) => isTransient(err) || (err instanceof UpstreamCallCanceledError && breaker.state === CircuitState.HalfOpen);
  const breaker: CircuitBreakerPolicy = circuitBreaker(handleWhen(counts), { halfOpenAfter: opts.halfOpenAfterMs, breaker: new ConsecutiveBreaker(opts.breakerFailures) });
  return { breaker, bulkhead: bulkhead(maxConcurrency, maxConcurrency * 8) };
}

/** The entry's bulkhead and breaker, with up to one retry of a transient failure when `retryable`. */
export function resiliencePolicy(e: Pick<Entry, "bulkhead" | "breaker">, retryable: boolean) {
  const retries = retryable
    ? retry(handleWhen(isTransient), { maxAttempts: 2, backoff: new ExponentialBackoff({ initialDelay: 100, maxDelay: 1000 }) })
    : undefined;
  return retries ? wrap(e.bulkhead, retries, e.breaker) : wrap(e.bulkhead, e.breaker);
}

/** Opens the circuit while the process uses more memory than its threshold, closes it when it is back under. */
export function onSample({ log, events }: PoolScope, e: Entry, u: Usage) {
  e.usage = u;
  const iso = isProcessLaunch(e.spec.launch) ? e.spec.launch.isolation : undefined;
  if (!iso || iso.profile === "none") return;
  const over = u.memoryMb > (iso.memoryMb * iso.breakerMemoryPercent) / 100;
  if (over && !e.thresholdHold) {
    e.thresholdHold = e.breaker.isolate();
    log.warn({ server: e.spec.slug, memoryMb: Math.round(u.memoryMb), limitMb: iso.memoryMb }, "memory above the breaker threshold: circuit opened");
    events.onThreshold?.(e.spec, true, u);
  } else if (!over && e.thresholdHold) {
    releaseHold(e);
    events.onThreshold?.(e.spec, false, u);
  }
}

export function releaseHold(e: Entry) {
  e.thresholdHold?.dispose();
  e.thresholdHold = undefined;
}
