// Which tuning queries a change moved: each tune and dev query's rank saved from one run (`--ranks-out`) and set
// against another's (`--ranks-against`), so a ranker change is read query by query rather than by an aggregate
// that hides a gain and a loss. Held-out and validation queries are never in it: their ranks are not written or
// shown.
import { AGGREGATES_ONLY, type Split } from "./dataset";
import type { TuneMiss } from "./evaluate";

/** A query's rank within a 50-tool answer, by query id; null beyond it. */
export type Ranks = Record<string, number | null>;
export type RankChange = { id: string; before: number | null; after: number | null };

/** The ranks of the tuning queries evaluated: first unless missed, a miss at its rank. */
export function tuningRanks(queries: readonly { id: string; split: string }[], splits: readonly string[], misses: readonly TuneMiss[]): Ranks {
  const missed = new Map(misses.map((m) => [m.id, m.rank]));
  const ranks: Ranks = {};
  for (const q of queries) {
    if (AGGREGATES_ONLY.has(q.split as Split) || !splits.includes(q.split)) continue;
    ranks[q.id] = missed.has(q.id) ? missed.get(q.id)! : 1;
  }
  return ranks;
}

/** The queries ranked in both runs whose rank differs, better first (a rank beyond 50 counts as 51). */
export function rankChanges(before: Ranks, after: Ranks): RankChange[] {
  const at = (rank: number | null) => rank ?? 51;
  return Object.keys(after)
    .filter((id) => id in before && at(before[id]!) !== at(after[id]!))
    .map((id) => ({ id, before: before[id]!, after: after[id]! }))
    .sort((a, b) => at(a.after) - at(a.before) - (at(b.after) - at(b.before)) || a.id.localeCompare(b.id));
}
