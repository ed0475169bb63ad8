// Group commit for small per-call statements: the first item is sent at once (a lone call waits for nothing),
// and the items that arrive while batches are in the database go together in the next one. Under load a
// statement per call becomes a statement per batch: fewer round trips, socket writes and commits. Up to
// `maxInFlight` batches run at once (each on a connection of its own), so one slow batch, or one backend
// working through a long batch alone, does not hold every call behind it while other cores are idle.

/** Runs `run` over batches of at most `maxBatch` items, at most `maxInFlight` at a time; `run` answers item by item, in order. */
export function groupBatches<I, O>(run: (items: I[]) => Promise<O[]>, maxBatch = 64, maxInFlight = 1): (item: I) => Promise<O> {
  type Pending = { item: I; resolve(o: O): void; reject(err: unknown): void };
  let queue: Pending[] = [];
  let inFlight = 0;

  async function drain() {
    inFlight++;
    while (queue.length) {
      const batch = queue.slice(0, maxBatch);
      queue = queue.slice(batch.length);
      try {
        const out = await run(batch.map((p) => p.item));
        batch.forEach((p, i) => p.resolve(out[i]!));
      } catch (err) {
        for (const p of batch) p.reject(err);
      }
    }
    inFlight--;
  }

  return (item) =>
    new Promise<O>((resolve, reject) => {
      queue.push({ item, resolve, reject });
      if (inFlight < maxInFlight) void drain();
    });
}
