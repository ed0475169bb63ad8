import { describe, expect, it } from "vitest";
import { eventId } from "./event-id";

describe("eventId", () => {
  it("is a version-7 UUID whose order follows time", () => {
    const a = eventId(1_700_000_000_000);
    const b = eventId(1_700_000_000_001);
    expect(a).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(a.slice(0, 13)).toBe("018bcfe5-6800");
    expect(a < b).toBe(true);
    expect(new Set(Array.from({ length: 1000 }, () => eventId(1)))).toHaveProperty("size", 1000);
  });
});
