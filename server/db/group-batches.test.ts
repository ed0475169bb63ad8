// Group commit's batching, driven by hand: each batch the runner receives waits until the test settles it.
import { describe, expect, it } from "vitest";
import { groupBatches } from "./group-batches";

function recorder() {
  const batches: { items: number[]; settle(fail?: boolean): void }[] = [];
  let arrived: (() => void) | undefined;
  const run = (items: number[]) =>
    new Promise<string[]>((resolve, reject) => {
      batches.push({ items, settle: (fail) => (fail ? reject(new Error(`batch ${items.join(",")} failed`)) : resolve(items.map((i) => `done ${String(i)}`))) });
      arrived?.();
    });
  /** Resolves once `n` batches have reached the runner. */
  const batchCount = (n: number) =>
    new Promise<void>((resolve) => {
      const check = () => (batches.length >= n ? resolve() : (arrived = check));
      check();
    });
  return { batches, run, batchCount };
}

describe("groupBatches", () => {
  it("sends a lone item at once, and what arrives meanwhile as the next batch, answering each item its own", async () => {
    const r = recorder();
    const send = groupBatches(r.run);
    const first = send(1);
    await r.batchCount(1);
    const rest = [send(2), send(3), send(4)];
    expect(r.batches.map((b) => b.items)).toEqual([[1]]);
    r.batches[0]!.settle();
    expect(await first).toBe("done 1");
    await r.batchCount(2);
    expect(r.batches[1]!.items).toEqual([2, 3, 4]);
    r.batches[1]!.settle();
    expect(await Promise.all(rest)).toEqual(["done 2", "done 3", "done 4"]);
  });

  it("keeps up to maxInFlight batches in the database at once, and no more", async () => {
    const r = recorder();
    const send = groupBatches(r.run, 64, 2);
    const a = send(1);
    const b = send(2);
    await r.batchCount(2);
    const c = send(3);
    const d = send(4);
    // Two batches are out: 3 and 4 wait, together, for one of them to end.
    expect(r.batches.map((x) => x.items)).toEqual([[1], [2]]);
    r.batches[1]!.settle();
    await r.batchCount(3);
    expect(r.batches[2]!.items).toEqual([3, 4]);
    r.batches[0]!.settle();
    r.batches[2]!.settle();
    expect(await Promise.all([a, b, c, d])).toEqual(["done 1", "done 2", "done 3", "done 4"]);
  });

  it("a failed batch fails only its own items", async () => {
    const r = recorder();
    const send = groupBatches(r.run, 64, 2);
    const a = send(1);
    const b = send(2);
    await r.batchCount(2);
    r.batches[0]!.settle(true);
    r.batches[1]!.settle();
    await expect(a).rejects.toThrow("batch 1 failed");
    expect(await b).toBe("done 2");
  });

  it("cuts batches at maxBatch items", async () => {
    const r = recorder();
    const send = groupBatches(r.run, 2);
    const all = [send(1)];
    await r.batchCount(1);
    all.push(send(2), send(3), send(4));
    r.batches[0]!.settle();
    await r.batchCount(2);
    r.batches[1]!.settle();
    await r.batchCount(3);
    r.batches[2]!.settle();
    await Promise.all(all);
    expect(r.batches.map((x) => x.items)).toEqual([[1], [2, 3], [4]]);
  });
});
