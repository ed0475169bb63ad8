// The local ONNX provider run by the real onnxruntime-node on a real (tiny, generated) ONNX model, and its
// WordPiece tokenizer. No registry package ships a sentence-embedding model, so meaning is not tested here;
// what is: tokenisation as BERT does it, the feeds, mean pooling over the mask, normalisation, the faults.
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { embeddingFailure } from "../../test/embedding-failure";
import { tinyEmbeddingModel } from "../../test/fixtures/tiny-onnx-model";
import { EmbeddingError } from "./embedding-error";
import { onnxLocal, pool } from "./onnx-local";
import { wordPieceTokenizer } from "./word-piece-tokenizer";

const VOCAB = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "send", "a", "message", "geo", "##code", ",", "cafe", "!", "order", "##s"];
// Row i is token i's embedding; [PAD]'s is huge so that pooling over padding would show.
const TABLE = VOCAB.map((_, i) => (i === 0 ? [100, 100, 100] : [i, 1, (i % 3) - 1]));
const tokenizerJson = (extra: object = {}) =>
  JSON.stringify({
    normalizer: { type: "BertNormalizer", lowercase: true },
    model: { type: "WordPiece", unk_token: "[UNK]", continuing_subword_prefix: "##", vocab: Object.fromEntries(VOCAB.map((t, i) => [t, i])) },
    ...extra,
  });

function modelDir(table = TABLE, opts: { withAttentionMask?: boolean; tokenizer?: string } = {}) {
  const dir = mkdtempSync(path.join(os.tmpdir(), "onnx-local-"));
  writeFileSync(path.join(dir, "model.onnx"), tinyEmbeddingModel(table, opts));
  writeFileSync(path.join(dir, "tokenizer.json"), opts.tokenizer ?? tokenizerJson());
  return dir;
}

/** What sentence-transformers computes: mean of the tokens' rows, unit length. */
function expected(ids: number[]): number[] {
  const mean = [0, 1, 2].map((d) => ids.reduce((s, id) => s + TABLE[id]![d]!, 0) / ids.length);
  const n = Math.hypot(...mean);
  return mean.map((v) => v / n);
}

describe("wordPieceTokenizer", () => {
  const tokenizer = wordPieceTokenizer(tokenizerJson(), "tokenizer.json");
  it.each([
    ["Send a MESSAGE!", [2, 4, 5, 6, 11, 3]],
    ["geocode", [2, 7, 8, 3]],
    ["orders,order", [2, 12, 13, 9, 12, 3]],
    ["Café", [2, 10, 3]],
    ["send\u200b a\tmessage", [2, 4, 5, 6, 3]],
    ["xyz geocodex", [2, 1, 1, 3]],
    ["", [2, 3]],
  ])("encodes %j as BERT does", (text, ids) => {
    expect(tokenizer.encode(text)).toEqual(ids);
  });

  it("cuts at maxTokens, [CLS] and [SEP] included; reads the tokenizer's truncation", () => {
    expect(wordPieceTokenizer(tokenizerJson(), "tokenizer.json", 4).encode("send a message")).toEqual([2, 4, 5, 3]);
    expect(wordPieceTokenizer(tokenizerJson({ truncation: { max_length: 3 } }), "tokenizer.json").encode("send a message")).toEqual([2, 4, 3]);
  });

  it("reads a vocab.txt alike", () => {
    expect(wordPieceTokenizer(VOCAB.join("\n"), "vocab.txt").encode("Send a message, geocode")).toEqual([2, 4, 5, 6, 9, 7, 8, 3]);
  });

  it.each([
    ["not JSON", "{", /not JSON/],
    ["a BPE tokenizer", JSON.stringify({ model: { type: "BPE", vocab: {} } }), /only WordPiece/],
    ["no [CLS]", JSON.stringify({ model: { type: "WordPiece", vocab: { "[PAD]": 0, "[UNK]": 1, "[SEP]": 2 } } }), /no \[CLS\]/],
  ])("refuses %s with embedding_unavailable", (_label, source, message) => {
    expect(() => wordPieceTokenizer(source, "tokenizer.json")).toThrow(EmbeddingError);
    expect(() => wordPieceTokenizer(source, "tokenizer.json")).toThrow(message);
  });
});

