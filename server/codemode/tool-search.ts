// Tool search for code mode: the agent sees `search_tools` and `execute_code`, finds tools by free text
// ("delete an order", "what are the lat/long of …") and calls them as `await tools.orders.delete_order(args)`.
// Offline and embedded: identifiers split into words (product names whole), stemmed, expanded with a
// thesaurus and WordNet, scored with BM25F over name, title, server, arguments and descriptions, then by how
// much of the tool's name (its action and object) the query covers and whether the query names its server.
// The pieces live in ./search/.
import { compareCodeUnits } from "../../lib/compare-code-units";
import { accessorFor, argsSummary, toolDeclaration } from "./declarations";
import { argumentFit, queryValues, schemaSlots } from "./search/argument-fit";
import { distinctionNotes } from "./search/distinguish";
import { expandQuery, type QueryWord } from "./search/expand-query";
import { buildFieldIndex, type FieldIndex } from "./search/field-index";
import { rankTools, type Ranked } from "./search/rank";
import { actionOfName, actionShares, predictAction, requestActionsOn } from "./search/request-action";
import { serverPrior } from "./search/server-prior";
import { FIELDS, nameOf, serverNameTerms, toFields, type IndexableTool } from "./search/tool-fields";
import { keepServerNamesWhole } from "./search/product-names";
import { isWeak } from "./search/weak-match";
import { words } from "./search/words";

export { accessorFor, type SearchableTool } from "./declarations";
export { terms } from "./search/tool-fields";

export type { IndexableTool } from "./search/tool-fields";

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
export type ToolIndex = {
  search(query: string, opts?: SearchOptions): SearchAnswer;
  /** The whole lexical ranking (the tools that match, best first), for fusing with another ranking. */
  rank(query: string, opts?: Pick<SearchOptions, "server">): { name: string; score: number }[];
  /**
   * The answer for tools in another ranking's order (`names`, unknown ones skipped; a server filter applies):
   * near-duplicate notes among the first answers, the weak-match flag judged on the lexical ranking.
   */
  answer(query: string, names: readonly string[], opts?: SearchOptions): SearchAnswer;
  /** The request's words as the ranker reads them, and its text as read (cut, in compatibility form). */
  read(query: string): { words: readonly QueryWord[]; text: string };
  size: number;
};

export const DEFAULT_LIMIT = 10;
export const MAX_LIMIT = 50;
const MAX_SUMMARY_CHARS = 160;
// Every query word costs a few postings and maybe a walk of the vocabulary; a pasted essay is cut here.
const MAX_QUERY_CHARS = 500;
// Near-duplicates are told apart among the first answers scoring close to the best, where the model chooses.
const NOTED_HITS = 5;
const NOTED_SCORE_SHARE = 0.6;
// The first answers are reordered a little by how well the query's values fit each one's arguments
// (search/argument-fit.ts): a tool gains or loses up to this share of its score (D179, D195). With the
// request-action model (search/request-action.ts, on by default, D196), a longer head is also weighed by how
// likely the request is to ask for each tool's action: its action's share of the likeliest one's, to this power.
const FIT_CANDIDATES = 10;
const FIT_GAIN = 0.15;
const ACTION_CANDIDATES = 20;
const ACTION_WEIGHT = 0.15;
// The catalog tool is built beside this one (server/codemode/browse-catalog.ts on the catalog branch).
export const WEAK_HINT =
  'No tool matches this well. browse_catalog() lists the servers you may use, browse_catalog({ server: "<name>" }) their tools; or search again with server set.';

