import { describe, expect, it } from "vitest";
import { bearerMatches } from "./metrics-auth";

describe("metrics auth", () => {
  it("accepts only `Bearer <token>` with exactly that token", () => {
    const t = "s3cret-scrape-token";
    expect(bearerMatches(`Bearer ${t}`, t)).toBe(true);
    expect(bearerMatches(`bearer  ${t}`, t)).toBe(true);
    expect(bearerMatches(`Bearer ${t}x`, t)).toBe(false);
    expect(bearerMatches(`Bearer ${t.slice(1)}`, t)).toBe(false);
    expect(bearerMatches(t, t)).toBe(false);
    expect(bearerMatches(`Basic ${t}`, t)).toBe(false);
    expect(bearerMatches(null, t)).toBe(false);
  });

  it("accepts nothing when no token is configured", () => {
    expect(bearerMatches("Bearer ", undefined)).toBe(false);
    expect(bearerMatches("Bearer anything", undefined)).toBe(false);
  });
});