describe("onnxLocal (onnxruntime-node, a generated model)", () => {
  it("mean-pools the token embeddings over the attention mask and normalises, batch or not", async () => {
    const dir = modelDir();
    const provider = await onnxLocal({ modelPath: path.join(dir, "model.onnx") });
    const [long, short] = await provider.embed(["send a message", "geocode"]);
    expect([...long!].map((v) => Number(v.toFixed(5)))).toEqual(expected([2, 4, 5, 6, 3]).map((v) => Number(v.toFixed(5))));
    expect([...short!].map((v) => Number(v.toFixed(5)))).toEqual(expected([2, 7, 8, 3]).map((v) => Number(v.toFixed(5))));
    // "geocode" was padded to the longer text's length in the batch: alone it is the same vector.
    const [alone] = await provider.embed(["geocode"]);
    expect([...alone!]).toEqual([...short!]);
    expect(provider.dimensions).toBe(3);
  });

  it("feeds attention_mask only to a model that has that input", async () => {
    const provider = await onnxLocal({ modelPath: path.join(modelDir(TABLE, { withAttentionMask: true }), "model.onnx") });
    const [vector] = await provider.embed(["geocode"]);
    expect([...vector!].map((v) => Number(v.toFixed(5)))).toEqual(expected([2, 7, 8, 3]).map((v) => Number(v.toFixed(5))));
  });

  it("splits into runs of maxBatch, and keeps the order", async () => {
    const provider = await onnxLocal({ modelPath: path.join(modelDir(), "model.onnx"), maxBatch: 2 });
    const texts = ["send", "a", "message", "geocode", "cafe"];
    const one = await Promise.all(texts.map(async (t) => [...(await provider.embed([t]))[0]!]));
    expect((await provider.embed(texts)).map((v) => [...v])).toEqual(one);
  });

  it("names the model by its content: the same files elsewhere share the id, another table does not", async () => {
    const a = await onnxLocal({ modelPath: path.join(modelDir(), "model.onnx") });
    const b = await onnxLocal({ modelPath: path.join(modelDir(), "model.onnx") });
    const c = await onnxLocal({ modelPath: path.join(modelDir(TABLE.map(([x, y, z]) => [x! + 1, y!, z!])), "model.onnx") });
    expect(a.id).toMatch(/^onnx:model\.onnx@[0-9a-f]{16}$/);
    expect(b.id).toBe(a.id);
    expect(c.id).not.toBe(a.id);
  });

  it("a missing file, a file that is not a model, or a tokenizer it cannot use is embedding_unavailable", async () => {
    const dir = modelDir();
    expect((await embeddingFailure(onnxLocal({ modelPath: path.join(dir, "missing.onnx") }))).message).toMatch(/cannot read .*missing\.onnx: ENOENT/);
    writeFileSync(path.join(dir, "garbage.onnx"), "not a model");
    expect((await embeddingFailure(onnxLocal({ modelPath: path.join(dir, "garbage.onnx") }))).code).toBe("embedding_unavailable");
    const bpe = modelDir(TABLE, { tokenizer: JSON.stringify({ model: { type: "BPE", vocab: {} } }) });
    expect((await embeddingFailure(onnxLocal({ modelPath: path.join(bpe, "model.onnx") }))).code).toBe("embedding_unavailable");
  });
});

describe("pool", () => {
  it("takes [batch, dim] sentence vectors as they are (normalised), and refuses other shapes or NaN", () => {
    const mask = new BigInt64Array([1n, 1n]);
    expect([...pool(Float32Array.from([3, 4]), [1, 2], mask, 1, 2)[0]!]).toEqual([0.6000000238418579, 0.800000011920929]);
    expect(() => pool(Float32Array.from([1, 2, 3, 4]), [2, 2, 1, 1], mask, 1, 2)).toThrow(/output shape/);
    expect(() => pool(Float32Array.from([Number.NaN, 1]), [1, 2], mask, 1, 2)).toThrow(/non-finite/);
  });
});
