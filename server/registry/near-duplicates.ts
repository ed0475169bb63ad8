// Tools a model could confuse: near-identical names (`get_user` / `get_users`, `createInvoice` /
// `create_invoice`) or descriptions. O(n²) pairs with cheap bounds before the costly checks; 500 tools is
// ~125k pairs.
import { compareCodeUnits } from "../../lib/compare-code-units";
import { splitIdentifier } from "./split-identifier";

export type NearDuplicate = { a: string; b: string; score: number; reason: "name" | "description" | "both" };
export type NearDuplicateOptions = {
  /** Levenshtein similarity of normalized names at or above which names count as near-duplicates. */
  nameSimilarity?: number;
  /** Jaccard similarity of description word sets at or above which descriptions count as near-duplicates. */
  descriptionSimilarity?: number;
  /** Shorter descriptions are not compared: "Lists users" vs "Lists groups" says little. */
  minDescriptionWords?: number;
};
export type NearDuplicateTool = { gatewayName: string; name: string; description?: string };
type Rows = [Uint16Array, Uint16Array];
type Prepared = {
  gatewayName: string;
  wordSet: Set<string>;
  joined: string;
  letters: Uint8Array;
  description?: Set<string>;
};

// Verbs that read the same to a model and filler words; `get_user`, `fetch_user` and `list_users` all
// normalise to `user`.
const STOP_WORDS = new Set(["get", "fetch", "list", "the", "a", "an", "of", "all"]);

export function findNearDuplicates(
  tools: readonly NearDuplicateTool[],
  opts: NearDuplicateOptions = {},
): NearDuplicate[] {
  const nameThreshold = opts.nameSimilarity ?? 0.8;
  const descriptionThreshold = opts.descriptionSimilarity ?? 0.8;
  const minWords = opts.minDescriptionWords ?? 5;
  const unique = [...new Map(tools.map((tool) => [tool.gatewayName, tool])).values()];
  const prepared = unique.map((tool) => prepare(tool, minWords));
  // Two Levenshtein rows reused for every pair: allocating per pair would dominate ~125k comparisons.
  const width = prepared.reduce((widest, tool) => Math.max(widest, tool.joined.length), 0) + 1;
  const rows: Rows = [new Uint16Array(width), new Uint16Array(width)];
  const pairs: NearDuplicate[] = [];
  for (let i = 0; i < prepared.length; i++) {
    for (let j = i + 1; j < prepared.length; j++) {
      const x = prepared[i]!;
      const y = prepared[j]!;
      const name = nameScore(x, y, nameThreshold, rows);
      const description =
        x.description && y.description ? jaccard(x.description, y.description, descriptionThreshold) : 0;
      const byName = name !== undefined;
      const byDescription = description >= descriptionThreshold;
      if (!byName && !byDescription) continue;
      const [a, b] = [x.gatewayName, y.gatewayName].sort(compareCodeUnits) as [string, string];
      const score = Math.round(Math.max(name ?? 0, byDescription ? description : 0) * 1000) / 1000;
      pairs.push({ a, b, score, reason: byName && byDescription ? "both" : byName ? "name" : "description" });
    }
  }
  return pairs.sort((p, q) => q.score - p.score || compareCodeUnits(p.a, q.a) || compareCodeUnits(p.b, q.b));
}

function prepare(tool: NearDuplicateTool, minWords: number): Prepared {
  const all = splitIdentifier(tool.name).map(singular);
  const kept = all.filter((word) => !STOP_WORDS.has(word));
  const words = kept.length > 0 ? kept : all; // a tool called `list` keeps its only word
  const descriptionWords = (tool.description ?? "")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s]+/gu, "") // "e-mail" and "email" are the same word
    .split(/\s+/)
    .filter((word) => word.length > 0);
  return {
    gatewayName: tool.gatewayName,
    wordSet: new Set(words),
    joined: words.join(""),
    letters: letterCounts(words.join("")),
    description: descriptionWords.length >= minWords ? new Set(descriptionWords) : undefined,
  };
}

/** The name similarity when the names count as near-duplicates, otherwise undefined. */
function nameScore(x: Prepared, y: Prepared, threshold: number, rows: Rows): number | undefined {
  if (x.joined === y.joined) return 1;
  const [small, large] = x.wordSet.size <= y.wordSet.size ? [x.wordSet, y.wordSet] : [y.wordSet, x.wordSet];
  // Same words plus at most one more (`query_order` / `query_order_item`). With a single word the extra one is
  // usually the verb (`user` / `delete_user`), the one difference that matters, so that needs two words.
  const extra = large.size - small.size;
  const subset = extra <= 1 && (extra === 0 || small.size >= 2) && [...small].every((word) => large.has(word));
  const longest = Math.max(x.joined.length, y.joined.length);
  // Each edit fixes at most one surplus letter on each side, so that surplus bounds the distance from below.
  const reachable = 1 - surplus(x.letters, y.letters) / longest >= threshold;
  const similarity = subset || reachable ? 1 - levenshtein(x.joined, y.joined, rows) / longest : 0;
  if (subset) return Math.max(similarity, small.size / large.size);
  return similarity >= threshold ? similarity : undefined;
}

function jaccard(a: Set<string>, b: Set<string>, threshold: number): number {
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  if (small.size / large.size < threshold) return 0; // the best Jaccard possible is |small| / |large|
  let shared = 0;
  for (const word of small) if (large.has(word)) shared++;
  return shared / (a.size + b.size - shared);
}

function letterCounts(text: string): Uint8Array {
  const counts = new Uint8Array(36);
  for (const char of text) {
    const code = char.charCodeAt(0);
    const slot = code >= 97 && code <= 122 ? code - 97 : code >= 48 && code <= 57 ? code - 22 : -1;
    if (slot >= 0 && counts[slot]! < 255) counts[slot]!++;
  }
  return counts;
}

function surplus(a: Uint8Array, b: Uint8Array): number {
  let ofA = 0;
  let ofB = 0;
  for (let k = 0; k < a.length; k++) {
    const difference = a[k]! - b[k]!;
    if (difference > 0) ofA += difference;
    else ofB -= difference;
  }
  return Math.max(ofA, ofB);
}

function levenshtein(a: string, b: string, rows: Rows): number {
  let [previous, current] = rows;
  for (let j = 0; j <= b.length; j++) previous[j] = j;
  for (let i = 1; i <= a.length; i++) {
    current[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const substitution = previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1);
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, substitution);
    }
    [previous, current] = [current, previous];
  }
  return previous[b.length]!;
}

/** Crude English singular, applied to both sides alike: users → user, entries → entry, boxes → box. */
function singular(word: string): string {
  if (word.length <= 3 || /(?:ss|us|is)$/.test(word)) return word;
  if (word.endsWith("ies")) return `${word.slice(0, -3)}y`;
  if (/(?:xes|ches|shes|sses|zes)$/.test(word)) return word.slice(0, -2);
  return word.endsWith("s") ? word.slice(0, -1) : word;
}
