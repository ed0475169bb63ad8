import { describe, expect, it } from "vitest";
import { filterFromSearch } from "@/components/audit/audit-api";
import { auditSearchHref, minuteHref } from "./audit-links";

const query = (href: string) => filterFromSearch(new URLSearchParams(href.split("?")[1]));

describe("dashboard links into the audit search", () => {
  it.each([
    ["calls", {}],
    ["errors", { status: "error,interrupted" }],
    ["latency", { sort: "-durationMs" }],
    ["denials", { status: "denied" }],
    ["held", { status: "held" }],
  ] as const)("a %s point selects that minute's tool calls", (series, extra) => {
    expect(query(minuteHref(series, "2026-05-04T10:14:00.000Z"))).toEqual({
      action: "tool.called",
      from: "2026-05-04T10:14:00.000Z",
      to: "2026-05-04T10:15:00.000Z",
      ...extra,
    });
  });

  it("a top tool's bar selects that tool over the whole window", () => {
    expect(query(auditSearchHref("errors", { from: "2026-05-04T09:15:00.000Z" }, "orders__query_orders"))).toEqual({
      action: "tool.called",
      status: "error,interrupted",
      tool: "orders__query_orders",
      from: "2026-05-04T09:15:00.000Z",
    });
  });
});
