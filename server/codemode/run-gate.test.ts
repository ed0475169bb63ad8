import { describe, expect, it } from "vitest";
import { createRunGate } from "./run-gate";

describe("the run gate", () => {
  it("admits up to `concurrent` runs of one caller at once, others apart, and frees a place on release", async () => {
    const gate = createRunGate({ perMinute: 100, concurrent: 2, take: () => Promise.resolve(undefined) });
    const a1 = await gate.admit("a");
    const a2 = await gate.admit("a");
    const a3 = await gate.admit("a");
    expect("release" in a1 && "release" in a2).toBe(true);
    expect(a3).toMatchObject({ code: "rate_limited", retryAfterSeconds: 1 });
    expect("release" in (await gate.admit("b"))).toBe(true);
    if ("release" in a1) {
      a1.release();
      a1.release(); // twice frees one place only
    }
    expect("release" in (await gate.admit("a"))).toBe(true);
    expect("code" in (await gate.admit("a"))).toBe(true);
  });

  it("refuses past the per-minute budget with the limiter's wait, and a refused run holds no place", async () => {
    const keys: string[] = [];
    let left = 1;
    const gate = createRunGate({ perMinute: 1, concurrent: 1, take: (key) => (keys.push(key), Promise.resolve(left-- > 0 ? undefined : 42_100)) });
    const first = await gate.admit("s1");
    if ("release" in first) first.release();
    const second = await gate.admit("s1");
    expect(second).toMatchObject({ code: "rate_limited", retryAfterSeconds: 43 });
    expect("code" in second && second.message).toMatch(/at most 1 runs a minute/);
    expect(keys).toEqual(["code:s1", "code:s1"]);
    left = 1;
    expect("release" in (await gate.admit("s1"))).toBe(true); // the refusal left no run counted as running
  });

  it("frees the place when the limiter fails, and passes the failure on", async () => {
    let fail = true;
    const gate = createRunGate({ perMinute: 5, concurrent: 1, take: () => (fail ? Promise.reject(new Error("database down")) : Promise.resolve(undefined)) });
    await expect(gate.admit("x")).rejects.toThrow(/database down/);
    fail = false;
    expect("release" in (await gate.admit("x"))).toBe(true);
  });
});
