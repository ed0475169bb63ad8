import { describe, expect, it } from "vitest";
import type { TApproval } from "@/lib/approval-schemas";
import {
  approvalsCount,
  argumentRows,
  blockedReason,
  dayBound,
  expiresIn,
  formatSpan,
  isRevocable,
  showValue,
  type Viewer,
} from "./approval-format";

const NOW = Date.parse("2026-12-01T12:00:00Z");
type Decidable = Parameters<typeof blockedReason>[0];
const decision = (approverId: string): TApproval["decisions"][number] => ({
  approverId,
  approverEmail: `${approverId}@x.test`,
  decision: "approve",
  comment: null,
  at: "2026-12-01T11:00:00Z",
});
const pending: Decidable = {
  status: "PENDING",
  requesterId: "req",
  decisions: [],
  expiresAt: "2026-12-02T12:00:00Z",
  canDecide: true,
};
const approver: Viewer = { userId: "me", isApprover: true };

describe("formatSpan", () => {
  it.each([
    [0, "0 s"],
    [59_999, "59 s"],
    [60_000, "1 min"],
    [3_599_000, "59 min"],
    [3_600_000 + 3 * 60_000, "1 h 03 min"],
    [24 * 3_600_000, "1 d"],
    [26 * 3_600_000, "1 d 2 h"],
    [-5_000, "0 s"],
  ])("%i ms → %s", (ms, text) => expect(formatSpan(ms)).toBe(text));
});

describe("expiresIn", () => {
  it("counts down and then says expired", () => {
    expect(expiresIn({ expiresAt: "2026-12-01T12:05:00Z" }, NOW)).toBe("in 5 min");
    expect(expiresIn({ expiresAt: "2026-12-01T12:00:00Z" }, NOW)).toBe("expired");
  });
});

describe("approvalsCount", () => {
  it("shows approvals so far only when two are needed", () => {
    expect(approvalsCount({ requiredApprovals: 1, decisions: [] })).toBeNull();
    expect(approvalsCount({ requiredApprovals: 2, decisions: [] })).toBe("0 of 2");
    expect(approvalsCount({ requiredApprovals: 2, decisions: [decision("a")] })).toBe("1 of 2");
  });
});

describe("blockedReason", () => {
  it.each([
    ["an approver may decide another's pending request", pending, approver, null],
    [
      "a requester never decides their own",
      { ...pending, requesterId: "me", canDecide: false },
      approver,
      "Your own request: another approver must decide it",
    ],
    [
      "an approver who approved waits for a second",
      { ...pending, decisions: [decision("me")], canDecide: false },
      approver,
      "You already approved; waiting for a second approver",
    ],
    ["a decided request", { ...pending, status: "USED", canDecide: false }, approver, "Already decided"],
    ["a rejected request", { ...pending, status: "REJECTED", canDecide: false }, approver, "Already decided"],
    [
      "an expired request",
      { ...pending, status: "EXPIRED", canDecide: false },
      approver,
      "Expired: nobody decided in time",
    ],
    [
      "a pending request past its time",
      { ...pending, expiresAt: "2026-12-01T11:59:59Z" },
      approver,
      "Expired: nobody decided in time",
    ],
    ["a withdrawn request", { ...pending, status: "CANCELED", canDecide: false }, approver, "Withdrawn"],
    ["a user", { ...pending, canDecide: false }, { userId: "me", isApprover: false }, "Only approvers decide requests"],
  ] satisfies [string, Decidable, Viewer, string | null][])("%s", (_title, a, viewer, reason) => {
    expect(blockedReason(a, viewer, NOW)).toBe(reason);
  });
});

describe("isRevocable", () => {
  it("is true for standing approvals and advance grants that still hold", () => {
    expect(isRevocable({ kind: "STANDING", status: "APPROVED" })).toBe(true);
    expect(isRevocable({ kind: "ADVANCE", status: "APPROVED" })).toBe(true);
    expect(isRevocable({ kind: "CALL", status: "USED" })).toBe(false);
    expect(isRevocable({ kind: "STANDING", status: "CANCELED" })).toBe(false);
  });
});

describe("argumentRows", () => {
  const schema = {
    type: "object",
    properties: {
      order_id: { type: "string", description: "Order id" },
      reason: { type: "string" },
      limit: { type: "integer", default: 20 },
      dry_run: { type: "boolean" },
    },
    required: ["order_id", "reason"],
  };

  it("lists every schema property with its value, default or absence, then undeclared arguments", () => {
    const rows = argumentRows(schema, { order_id: "ORD-10001", reason: "dup", force: true });
    expect(rows).toEqual([
      { name: "order_id", type: "string", required: true, description: "Order id", state: "given", value: "ORD-10001" },
      { name: "reason", type: "string", required: true, description: null, state: "given", value: "dup" },
      { name: "limit", type: "integer", required: false, description: null, state: "default", value: 20 },
      { name: "dry_run", type: "boolean", required: false, description: null, state: "missing", value: undefined },
      { name: "force", type: null, required: false, description: null, state: "extra", value: true },
    ]);
  });

  it("without a schema (the tool is gone) every argument is undeclared", () => {
    expect(argumentRows(null, { a: 1 })).toEqual([
      { name: "a", type: null, required: false, description: null, state: "extra", value: 1 },
    ]);
    expect(argumentRows({ type: "object" }, {})).toEqual([]);
  });
});

describe("showValue and dayBound", () => {
  it("shows strings as they are and the rest as JSON", () => {
    expect(showValue("a b")).toBe("a b");
    expect(showValue({ a: [1] })).toBe('{"a":[1]}');
    expect(showValue(null)).toBe("null");
  });

  it("turns a day into the bounds of a created-at range", () => {
    const from = dayBound("2026-03-01")!;
    const to = dayBound("2026-03-01", true)!;
    expect(new Date(to).getTime() - new Date(from).getTime()).toBeGreaterThanOrEqual(23 * 3_600_000);
    expect(new Date(from).getDate()).toBe(1);
    expect(dayBound("")).toBeUndefined();
    expect(dayBound("03/01/2026")).toBeUndefined();
  });
});
