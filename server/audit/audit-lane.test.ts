import { describe, expect, it, vi } from "vitest";
import { auditLane, type Pending } from "./audit-lane";

/** A row handed over, with what became of it. */
function row(id: string, at = "2026-12-06T12:00:00.000Z") {
  const settled: { state?: "resolved" | "rejected"; err?: unknown } = {};
  const pending: Pending = {
    row: { eventId: id, occurredAt: at },
    resolve: () => (settled.state = "resolved"),
    reject: (err) => Object.assign(settled, { state: "rejected", err }),
  };
  return { pending, settled };
}

/** A write whose batches the test lets through one at a time. */
function gatedWrite() {
  const batches: string[][] = [];
  const gates: (() => void)[] = [];
  const write = (batch: Pending[]) =>
    new Promise<void>((resolve) => {
      batches.push(batch.map((p) => p.row.eventId));
      gates.push(() => {
        for (const p of batch) p.resolve();
        resolve();
      });
    });
  return { write, batches, release: () => gates.shift()!() };
}

describe("an audit lane", () => {
  it("sends the first row at once and the rows that arrive meanwhile together, at most maxBatch a statement", async () => {
    const w = gatedWrite();
    const onBatch = vi.fn();
    const lane = auditLane({ maxBatch: 2, write: w.write, onBatch });
    const rows = ["a", "b", "c", "d"].map((id) => row(id));
    lane.push(rows[0]!.pending);
    expect(w.batches).toEqual([["a"]]);
    for (const r of rows.slice(1)) lane.push(r.pending);
    expect(lane.pending()).toBe(4);
    w.release();
    await vi.waitFor(() => expect(w.batches).toEqual([["a"], ["b", "c"]]));
    w.release();
    await vi.waitFor(() => expect(w.batches).toEqual([["a"], ["b", "c"], ["d"]]));
    w.release();
    await lane.drain();
    expect(rows.map((r) => r.settled.state)).toEqual(["resolved", "resolved", "resolved", "resolved"]);
    expect(onBatch.mock.calls.map(([b]) => (b as { rows: number; ok: boolean }).rows)).toEqual([1, 2, 1]);
    expect(lane.pending()).toBe(0);
  });

  it("takes the other lane's waiting rows into its statements, up to the room a batch has left", async () => {
    const w = gatedWrite();
    const outcomes = auditLane({ maxBatch: 10, write: w.write, onBatch: () => undefined, waitMs: 60_000 });
    const records = auditLane({ maxBatch: 3, write: w.write, onBatch: () => undefined, riders: (room) => outcomes.take(room) });
    for (const id of ["o1", "o2", "o3"]) outcomes.push(row(id).pending);
    expect(w.batches).toEqual([]); // outcomes wait for a ride
    records.push(row("r1").pending);
    expect(w.batches).toEqual([["r1", "o1", "o2"]]);
    expect(outcomes.pending()).toBe(1);
    w.release();
    await records.drain();
    // What no record took goes on its own on drain, without waiting out its timer.
    const drained = outcomes.drain();
    expect(w.batches[1]).toEqual(["o3"]);
    w.release();
    await drained;
    expect(outcomes.pending() + records.pending()).toBe(0);
  });

  it("sends a waiting lane's rows once its wait is over, or at once when a batch of them is full", async () => {
    vi.useFakeTimers();
    try {
      const w = gatedWrite();
      const lane = auditLane({ maxBatch: 2, write: w.write, onBatch: () => undefined, waitMs: 5 });
      lane.push(row("x").pending);
      expect(w.batches).toEqual([]);
      await vi.advanceTimersByTimeAsync(5);
      expect(w.batches).toEqual([["x"]]);
      w.release();
      await lane.drain();
      lane.push(row("y").pending);
      lane.push(row("z").pending);
      expect(w.batches).toEqual([["x"], ["y", "z"]]);
      w.release();
      await lane.drain();
    } finally {
      vi.useRealTimers();
    }
  });

  it("reports a batch with a refused row as not ok, and settles every row", async () => {
    const onBatch = vi.fn();
    const refusal = new Error("refused");
    const lane = auditLane({
      maxBatch: 10,
      write: async (batch) => batch.forEach((p, i) => (i === 0 ? p.reject(refusal) : p.resolve())),
      onBatch,
    });
    const [a, b, c] = [row("a"), row("b"), row("c")];
    lane.push(a.pending); // goes at once
    lane.push(b.pending); // b and c: the next batch
    lane.push(c.pending);
    await lane.drain();
    expect([a.settled, b.settled, c.settled]).toEqual([{ state: "rejected", err: refusal }, { state: "rejected", err: refusal }, { state: "resolved" }]);
    expect(onBatch.mock.calls.map(([x]) => x as { rows: number; ok: boolean }).map(({ rows, ok }) => [rows, ok])).toEqual([
      [1, false],
      [2, false],
    ]);
  });

  it("tells since when its oldest row waits: the batch in flight first, then the queue", async () => {
    const w = gatedWrite();
    const lane = auditLane({ maxBatch: 1, write: w.write, onBatch: () => undefined });
    expect(lane.oldestSince()).toBeNull();
    lane.push(row("a", "2026-12-06T12:00:00.000Z").pending);
    lane.push(row("b", "2026-12-06T12:00:01.000Z").pending);
    expect(lane.oldestSince()).toBe(Date.parse("2026-12-06T12:00:00.000Z"));
    w.release();
    await vi.waitFor(() => expect(lane.oldestSince()).toBe(Date.parse("2026-12-06T12:00:01.000Z")));
    w.release();
    await lane.drain();
    expect(lane.oldestSince()).toBeNull();
  });
});
