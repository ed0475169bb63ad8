// BM25F over a tool's fields: each field's term frequency is normalised by its length and weighted, the sum
// saturated once per term. A term's score in a document depends only on the index, so it is computed when
// the index is built and a search only adds up postings. The term's rarity (idf) is kept apart so a search can
// weigh a verb by what it does rather than by how rare the word is.
export type FieldWeights<F extends string> = Record<F, { weight: number; b: number; distinctive?: boolean }>;
/** Documents holding a term (ascending), its saturated weighted frequency in each, and its idf. */
export type Posting = { docs: Int32Array; scores: Float64Array; idf: number };
export type FieldIndex = {
  postings: ReadonlyMap<string, Posting>;
  /** Every term, sorted (for prefix look-ups). */
  vocabulary: readonly string[];
  size: number;
};

const K1 = 1.2;

export function buildFieldIndex<F extends string>(
  docs: ReadonlyArray<Record<F, readonly string[]>>,
  fields: FieldWeights<F>,
): FieldIndex {
  const names = Object.keys(fields) as F[];
  const average = {} as Record<F, number>;
  for (const field of names) {
    const total = docs.reduce((sum, doc) => sum + doc[field].length, 0);
    average[field] = Math.max(1, total / Math.max(1, docs.length));
  }
  const rarity = new Map(names.filter((field) => fields[field].distinctive).map((field) => [field, fieldRarity(docs, field)]));
  const weighted = new Map<string, { docs: number[]; tf: number[] }>();
  docs.forEach((doc, id) => {
    const tf = new Map<string, number>();
    for (const field of names) {
      const { weight, b } = fields[field];
      const norm = 1 - b + (b * doc[field].length) / average[field];
      const rare = rarity.get(field);
      for (const term of doc[field]) tf.set(term, (tf.get(term) ?? 0) + ((rare?.get(term) ?? 1) * weight) / norm);
    }
    for (const [term, value] of tf) {
      const entry = weighted.get(term) ?? { docs: [], tf: [] };
      entry.docs.push(id);
      entry.tf.push(value);
      weighted.set(term, entry);
    }
  });
  const postings = new Map<string, Posting>();
  for (const [term, entry] of weighted) {
    const n = entry.docs.length;
    const idf = Math.log(1 + (docs.length - n + 0.5) / (n + 0.5));
    postings.set(term, {
      docs: Int32Array.from(entry.docs),
      scores: Float64Array.from(entry.tf, (tf) => (tf * (K1 + 1)) / (tf + K1)),
      idf,
    });
  }
  return { postings, vocabulary: [...postings.keys()].sort(), size: docs.length };
}

/**
 * A distinctive field's terms weighed by how few of the documents that have the field use them (its own idf,
 * scaled to 0–1): words every such document's text has (the way requests are worded: "show", "my", "list")
 * count for little, so having the field does not by itself lift a document above those without it.
 */
function fieldRarity<F extends string>(docs: ReadonlyArray<Record<F, readonly string[]>>, field: F): Map<string, number> {
  const df = new Map<string, number>();
  let having = 0;
  for (const doc of docs) {
    if (doc[field].length === 0) continue;
    having++;
    for (const term of new Set(doc[field])) df.set(term, (df.get(term) ?? 0) + 1);
  }
  const idf = (n: number) => Math.log(1 + (having - n + 0.5) / (n + 0.5));
  const max = idf(1);
  return new Map([...df].map(([term, n]) => [term, max > 0 ? idf(n) / max : 1]));
}

/** Terms of the vocabulary that start with `prefix`, at most `max`. */
export function termsWithPrefix(index: FieldIndex, prefix: string, max: number): string[] {
  const vocabulary = index.vocabulary;
  const out: string[] = [];
  for (let i = lowerBound(vocabulary, prefix); i < vocabulary.length && out.length < max; i++) {
    if (!vocabulary[i]!.startsWith(prefix)) break;
    if (vocabulary[i] !== prefix) out.push(vocabulary[i]!);
  }
  return out;
}

/** Whether the posting lists document `doc`. */
export function postingHas(posting: Posting, doc: number): boolean {
  return posting.docs[lowerBound(posting.docs, doc)] === doc;
}

/** The first index of a sorted list whose value is not below `value`. */
function lowerBound<T extends number | string>(sorted: ArrayLike<T>, value: T): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
