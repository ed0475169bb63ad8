// A server's one-line summary is evidence for the server: it can move a server's tools ahead of another server's,
// never one of its tools ahead of a sibling.
import { describe, expect, it } from "vitest";
import { createToolIndex, type IndexableTool } from "../tool-search";
import type { QueryWord } from "./expand-query";
import { OFFICIAL_TOOLS } from "./fixtures/official-tools";
import { toolOf } from "./fixtures/tool-of";
import { termOf } from "./normalize";
import { PRIOR_GAIN, serverPrior } from "./server-prior";


// Two servers whose tools read alike: only what the servers are for tells them apart.
const TWINS = [
  toolOf("crm__find_contact", "Find a contact by name."),
  toolOf("crm__update_contact", "Update a contact's fields."),
  toolOf("helpdesk__find_contact", "Find a contact by name."),
  toolOf("helpdesk__update_contact", "Update a contact's fields."),
];
const SUMMARIES: Record<string, string> = {
  crm: "Sales CRM: deals, pipeline stages, accounts and their contacts",
  helpdesk: "Customer support: tickets, agents, replies to customers",
};
const summarised = (tools: readonly IndexableTool[]) => tools.map((t) => ({ ...t, serverDescription: SUMMARIES[t.server] ?? `${t.server} tools` }));
const names = (tools: readonly IndexableTool[], query: string) => createToolIndex(tools).search(query, { detail: "name", limit: 50 }).tools.map((t) => t.name);

const word = (written: string, extra: Partial<QueryWord> = {}): QueryWord => ({ word: written, term: termOf(written)!, action: false, expansions: new Map(), ...extra });

describe("server summaries – a prior over servers", () => {
  it.each<[string, string, string]>([
    ["the support ticket's contact → helpdesk", "find the contact who opened the support ticket", "helpdesk__find_contact"],
    ["the deal's contact → crm", "find the contact on the biggest deal in the pipeline", "crm__find_contact"],
  ])("%s", (_what, query, want) => {
    expect(names(summarised(TWINS), query)[0]).toBe(want);
  });

  it("without summaries the twins tie, whatever the query says of the server's domain", () => {
    expect(names(TWINS, "find the contact who opened the support ticket")[0]).toBe("crm__find_contact");
  });

  it("siblings keep their order with summaries that match the query, while servers move", () => {
    // Every other server's summary shares words with the queries: the factors differ from server to server.
    const servers = [...new Set(OFFICIAL_TOOLS.map((t) => t.server))];
    const summary = (server: string) => (servers.indexOf(server) % 2 === 0 ? `${server}: issues, directions, builds, addresses` : `${server}: login, office, channels`);
    const withSummaries = OFFICIAL_TOOLS.map((t) => ({ ...t, serverDescription: summary(t.server) }));
    const byServer = (ranked: readonly string[]) => servers.map((server) => ranked.filter((name) => name.startsWith(`${server}__`)));
    let moved = 0;
    for (const query of ["open a GitHub issue for the login bug", "directions from the office to the airport", "post in the general channel that the build is green", "look up the address of 40.7,-74.0"]) {
      const plain = names(OFFICIAL_TOOLS, query);
      const summarised = names(withSummaries, query);
      expect(byServer(summarised), query).toEqual(byServer(plain));
      if (summarised.join() !== plain.join()) moved++;
    }
    expect(moved).toBeGreaterThan(0);
  });

  it("a word inside a path or only implied is no evidence; no summary, or no word matched, gives no factors", () => {
    const prior = serverPrior(new Map([["payroll", "Payroll: pay runs, pay stubs and withholding"], ["wiki", "Team wiki pages"]]));
    expect(prior.factors([word("withholding")])).toEqual(new Map([["payroll", 1 + PRIOR_GAIN]]));
    expect(prior.factors([word("withholding", { inPath: true })])).toBeUndefined();
    expect(prior.factors([word("withholding", { implied: true })])).toBeUndefined();
    expect(prior.factors([word("invoice")])).toBeUndefined();
    expect(serverPrior(new Map()).factors([word("withholding")])).toBeUndefined();
    // Relative to the best-matching server: half its evidence is half its gain.
    const both = serverPrior(new Map([["a", "alpha beta"], ["b", "alpha gamma"], ["c", "delta"]])).factors([word("alpha"), word("beta")])!;
    expect(both.get("a")).toBe(1 + PRIOR_GAIN);
    expect(both.get("b")!).toBeGreaterThan(1);
    expect(both.get("b")!).toBeLessThan(both.get("a")!);
    expect(both.has("c")).toBe(false);
  });
});
