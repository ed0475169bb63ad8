// BERT's WordPiece tokenizer, as sentence-transformers models (all-MiniLM-L6-v2, bge-small, e5-small) use it:
// read from the model's tokenizer.json (Hugging Face format) or vocab.txt. Uncased: NFD, accents stripped,
// lower-cased; split at whitespace and punctuation; each word greedily into the longest vocabulary pieces
// (`##` continues a word); [CLS] … [SEP], cut to the model's length.
import { EmbeddingError } from "./embedding-error";

export type WordPieceTokenizer = {
  /** Token ids with [CLS] and [SEP], at most maxTokens. */
  encode(text: string): number[];
  readonly padId: number;
};

type TokenizerJson = {
  model?: { type?: string; vocab?: Record<string, number>; unk_token?: string; continuing_subword_prefix?: string; max_input_chars_per_word?: number };
  normalizer?: { lowercase?: boolean } | null;
  truncation?: { max_length?: number } | null;
};

const DEFAULT_MAX_TOKENS = 256;

export function wordPieceTokenizer(source: string, fileName: string, maxTokens?: number): WordPieceTokenizer {
  const bad = (why: string) => new EmbeddingError("embedding_unavailable", `${fileName}: ${why}`);
  let vocab: Map<string, number>;
  let lowercase = true;
  let unk = "[UNK]";
  let prefix = "##";
  let maxWordChars = 100;
  let limit = maxTokens ?? DEFAULT_MAX_TOKENS;
  if (fileName.endsWith(".json")) {
    let json: TokenizerJson;
    try {
      json = JSON.parse(source) as TokenizerJson;
    } catch {
      throw bad("not JSON");
    }
    if (json.model?.type !== "WordPiece" || !json.model.vocab) throw bad(`a ${json.model?.type ?? "unknown"} tokenizer; only WordPiece (BERT) models are supported`);
    vocab = new Map(Object.entries(json.model.vocab));
    lowercase = json.normalizer?.lowercase ?? true;
    unk = json.model.unk_token ?? unk;
    prefix = json.model.continuing_subword_prefix ?? prefix;
    maxWordChars = json.model.max_input_chars_per_word ?? maxWordChars;
    limit = maxTokens ?? json.truncation?.max_length ?? limit;
  } else {
    vocab = new Map(source.split(/\r?\n/).map((token, id) => [token, id] as const).filter(([token]) => token !== ""));
  }
  const id = (token: string) => {
    const value = vocab.get(token);
    if (value === undefined) throw bad(`the vocabulary has no ${token}`);
    return value;
  };
  const [cls, sep, unkId, padId] = [id("[CLS]"), id("[SEP]"), id(unk), id("[PAD]")];

  function pieces(word: string): number[] {
    if ([...word].length > maxWordChars) return [unkId];
    const out: number[] = [];
    let start = 0;
    while (start < word.length) {
      let end = word.length;
      let found: number | undefined;
      while (start < end) {
        found = vocab.get((start > 0 ? prefix : "") + word.slice(start, end));
        if (found !== undefined) break;
        end--;
      }
      if (found === undefined) return [unkId];
      out.push(found);
      start = end;
    }
    return out;
  }

  return {
    padId,
    encode(text) {
      const ids = [cls];
      for (const word of basicTokens(text, lowercase)) {
        for (const piece of pieces(word)) {
          if (ids.length >= limit - 1) return [...ids, sep];
          ids.push(piece);
        }
      }
      return [...ids, sep];
    },
  };
}

/** BERT's basic tokenizer: control characters dropped, CJK ideographs and punctuation (Unicode P, all ASCII symbols) split off. */
function basicTokens(text: string, lowercase: boolean): string[] {
  let clean = text.replace(/[\p{Cc}\p{Cf}]/gu, (ch) => (/\s/.test(ch) ? " " : ""));
  if (lowercase) clean = clean.toLowerCase().normalize("NFD").replace(/\p{Mn}/gu, "");
  return clean
    .replace(/([\p{P}!-/:-@[-`{-~\u4E00-\u9FFF\u3400-\u4DBF\uF900-\uFAFF])/gu, " $1 ")
    .split(/\s+/)
    .filter(Boolean);
}
