import { describe, expect, it } from "vitest";
import { safeSpan, showInvisible } from "./show-invisible";

describe("showInvisible", () => {
  it("writes invisible characters as <U+XXXX> and keeps visible text, tabs and newlines", () => {
    expect(showInvisible("a\u200bb\u202ec\u{E0041}\td\ne")).toBe("a<U+200B>b<U+202E>c<U+E0041>\td\ne");
  });

  it("cuts a long span with an ellipsis", () => {
    const span = safeSpan("x".repeat(500));
    expect(span).toHaveLength(200);
    expect(span.endsWith("…")).toBe(true);
  });
});
