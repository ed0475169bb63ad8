// An embedding provider behind an OpenAI-compatible `POST {url}/embeddings` (OpenAI, Azure-style proxies,
// Ollama, vLLM, text-embeddings-inference, LiteLLM). The answer is untrusted: its size is bounded while it is
// read, and every vector is checked (count, order, dimensions, finite, non-zero) before anything is kept.
import { EmbeddingError } from "./embedding-error";
import type { EmbeddingProvider } from "./embedding-provider";
import { isUsableVector, normalizeInPlace } from "./vector-math";
import { readBodyUpTo } from "../../net/read-body-up-to";

export type OpenAiCompatibleOptions = {
  /** Base URL, e.g. `https://api.openai.com/v1`; `/embeddings` is appended. */
  url: string;
  model: string;
  /** Sent as `Authorization: Bearer …`; never part of a message or a log line. */
  apiKey?: string;
  /** Per request (one batch). */
  timeoutMs: number;
  /** Texts per request. */
  maxBatch: number;
  /** Expected vector length; unset: learned from the first answer, then held to. */
  dimensions?: number;
  /** Bytes of one answer before it is refused; default 32 MiB. */
  maxResponseBytes?: number;
};

const DEFAULT_MAX_RESPONSE_BYTES = 32 * 1024 * 1024;

export function openAiCompatible(options: OpenAiCompatibleOptions): EmbeddingProvider {
  const endpoint = `${options.url.replace(/\/+$/, "")}/embeddings`;
  const maxBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  let dimensions = options.dimensions;

  async function embedBatch(texts: string[], signal: AbortSignal | undefined): Promise<Float32Array[]> {
    const timeout = AbortSignal.timeout(options.timeoutMs);
    const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
    const headers: Record<string, string> = { "content-type": "application/json", accept: "application/json" };
    if (options.apiKey) headers.authorization = `Bearer ${options.apiKey}`;
    let body: string;
    try {
      const res = await fetch(endpoint, {
        method: "POST",
        headers,
        body: JSON.stringify({ model: options.model, input: texts, encoding_format: "float" }),
        signal: combined,
        redirect: "error",
      });
      if (!res.ok) {
        await res.body?.cancel();
        throw new EmbeddingError("embedding_unavailable", `${endpoint} answered HTTP ${String(res.status)}`);
      }
      body = await readBodyUpTo(res, maxBytes, () => tooBig(endpoint, maxBytes));
    } catch (err) {
      if (err instanceof EmbeddingError) throw err;
      if (signal?.aborted) throw signal.reason;
      if (timeout.aborted) {
        throw new EmbeddingError("embedding_timeout", `${endpoint} gave no complete answer within ${String(options.timeoutMs)} ms`);
      }
      throw new EmbeddingError("embedding_unavailable", `${endpoint} could not be reached: ${describe(err)}`, { cause: err });
    }
    const vectors = parseEmbeddings(body, texts.length, endpoint, dimensions);
    dimensions ??= vectors[0]?.length;
    return vectors;
  }

  return {
    id: `openai:${options.model}`,
    get dimensions() {
      return dimensions;
    },
    async embed(texts, signal) {
      const out: Float32Array[] = [];
      for (let i = 0; i < texts.length; i += options.maxBatch) {
        out.push(...(await embedBatch(texts.slice(i, i + options.maxBatch), signal)));
      }
      return out;
    },
  };
}

function tooBig(endpoint: string, maxBytes: number): EmbeddingError {
  return new EmbeddingError("embedding_bad_response", `${endpoint} answered with more than ${String(maxBytes)} bytes`);
}

/** `{ data: [{ index, embedding: number[] }] }`, one entry per input, put back in input order by `index`. */
export function parseEmbeddings(body: string, count: number, endpoint: string, dimensions: number | undefined): Float32Array[] {
  const bad = (why: string) => new EmbeddingError("embedding_bad_response", `${endpoint}: ${why}`);
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    throw bad("the answer is not JSON");
  }
  const data = (json as { data?: unknown } | null)?.data;
  if (!Array.isArray(data)) throw bad("the answer has no data array");
  if (data.length !== count) throw bad(`${String(data.length)} embeddings for ${String(count)} inputs`);
  const out = new Array<Float32Array | undefined>(count);
  let expected = dimensions;
  data.forEach((item: unknown, position) => {
    const { index = position, embedding } = (item ?? {}) as { index?: unknown; embedding?: unknown };
    if (typeof index !== "number" || !Number.isInteger(index) || index < 0 || index >= count || out[index]) {
      throw bad(`entry ${String(position)} has a missing, repeated or out-of-range index`);
    }
    if (!Array.isArray(embedding) || embedding.length === 0) throw bad(`entry ${String(position)} has no embedding array`);
    expected ??= embedding.length;
    if (embedding.length !== expected) {
      throw bad(`entry ${String(position)} has ${String(embedding.length)} dimensions, expected ${String(expected)}`);
    }
    // Checked after the conversion: 1e39 is a finite double but Infinity as a float32.
    const vector = embedding.every((v) => typeof v === "number") ? Float32Array.from(embedding) : null;
    if (!vector || !isUsableVector(vector)) throw bad(`entry ${String(position)} has non-numeric, non-finite or all-zero values`);
    out[index] = normalizeInPlace(vector);
  });
  return out as Float32Array[];
}

function describe(err: unknown): string {
  const cause = (err as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (err as Error).message;
}
