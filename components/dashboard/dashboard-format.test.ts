import { describe, expect, it } from "vitest";
import { formatMs, formatPerMinute, formatRate, windowLabel } from "./dashboard-format";

describe("dashboard formats", () => {
  it("formats rates as percentages, a dash without calls", () => {
    expect(formatRate(null)).toBe("–");
    expect(formatRate(0)).toBe("0%");
    expect(formatRate(2 / 7)).toBe("29%");
    expect(formatRate(0.012)).toBe("1.2%");
  });
  it("formats latencies in ms or s", () => {
    expect(formatMs(null)).toBe("–");
    expect(formatMs(12.4)).toBe("12 ms");
    expect(formatMs(1500)).toBe("1.5 s");
    expect(formatMs(12_500)).toBe("13 s");
  });
  it("formats calls per minute and windows", () => {
    expect(formatPerMinute(0)).toBe("0");
    expect(formatPerMinute(0.12)).toBe("0.1");
    expect(formatPerMinute(42.4)).toBe("42");
    expect(windowLabel(15)).toBe("15 min");
    expect(windowLabel(360)).toBe("6 h");
  });
});
