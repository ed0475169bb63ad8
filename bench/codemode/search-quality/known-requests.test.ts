// The shipped requests of well-known packages' tools (D176): the module is what the generator writes, it covers
// exactly the catalog's captured tools, and every request passes the check an admin's would.
import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { createToolIndex } from "../../../server/codemode/tool-search";
import { KNOWN_TOOL_REQUESTS } from "../../../server/codemode/search/known-requests-data";
import { definitionFingerprint, setKnownRequests } from "../../../server/codemode/search/known-requests";
import { exampleRequestsProblems } from "../../../lib/tool-examples";
import { loadTools } from "./dataset";
import { knownEntries, OUTPUT, renderModule } from "./known-requests";
import { loadExampleRequests } from "./mine-relations";
import { toSearchable } from "./searchable-tools";

const tools = loadTools();

describe("known-requests-data.ts", () => {
  it("is what known-requests.ts writes from example-requests.jsonl", async () => {
    expect(readFileSync(OUTPUT, "utf8")).toBe(await renderModule(knownEntries(tools, loadExampleRequests())));
  }, 20_000);

  it("holds the captured tools' requests and no written business tool's", () => {
    const real = tools.filter((tool) => tool.source !== undefined);
    const written = tools.filter((tool) => tool.source === undefined);
    const key = (tool: (typeof tools)[number]) => definitionFingerprint({ tool: tool.name, description: tool.description ?? null });
    expect(new Set(Object.keys(KNOWN_TOOL_REQUESTS))).toEqual(new Set(real.map(key)));
    for (const tool of written) expect(KNOWN_TOOL_REQUESTS[key(tool)], `${tool.server}/${tool.name}`).toBeUndefined();
  });

  it("ships only requests an admin could have saved (lib/tool-examples.ts)", () => {
    for (const [fingerprint, requests] of Object.entries(KNOWN_TOOL_REQUESTS)) expect(exampleRequestsProblems(requests), fingerprint).toEqual([]);
  });
});

describe("the shipped requests in the ranking", () => {
  afterEach(() => setKnownRequests(true));
  const first = (query: string) => createToolIndex(tools.map((tool) => toSearchable(tool))).search(query, { detail: "name", limit: 1 }).tools[0]?.name;

  it("put Playwright's console tool first for errors an open page logged, where a CI build log came first without them", () => {
    const query = "show me the JS errors and warnings the open page has logged to devtools so far";
    expect(first(query)).toBe("playwright__browser_console_messages");
    setKnownRequests(false);
    expect(first(query)).toBe("jenkins__get_build_log");
  });
});
