// Group commit for small per-call statements: the first item is sent at once (a lone call waits for nothing),
// and the items that arrive while a batch is in the database go together in the next one. Under load a
// statement per call becomes a statement per batch: fewer round trips, socket writes and commits.

/** Runs `run` over batches of at most `maxBatch` items, one batch at a time; `run` answers item by item, in order. */
export function groupBatches<I, O>(run: (items: I[]) => Promise<O[]>, maxBatch = 64): (item: I) => Promise<O> {
  type Pending = { item: I; resolve(o: O): void; reject(err: unknown): void };
  let queue: Pending[] = [];
  let running = false;

  async function drain() {
    running = true;
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
    running = false;
  }

  return (item) =>
    new Promise<O>((resolve, reject) => {
      queue.push({ item, resolve, reject });
      if (!running) void drain();
    });
}
