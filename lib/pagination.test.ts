import { describe, expect, it } from "vitest";
import { toPage } from "./pagination";

const rows = (n: number) => Array.from({ length: n }, (_, i) => ({ id: `r${i + 1}` }));

describe("toPage", () => {
  it.each([
    ["no rows", 0, 3, [], null],
    ["fewer rows than the limit", 2, 3, ["r1", "r2"], null],
    ["exactly the limit", 3, 3, ["r1", "r2", "r3"], null],
    ["one row past the limit", 4, 3, ["r1", "r2", "r3"], "r3"],
    ["a limit of one with a next row", 2, 1, ["r1"], "r1"],
  ])("%s → items and cursor", (_label, n, limit, ids, cursor) => {
    const page = toPage(rows(n), limit);
    expect(page.items.map((r) => r.id)).toEqual(ids);
    expect(page.nextCursor).toBe(cursor);
  });

  it("keeps the rows' other fields", () => {
    const page = toPage(
      [
        { id: "a", name: "A" },
        { id: "b", name: "B" },
      ],
      1,
    );
    expect(page).toEqual({ items: [{ id: "a", name: "A" }], nextCursor: "a" });
  });
});
