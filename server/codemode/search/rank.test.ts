// The ranker's failure classes of the search-quality tune split, one table row each: near-duplicates that
// match the query's words alike, among 500 realistic tools, where only the class's rule tells them apart.
import { describe, expect, it } from "vitest";
import { realisticTools } from "../fixtures/realistic-tools";
import { createToolIndex } from "../tool-search";
import { OFFICIAL_TOOLS } from "./fixtures/official-tools";
import { toolOf } from "./fixtures/tool-of";
import { isPlural } from "./grammatical-number";


const official = new Set(OFFICIAL_TOOLS.map((t) => t.name));
const index = createToolIndex([
  ...OFFICIAL_TOOLS,
  ...realisticTools(500).filter((t) => !official.has(t.name)),
  toolOf("tracker__list_issues", "List issues of a project, filtered by state and assignee."),
  toolOf("tracker__get_issue", "Get one issue by its key."),
  toolOf("tracker__create_issue", "Create an issue in a project."),
  toolOf("tracker__link_issues", "Link two issues, e.g. one blocks the other."),
  toolOf("tracker__log_work", "Log hours worked on an issue."),
  toolOf("storage__put_object", "Upload an object to a bucket."),
  toolOf("payroll__run_payroll", "Run payroll for a pay period."),
  toolOf("payroll__update_compensation", "Set an employee's compensation."),
]);
const first = (query: string) => index.search(query, { detail: "name", limit: 3 }).tools[0]?.name;

describe("rankTools – failure classes", () => {
  it.each<[string, string, string]>([
    // Number: a plural object asks for many (list), a singular one for one (get).
    ["plural object → list", "the open bugs in the tracker", "tracker__list_issues"],
    ["singular object → get", "the bug TRK-5 in the tracker", "tracker__get_issue"],
    // A noun leading the request is its verb.
    ["file a … → create", "file a ticket in the tracker for the flaky test", "tracker__create_issue"],
    ["process … → run", "process salaries for the first half of June", "payroll__run_payroll"],
    // A leading verb counts by what it does, not by how rare the word is among tool names.
    ["a rare verb does not outweigh its object", "put 2 hours against TRK-7 in my timesheet", "tracker__log_work"],
  ])("%s: %j finds %s first", (_case, query, expected) => {
    expect(first(query)).toBe(expected);
  });
});

describe("isPlural", () => {
  it.each<[string, boolean]>([
    ["orders", true],
    ["replies", true],
    ["branches", true],
    ["PRs", true],
    ["order", false],
    ["news", false],
    ["status", false],
    ["address", false],
    ["analytics", false],
    ["kubernetes", false],
  ])("%s → %s", (word, plural) => {
    expect(isPlural(word)).toBe(plural);
  });
});
