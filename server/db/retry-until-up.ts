// Something that must come back after the database went away (a LISTEN connection, a session-level lock): each
// failed try schedules the next, 1 s apart growing to 5 s by default, until one succeeds or the owner closes.
// PostgreSQL may be down far longer than one try (a restart, a failover), so giving up is never right here.
// `writeUntilUp` is the same schedule for a write (or a start-up) its caller awaits in line.

export type RetryUntilUp = {
  /** Schedules a try unless one is already scheduled or the owner is closed; a failed try schedules the next. */
  schedule(this: void): void;
  /** The thing is up again: the next outage starts from the first delay. */
  reset(this: void): void;
  /** No more tries (the owner is closing). */
  cancel(this: void): void;
};

export function retryUntilUp(
  attempt: () => Promise<unknown>,
  o: { closed: () => boolean; onFailure: (err: unknown, attempt: number) => void; firstDelayMs?: number; maxDelayMs?: number },
): RetryUntilUp {
  const first = o.firstDelayMs ?? 1000;
  const max = o.maxDelayMs ?? 5000;
  let attempts = 0;
  let timer: NodeJS.Timeout | undefined;
  function schedule() {
    if (o.closed() || timer) return;
    const delay = backoffDelay(attempts, first, max);
    attempts++;
    timer = setTimeout(() => {
      timer = undefined;
      if (o.closed()) return;
      attempt().catch((err: unknown) => {
        o.onFailure(err, attempts);
        schedule();
      });
    }, delay);
    timer.unref();
  }
  return {
    schedule,
    reset: () => void (attempts = 0),
    cancel: () => {
      clearTimeout(timer);
      timer = undefined;
    },
  };
}

/** The wait before try `attempt + 1`: `first` doubling up to `max`. */
function backoffDelay(attempt: number, first: number, max: number): number {
  return Math.min(first * 2 ** Math.min(attempt, 10), max);
}

/**
 * `write()` (or any step the owner cannot go on without, such as a start-up), tried again while it fails with an
 * error `retryable` accepts and the owner is open; null once the owner closes while waiting. Any other failure is
 * thrown at once. `signal` (the owner closing) ends the wait at once rather than after it.
 */
export async function writeUntilUp<T>(
  write: () => Promise<T>,
  o: {
    closed: () => boolean;
    retryable: (err: unknown) => boolean;
    onFailure: (err: unknown, attempt: number, delayMs: number) => void;
    firstDelayMs?: number;
    maxDelayMs?: number;
    signal?: AbortSignal;
  },
): Promise<T | null> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await write();
    } catch (err) {
      if (!o.retryable(err) || o.closed()) throw err;
      const delay = backoffDelay(attempt, o.firstDelayMs ?? 1000, o.maxDelayMs ?? 5000);
      o.onFailure(err, attempt, delay);
      await wait(delay, o.signal);
      if (o.closed()) return null;
    }
  }
}

/** `ms` on the global timer (which tests' fake timers drive), or less once `signal` aborts. */
function wait(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener("abort", done, { once: true });
  });
}
