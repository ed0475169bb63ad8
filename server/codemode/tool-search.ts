// Tool search for code mode: the agent sees `search_tools` and `execute_code`, finds tools by free text
// ("delete an order", "what are the lat/long of …") and calls them as `await tools.orders.delete_order(args)`.
// Offline and embedded: identifiers split into words (product names whole), stemmed, expanded with a
// thesaurus and WordNet, scored with BM25F over name, title, server, arguments and descriptions, then by how
// much of the tool's name (its action and object) the query covers and whether the query names its server.
// The pieces live in ./search/.
import { compareCodeUnits } from "../../lib/compare-code-units";
import { accessorFor, argsSummary, toolDeclaration, type SearchableTool } from "./declarations";
import { distinctionNotes } from "./search/distinguish";
import { expandQuery } from "./search/expand-query";
import { buildFieldIndex, type FieldIndex } from "./search/field-index";
import { rankTools } from "./search/rank";
import { FIELDS, nameOf, serverNameTerms, toFields } from "./search/tool-fields";
import { isWeak } from "./search/weak-match";

export { accessorFor, type SearchableTool } from "./declarations";
export { terms } from "./search/tool-fields";

/** A tool as indexed: its definition and, when the catalog has one, its server's one-line description. */
export type IndexableTool = SearchableTool & { serverDescription?: string | null };

export type SearchDetail = "name" | "summary" | "full";
export type SearchOptions = {
  detail?: SearchDetail;
  limit?: number;
  /** Only this server's tools (its slug, as in `<server>__<tool>`). */
  server?: string;
};
export type ToolHit = {
  name: string;
  call: string;
  description?: string;
  args?: string;
  declaration?: string;
  /** Set when a near-duplicate is in the same answer: what this one does that the other does not. */
  note?: string;
};
export type SearchAnswer = {
  tools: ToolHit[];
  /** The best match shares little with the query: the right tool may not be in the answer. */
  weak?: true;
  /** With `weak`: where to look instead. */
  hint?: string;
};
export type ToolIndex = { search(query: string, opts?: SearchOptions): SearchAnswer; size: number };

export const DEFAULT_LIMIT = 10;
export const MAX_LIMIT = 50;
const MAX_SUMMARY_CHARS = 160;
// Every query word costs a few postings and maybe a walk of the vocabulary; a pasted essay is cut here.
const MAX_QUERY_CHARS = 500;
// Near-duplicates are told apart among the first answers scoring close to the best, where the model chooses.
const NOTED_HITS = 5;
const NOTED_SCORE_SHARE = 0.6;
// The catalog tool is built beside this one (server/codemode/browse-catalog.ts on the catalog branch).
export const WEAK_HINT =
  'No tool matches this well. browse_catalog() lists the servers you may use, browse_catalog({ server: "<name>" }) their tools; or search again with server set.';

export function createToolIndex(tools: readonly IndexableTool[]): ToolIndex {
  const unique = [...new Map(tools.map((tool) => [tool.name, tool])).values()];
  const index: FieldIndex = buildFieldIndex(unique.map(toFields), FIELDS);
  const docs = unique.map(nameOf);
  const serverTerms = new Map<string, string[]>();
  for (const tool of unique) {
    for (const term of serverNameTerms(tool.server)) {
      const servers = serverTerms.get(term) ?? [];
      if (!servers.includes(tool.server)) servers.push(tool.server);
      serverTerms.set(term, servers);
    }
  }
  // A server's first word is its name ("linear", "brave", "everything"), not the English word.
  const serverNames = new Set(unique.flatMap((tool) => serverNameTerms(tool.server).slice(0, 1)));
  const declarations = new Map<number, string>();

  function hit(id: number, detail: SearchDetail): ToolHit {
    const tool = unique[id]!;
    const base = { name: tool.name, call: accessorFor(tool.server, tool.tool) };
    if (detail === "name") return base;
    const summary = {
      ...base,
      description: firstSentence(tool.description ?? tool.title ?? ""),
      args: argsSummary(tool.inputSchema),
    };
    if (detail === "summary") return summary;
    let declaration = declarations.get(id);
    if (declaration === undefined) {
      declaration = toolDeclaration(tool);
      declarations.set(id, declaration);
    }
    return { ...summary, declaration };
  }

  return {
    size: unique.length,
    search(query, opts = {}) {
      const limit = clampLimit(opts.limit);
      const detail = opts.detail ?? "summary";
      const expanded = expandQuery(query.slice(0, MAX_QUERY_CHARS), index, serverNames);
      const ranked = rankTools({ index, docs, query: expanded, serverTerms, onlyServer: opts.server })
        .sort((a, b) => b.score - a.score || compareCodeUnits(unique[a.id]!.name, unique[b.id]!.name))
        .slice(0, limit);
      const tools = ranked.map((result) => hit(result.id, detail));
      const contenders = ranked.slice(0, NOTED_HITS).filter((r) => r.score >= NOTED_SCORE_SHARE * ranked[0]!.score);
      const notes = distinctionNotes(
        contenders.map((r) => ({ ...docs[r.id]!, nameTerms: docs[r.id]!.allTerms, tool: unique[r.id]!.tool })),
      );
      notes.forEach((note, i) => {
        if (note) tools[i]!.note = note;
      });
      const answer: SearchAnswer = { tools };
      if (tools.length === 0 ? expanded.length > 0 : isWeak(index, expanded, ranked[0]!.id)) {
        answer.weak = true;
        answer.hint = WEAK_HINT;
      }
      return answer;
    },
  };
}

export function clampLimit(limit: number | undefined): number {
  if (limit === undefined || !Number.isFinite(limit)) return DEFAULT_LIMIT;
  return Math.min(MAX_LIMIT, Math.max(1, Math.floor(limit)));
}

/** Words of free text and identifiers alike: `delete_order`, `deleteOrder`, `do.thing`, "GitHub's PRs". */
export { words as tokenize } from "./search/words";

/** One word's index term: lower-case, function words dropped (null), stemmed ("orders" → "order"). */
export { termOf as processTerm } from "./search/normalize";

/** The first sentence, whitespace collapsed, at most 160 characters (cut at a word, with "…"). */
export function firstSentence(text: string, max = MAX_SUMMARY_CHARS): string {
  const flat = text.replace(/\s+/g, " ").trim();
  const end = /[.!?](?=\s|$)/.exec(flat);
  const sentence = end ? flat.slice(0, end.index + 1) : flat;
  if (sentence.length <= max) return sentence;
  const cut = sentence.slice(0, max - 1);
  const space = cut.lastIndexOf(" ");
  return `${(space > max / 2 ? cut.slice(0, space) : cut).replace(/[\s,;:]+$/, "")}…`;
}
