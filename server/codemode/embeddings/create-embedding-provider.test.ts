import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../../config";
import { tinyEmbeddingModel } from "../../test/fixtures/tiny-onnx-model";
import { createEmbeddingProvider } from "./create-embedding-provider";

describe("createEmbeddingProvider", () => {
  it("is null when SEARCH_EMBEDDINGS is off (the default)", async () => {
    expect(await createEmbeddingProvider(loadConfig({}).searchEmbeddings)).toBeNull();
  });

  it("builds the OpenAI-compatible provider named by its model", async () => {
    const env = { SEARCH_EMBEDDINGS: "openai", SEARCH_EMBEDDINGS_URL: "http://127.0.0.1:1/v1", SEARCH_EMBEDDINGS_MODEL: "text-embedding-3-small", SEARCH_EMBEDDINGS_DIMENSIONS: "1536" };
    const provider = await createEmbeddingProvider(loadConfig(env).searchEmbeddings);
    expect(provider?.id).toBe("openai:text-embedding-3-small");
    expect(provider?.dimensions).toBe(1536);
  });

  it("loads the ONNX model with the configured tokenizer (a vocab.txt)", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "onnx-factory-"));
    writeFileSync(path.join(dir, "model.onnx"), tinyEmbeddingModel([[1, 0], [0, 1], [1, 1], [2, 1]]));
    writeFileSync(path.join(dir, "vocab.txt"), "[PAD]\n[UNK]\n[CLS]\n[SEP]\n");
    const env = { SEARCH_EMBEDDINGS: "onnx", SEARCH_EMBEDDINGS_ONNX_MODEL: path.join(dir, "model.onnx"), SEARCH_EMBEDDINGS_ONNX_TOKENIZER: path.join(dir, "vocab.txt") };
    const provider = await createEmbeddingProvider(loadConfig(env).searchEmbeddings);
    expect(provider?.id).toMatch(/^onnx:model\.onnx@/);
    expect((await provider!.embed(["anything"]))[0]).toHaveLength(2);
  });
});
