import { describe, expect, it } from "vitest";
import { filterFromSearch, filterQuery, exportHref } from "./audit-api";
import { formatMs, formatTotal, fromLocalInput, statusOf, toLocalInput } from "./audit-format";

describe("audit console helpers", () => {
  it("keeps only the known, non-empty filter keys of a URL, in a stable order", () => {
    const f = filterFromSearch(new URLSearchParams("q=%20&tool=orders__*&foo=1&status=denied&user=a%40b.c"));
    expect(f).toEqual({ tool: "orders__*", status: "denied", user: "a@b.c" });
    expect(filterQuery(f)).toBe("user=a%40b.c&tool=orders__*&status=denied");
    expect(exportHref(f, "jsonl")).toBe("/api/v1/audit/export?user=a%40b.c&tool=orders__*&status=denied&format=jsonl");
  });

  it("says when a total is an estimate", () => {
    expect(formatTotal({ total: 1, totalIsEstimate: false })).toBe("1 event");
    expect(formatTotal({ total: 12345, totalIsEstimate: false })).toBe("12,345 events");
    expect(formatTotal({ total: 510000, totalIsEstimate: true })).toBe("about 510,000 events");
  });

  it("formats durations and statuses", () => {
    expect(formatMs(null)).toBe("—");
    expect(formatMs(40)).toBe("40 ms");
    expect(formatMs(1234)).toBe("1.23 s");
    expect(formatMs(30_000)).toBe("30.0 s");
    expect(statusOf("denied")).toEqual({ label: "Denied", tone: "amber" });
    expect(statusOf("weird")).toEqual({ label: "Weird", tone: "slate" });
  });

  it("round-trips datetime-local values through ISO instants", () => {
    const iso = fromLocalInput("2026-06-01T12:30")!;
    expect(toLocalInput(iso)).toBe("2026-06-01T12:30");
    expect(fromLocalInput("")).toBeUndefined();
    expect(toLocalInput("nonsense")).toBe("");
  });
});
