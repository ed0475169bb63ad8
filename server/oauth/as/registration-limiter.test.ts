import { describe, expect, it } from "vitest";
import { createRegistrationLimiter } from "./registration-limiter";

describe("createRegistrationLimiter", () => {
  it("allows `perHour` registrations per address in an hour, then refuses until the hour is over; addresses apart", () => {
    let t = 0;
    const limiter = createRegistrationLimiter(3, () => t);
    expect([1, 2, 3, 4].map(() => limiter.take("10.0.0.1"))).toEqual([true, true, true, false]);
    expect(limiter.take("10.0.0.2")).toBe(true);
    t = 3_599_999;
    expect(limiter.take("10.0.0.1")).toBe(false);
    t = 3_600_000;
    expect(limiter.take("10.0.0.1")).toBe(true);
  });
});
