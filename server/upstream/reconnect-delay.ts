// The wait before an entry's next reconnect: the first delay doubled per failed attempt, capped, with ±20 %
// jitter so the processes of a gateway do not all knock on a recovering upstream at once.
import type { PoolOptions } from "./pool-scope";

/** `random` is a number in [0, 1) (Math.random by default). */
export function reconnectDelay(opts: Pick<PoolOptions, "reconnectDelayMs" | "maxReconnectDelayMs">, attempt: number, random: () => number = Math.random): number {
  return Math.min(opts.maxReconnectDelayMs, opts.reconnectDelayMs * 2 ** attempt) * (0.8 + random() * 0.4);
}
