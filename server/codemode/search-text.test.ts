import { describe, expect, it } from "vitest";
import { searchText } from "./code-mode-tools";
import { WEAK_HINT } from "./tool-search";

describe("searchText – what the model reads of a search_tools answer", () => {
  const hit = (name: string, note?: string) => ({ name: `github__${name}`, call: `tools.github.${name}`, args: "owner, repo", description: `${name} on GitHub.`, ...(note && { note }) });

  it("a near-duplicate's note goes under its line", () => {
    const text = searchText({ tools: [hit("add_issue_comment", "comment, not get_issue"), hit("get_issue")] }, "summary");
    expect(text).toBe(
      ["tools.github.add_issue_comment({owner, repo}) — add_issue_comment on GitHub.", "  ↳ comment, not get_issue", "tools.github.get_issue({owner, repo}) — get_issue on GitHub."].join("\n"),
    );
  });

  it("a weak answer ends with where to look instead; an empty one says so", () => {
    expect(searchText({ tools: [hit("get_issue")], weak: true, hint: WEAK_HINT }, "name")).toBe(`tools.github.get_issue\n\n${WEAK_HINT}`);
    expect(searchText({ tools: [], weak: true, hint: WEAK_HINT }, "name")).toBe(`No tool you may call matches. ${WEAK_HINT}`);
    expect(searchText({ tools: [] }, "name")).toBe("No tool you may call matches. Try other words.");
  });
});
