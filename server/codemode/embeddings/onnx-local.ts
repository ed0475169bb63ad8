// A sentence-transformers model run in-process by onnxruntime-node: no network, one model file and its
// tokenizer on disk (e.g. all-MiniLM-L6-v2's model.onnx + tokenizer.json). Token embeddings are mean-pooled
// over the attention mask and L2-normalised, as sentence-transformers does; a model whose output is already a
// sentence embedding ([batch, dim]) is only normalised.
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { EmbeddingError } from "./embedding-error";
import type { EmbeddingProvider } from "./embedding-provider";
import { isUsableVector, normalizeInPlace } from "./vector-math";
import { wordPieceTokenizer } from "./word-piece-tokenizer";

export type OnnxLocalOptions = {
  modelPath: string;
  /** tokenizer.json or vocab.txt of the model; default tokenizer.json beside the model. */
  tokenizerPath?: string;
  /** Tokens per text, [CLS] and [SEP] included; default the tokenizer's truncation, else 256. */
  maxTokens?: number;
  /** Texts per inference run (padded to the longest). */
  maxBatch?: number;
  /** Threads of one inference: 1 leaves the other cores to the gateway. */
  threads?: number;
};

/** Loads the model and tokenizer (a fault is embedding_unavailable, naming the file); the id names the model file's content. */
export async function onnxLocal(options: OnnxLocalOptions): Promise<EmbeddingProvider> {
  const tokenizerPath = options.tokenizerPath ?? path.join(path.dirname(options.modelPath), "tokenizer.json");
  const [model, tokenizerSource] = await Promise.all([readOrFail(options.modelPath), readOrFail(tokenizerPath)]);
  const tokenizer = wordPieceTokenizer(tokenizerSource.toString("utf8"), tokenizerPath, options.maxTokens);
  // A development dependency only (its binaries for every platform are ~290 MB): an operator who chooses a local
  // model installs it (D84). Without it the start stops with this error instead of a bare module-not-found.
  const ort = await import("onnxruntime-node").catch((err: unknown) => {
    throw new EmbeddingError("embedding_unavailable", `SEARCH_EMBEDDINGS=onnx needs onnxruntime-node: run \`npm install onnxruntime-node@1.30.0\` in the Portcullis directory (${(err as Error).message})`, { cause: err });
  });
  let session: Awaited<ReturnType<typeof ort.InferenceSession.create>>;
  try {
    session = await ort.InferenceSession.create(model, {
      intraOpNumThreads: options.threads ?? 1,
      interOpNumThreads: 1,
      graphOptimizationLevel: "all",
    });
  } catch (err) {
    throw new EmbeddingError("embedding_unavailable", `${options.modelPath} is not a model onnxruntime can load: ${(err as Error).message}`, { cause: err });
  }
  if (!session.inputNames.includes("input_ids")) {
    throw new EmbeddingError("embedding_unavailable", `${options.modelPath} has no input_ids input (inputs: ${session.inputNames.join(", ")}); not a BERT-style text model`);
  }
  const output = session.outputNames.includes("last_hidden_state") ? "last_hidden_state" : session.outputNames[0]!;
  // Same file, same vectors: the content hash keys the stored embeddings, not the path.
  const digest = createHash("sha256").update(model).update(tokenizerSource).digest("hex").slice(0, 16);
  const maxBatch = options.maxBatch ?? 16;
  let dimensions: number | undefined;

  async function run(texts: string[]): Promise<Float32Array[]> {
    const ids = texts.map((t) => tokenizer.encode(t));
    const width = Math.max(...ids.map((row) => row.length));
    const inputIds = new BigInt64Array(texts.length * width).fill(BigInt(tokenizer.padId));
    const mask = new BigInt64Array(texts.length * width);
    ids.forEach((row, r) =>
      row.forEach((id, c) => {
        inputIds[r * width + c] = BigInt(id);
        mask[r * width + c] = 1n;
      }),
    );
    const shape = [texts.length, width];
    const feeds: Record<string, InstanceType<typeof ort.Tensor>> = { input_ids: new ort.Tensor("int64", inputIds, shape) };
    if (session.inputNames.includes("attention_mask")) feeds.attention_mask = new ort.Tensor("int64", mask, shape);
    if (session.inputNames.includes("token_type_ids")) feeds.token_type_ids = new ort.Tensor("int64", new BigInt64Array(texts.length * width), shape);
    let result: Awaited<ReturnType<typeof session.run>>;
    try {
      result = await session.run(feeds, [output]);
    } catch (err) {
      throw new EmbeddingError("embedding_unavailable", `inference failed: ${(err as Error).message}`, { cause: err });
    }
    const tensor = result[output]!;
    const data = tensor.data;
    if (!(data instanceof Float32Array)) throw new EmbeddingError("embedding_bad_response", `output ${output} is ${tensor.type}, not float32`);
    return pool(data, tensor.dims, mask, texts.length, width);
  }

  return {
    id: `onnx:${path.basename(options.modelPath)}@${digest}`,
    get dimensions() {
      return dimensions;
    },
    async embed(texts, signal) {
      const out: Float32Array[] = [];
      for (let i = 0; i < texts.length; i += maxBatch) {
        signal?.throwIfAborted();
        out.push(...(await run(texts.slice(i, i + maxBatch))));
      }
      dimensions ??= out[0]?.length;
      return out;
    },
  };
}

/** Mean of the token vectors the mask keeps ([batch, seq, dim]), or the sentence vectors as they are ([batch, dim]); each normalised. */
export function pool(data: Float32Array, dims: readonly number[], mask: BigInt64Array, batch: number, width: number): Float32Array[] {
  const bad = (why: string) => new EmbeddingError("embedding_bad_response", why);
  const out: Float32Array[] = [];
  if (dims.length === 2 && dims[0] === batch) {
    const dim = dims[1]!;
    for (let r = 0; r < batch; r++) out.push(Float32Array.from(data.subarray(r * dim, (r + 1) * dim)));
  } else if (dims.length === 3 && dims[0] === batch && dims[1] === width) {
    const dim = dims[2]!;
    for (let r = 0; r < batch; r++) {
      const sum = new Float32Array(dim);
      let kept = 0;
      for (let c = 0; c < width; c++) {
        if (mask[r * width + c] !== 1n) continue;
        kept++;
        const base = (r * width + c) * dim;
        for (let d = 0; d < dim; d++) sum[d]! += data[base + d]!;
      }
      for (let d = 0; d < dim; d++) sum[d] = sum[d]! / Math.max(1, kept);
      out.push(sum);
    }
  } else {
    throw bad(`output shape [${dims.join(", ")}] is neither [batch, tokens, dim] nor [batch, dim]`);
  }
  for (const vector of out) if (!isUsableVector(vector)) throw bad("the model produced a non-finite or all-zero vector");
  return out.map(normalizeInPlace);
}

async function readOrFail(file: string): Promise<Buffer> {
  try {
    return await readFile(file);
  } catch (err) {
    throw new EmbeddingError("embedding_unavailable", `cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`, { cause: err });
  }
}
