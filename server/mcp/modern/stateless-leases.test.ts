// Stateless upstream sessions: one request at a time on each, reused in order.
import { describe, expect, it } from "vitest";
import { createStatelessLeases } from "./stateless-leases";

describe("createStatelessLeases", () => {
  it("gives concurrent requests distinct handles and reuses the lowest free one", () => {
    const leases = createStatelessLeases();
    const a = leases.acquire("s");
    const b = leases.acquire("s");
    const other = leases.acquire("t");
    expect([a.id, b.id, other.id]).toEqual(["s", "s-1", "t"]);
    a.release();
    expect(leases.acquire("s").id).toBe("s");
    expect(leases.acquire("s").id).toBe("s-2");
  });
  it("releases once however often release is called", () => {
    const leases = createStatelessLeases();
    const a = leases.acquire("s");
    const b = leases.acquire("s");
    a.release();
    a.release();
    expect(leases.inUse()).toBe(1);
    b.release();
    expect(leases.inUse()).toBe(0);
  });
});