export function createToolIndex(tools: readonly IndexableTool[]): ToolIndex {
  const unique = [...new Map(tools.map((tool) => [tool.name, tool])).values()];
  const index: FieldIndex = buildFieldIndex(unique.map(toFields), FIELDS);
  const docs = unique.map(nameOf);
  const slots = unique.map((tool) => schemaSlots(tool.inputSchema));
  const actions = docs.map((doc) => actionOfName(doc.nameTerms));
  const serverTerms = new Map<string, string[]>();
  const serverWords = new Set(unique.flatMap((tool) => words(tool.server)));
  const nameTermsOf = new Map(unique.map((tool) => [tool.server, serverNameTerms(tool.server)]));
  for (const [server, terms] of nameTermsOf) {
    for (const term of terms) {
      const servers = serverTerms.get(term) ?? [];
      if (!servers.includes(server)) servers.push(server);
      serverTerms.set(term, servers);
    }
  }
  // A server's first word is its name ("linear", "brave", "everything"), not the English word.
  const serverNames = new Set([...nameTermsOf.values()].flatMap((terms) => terms.slice(0, 1)));
  const declarations = new Map<number, string>();
  const prior = serverPrior(new Map(unique.flatMap((tool) => (tool.serverDescription ? [[tool.server, tool.serverDescription] as const] : []))));

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

  const idOf = new Map(unique.map((tool, id) => [tool.name, id]));
  const read = (query: string) => {
    // Read in compatibility form (words.ts), so that the query's shape (a question mark, a quote, a path) is too.
    const text = keepServerNamesWhole(query.slice(0, MAX_QUERY_CHARS).normalize("NFKC"), serverWords);
    return { words: expandQuery(text, index, serverNames), text };
  };
  const expand = (query: string) => {
    const { words, text } = read(query);
    return { words, values: queryValues(text), actions: requestActionsOn() ? predictAction(words, text) : undefined };
  };
  const byScore = (a: Ranked, b: Ranked) => b.score - a.score || compareCodeUnits(unique[a.id]!.name, unique[b.id]!.name);
  const rankedBy = (expanded: ReturnType<typeof expand>, server: string | undefined) => {
    const ranked = rankTools({ index, docs, query: expanded.words, serverTerms, serverNameTerms: nameTermsOf, serverWords, onlyServer: server });
    const factors = prior.factors(expanded.words);
    if (factors) for (const r of ranked) r.score *= factors.get(unique[r.id]!.server) ?? 1;
    ranked.sort(byScore);
    // The request-action model (D196) reorders a longer head.
    const shareOf = expanded.actions && actionShares(expanded.actions);
    const headSize = shareOf ? ACTION_CANDIDATES : FIT_CANDIDATES;
    const head = ranked.slice(0, headSize).map((r) => ({
      id: r.id,
      score:
        r.score *
        (1 + FIT_GAIN * argumentFit(expanded.values, slots[r.id]!)) *
        (shareOf ? shareOf(actions[r.id]!) ** ACTION_WEIGHT : 1),
    }));
    return [...head.sort(byScore), ...ranked.slice(headSize)];
  };

  /** The answer for these tools in this order; `best` is the first of the ranking, whose evidence decides `weak`. */
  function answerOf(ids: number[], scores: number[] | undefined, detail: SearchDetail, expanded: ReturnType<typeof expand>, best: number | undefined): SearchAnswer {
    const tools = ids.map((id) => hit(id, detail));
    // Near-duplicates are told apart among the first answers; with lexical scores, those close to the best.
    const first = ids.slice(0, NOTED_HITS).filter((_, i) => !scores || scores[i]! >= NOTED_SCORE_SHARE * scores[0]!);
    const notes = distinctionNotes(first.map((id) => ({ ...docs[id]!, nameTerms: docs[id]!.allTerms, tool: unique[id]!.tool })));
    notes.forEach((note, i) => {
      if (note) tools[i]!.note = note;
    });
    const answer: SearchAnswer = { tools };
    if (best === undefined ? expanded.words.length > 0 : isWeak(index, expanded.words, best)) {
      answer.weak = true;
      answer.hint = WEAK_HINT;
    }
    return answer;
  }

  return {
    size: unique.length,
    search(query, opts = {}) {
      const expanded = expand(query);
      const ranked = rankedBy(expanded, opts.server).slice(0, clampLimit(opts.limit));
      return answerOf(
        ranked.map((r) => r.id),
        ranked.map((r) => r.score),
        opts.detail ?? "summary",
        expanded,
        ranked[0]?.id,
      );
    },
    read,
    rank(query, opts = {}) {
      return rankedBy(expand(query), opts.server).map((r) => ({ name: unique[r.id]!.name, score: r.score }));
    },
    answer(query, names, opts = {}) {
      const expanded = expand(query);
      const ids = names
        .map((name) => idOf.get(name))
        .filter((id): id is number => id !== undefined && (opts.server === undefined || unique[id]!.server === opts.server))
        .slice(0, clampLimit(opts.limit));
      return answerOf(ids, undefined, opts.detail ?? "summary", expanded, rankedBy(expanded, opts.server)[0]?.id);
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
