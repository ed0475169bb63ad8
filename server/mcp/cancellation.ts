// Agent cancellation: `notifications/cancelled` arrives as its own POST, on any gateway process. The HTTP
// handler publishes it on the change bus; the process running the request aborts it here, and the upstream
// request's AbortSignal sends `notifications/cancelled` on to the upstream.
import type { ChangeBus } from "../events/change-bus";

export class CancelledByClientError extends Error {
  override name = "CancelledByClientError";
}

/**
 * Runs `fn` with a signal that aborts when the agent cancels request `requestId` of its MCP session (and, if
 * given, when `signal` aborts).
 */
export async function cancellable<T>(
  bus: ChangeBus,
  mcpSessionId: string,
  requestId: string | number,
  signal: AbortSignal | undefined,
  fn: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const cancelled = new AbortController();
  const unsubscribe = bus.subscribe((e) => {
    if (e.kind === "cancel" && e.mcpSessionId === mcpSessionId && e.requestId === requestId) {
      cancelled.abort(new CancelledByClientError(e.reason ?? "cancelled by the client"));
    }
  });
  // The transport's abort is forwarded to the same controller: AbortSignal.any would make a dependent signal per
  // call, which Node keeps track of with weak references (a noticeable share of a call's CPU, D81).
  const forward = () => cancelled.abort(signal?.reason);
  if (signal?.aborted) forward();
  else signal?.addEventListener("abort", forward, { once: true });
  try {
    return await fn(cancelled.signal);
  } finally {
    signal?.removeEventListener("abort", forward);
    unsubscribe();
  }
}
