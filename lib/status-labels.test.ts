// Every stored value of the enums the console shows has a label of words (no raw USED or SUCCEEDED).
import { describe, expect, it } from "vitest";
import { APPROVAL_STATUSES } from "./approval-schemas";
import { AUDIT_DECISIONS, AUDIT_STATUSES } from "./audit-schemas";
import { APPROVAL_STATUS_LABEL, APPROVER_DECISION_LABEL, AUDIT_DECISION_LABEL, AUDIT_STATUS_LABEL, labelOf, TASK_ORIGIN_LABEL, TASK_STATUS_LABEL } from "./status-labels";
import { TASK_STATUSES, ZTaskOrigin } from "./task-schemas";

const TABLES: [string, readonly string[], Readonly<Record<string, string>>][] = [
  ["task status", TASK_STATUSES, TASK_STATUS_LABEL],
  ["task origin", ZTaskOrigin.options, TASK_ORIGIN_LABEL],
  ["approval status", APPROVAL_STATUSES, APPROVAL_STATUS_LABEL],
  ["approver decision", ["approve", "reject"], APPROVER_DECISION_LABEL],
  ["audit status", AUDIT_STATUSES, AUDIT_STATUS_LABEL],
  ["audit decision", AUDIT_DECISIONS, AUDIT_DECISION_LABEL],
];

describe("status labels", () => {
  it.each(TABLES)("every %s reads as words, starting with a capital, never as its stored value", (_what, values, labels) => {
    expect(Object.keys(labels).sort()).toEqual([...values].sort());
    for (const v of values) {
      const label = labelOf(labels, v);
      expect(label, v).not.toBe(v);
      expect(label, v).toMatch(/^[A-Z][a-z]|^OK$/);
      expect(label, v).not.toMatch(/_/);
    }
  });

  it.each([
    ["USED", "Approved"],
    ["SUCCEEDED", "Succeeded"],
  ])("labelOf(%s) is %s", (raw, label) => {
    expect(labelOf({ ...APPROVAL_STATUS_LABEL, ...TASK_STATUS_LABEL }, raw)).toBe(label);
  });

  it("reads a value its map does not know as words, not as SHOUTING_CASE", () => {
    expect(labelOf(TASK_STATUS_LABEL, "WAITING_FOR_INPUT")).toBe("Waiting for input");
    expect(labelOf(AUDIT_DECISION_LABEL, "escalate")).toBe("Escalate");
    expect(labelOf(AUDIT_DECISION_LABEL, "constructor")).toBe("Constructor");
  });
});
