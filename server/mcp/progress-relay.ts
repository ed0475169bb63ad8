// Progress for one request goes out one notification at a time, and the answer after the last: each send stores
// its event first (resumable streams), so concurrent sends could overtake one another, or the answer could close
// the stream while a notification is still in flight.
import type { ProgressFn } from "./endpoint-naming";

export type ProgressParams = Parameters<ProgressFn>[0] & { progressToken: string | number };

/** The progress callback for a request that asked for progress (`token`), and what to await before answering. */
export function progressRelay(token: string | number | undefined, send: ((params: ProgressParams) => Promise<void>) | undefined): { onProgress: ProgressFn | undefined; flushed: () => Promise<unknown> } {
  let sent: Promise<unknown> = Promise.resolve();
  if (token === undefined || !send) return { onProgress: undefined, flushed: () => sent };
  return {
    onProgress: (p) => {
      sent = sent.then(() => send({ ...p, progressToken: token })).catch(() => undefined);
    },
    flushed: () => sent,
  };
}
