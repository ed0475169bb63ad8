// SEARCH_EMBEDDINGS_* in loadConfig: off by default, each provider's required settings named when missing.
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig, searchEmbeddingsSecret } from "../../config";

describe("loadConfig – SEARCH_EMBEDDINGS", () => {
  it("is off by default (lexical search, no network)", () => {
    expect(loadConfig({}).searchEmbeddings).toEqual({ kind: "off" });
  });

  it("reads an OpenAI-compatible provider with its defaults, the URL without its trailing slash", () => {
    const config = loadConfig({
      SEARCH_EMBEDDINGS: "openai",
      SEARCH_EMBEDDINGS_URL: "https://api.example.com/v1/",
      SEARCH_EMBEDDINGS_MODEL: "text-embedding-3-small",
      SEARCH_EMBEDDINGS_API_KEY: "sk-secret",
    });
    expect(config.searchEmbeddings).toEqual({
      kind: "openai",
      url: "https://api.example.com/v1",
      model: "text-embedding-3-small",
      apiKey: "sk-secret",
      dimensions: undefined,
      timeoutMs: 10_000,
      maxBatch: 64,
      weight: 0.5,
    });
  });

  it("reads an ONNX model with tokenizer.json beside it by default, paths made absolute", () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "onnx-config-"));
    writeFileSync(path.join(dir, "model.onnx"), "");
    writeFileSync(path.join(dir, "tokenizer.json"), "{}");
    expect(loadConfig({ SEARCH_EMBEDDINGS: "onnx", SEARCH_EMBEDDINGS_ONNX_MODEL: path.join(dir, "model.onnx"), SEARCH_EMBEDDINGS_WEIGHT: "0.7" }).searchEmbeddings).toEqual({
      kind: "onnx",
      modelPath: path.join(dir, "model.onnx"),
      tokenizerPath: path.join(dir, "tokenizer.json"),
      weight: 0.7,
    });
  });

  it.each([
    [{ SEARCH_EMBEDDINGS: "yes" }, "SEARCH_EMBEDDINGS"],
    [{ SEARCH_EMBEDDINGS: "openai", SEARCH_EMBEDDINGS_MODEL: "m" }, "SEARCH_EMBEDDINGS_URL: required"],
    [{ SEARCH_EMBEDDINGS: "openai", SEARCH_EMBEDDINGS_URL: "https://h/v1" }, "SEARCH_EMBEDDINGS_MODEL: required"],
    [{ SEARCH_EMBEDDINGS: "openai", SEARCH_EMBEDDINGS_URL: "ftp://h/v1", SEARCH_EMBEDDINGS_MODEL: "m" }, "SEARCH_EMBEDDINGS_URL"],
    [{ SEARCH_EMBEDDINGS: "openai", SEARCH_EMBEDDINGS_URL: "https://u:p@h/v1", SEARCH_EMBEDDINGS_MODEL: "m" }, "must not contain a user or password"],
    [{ SEARCH_EMBEDDINGS: "openai", SEARCH_EMBEDDINGS_URL: "https://h/v1?api-key=k", SEARCH_EMBEDDINGS_MODEL: "m" }, "without a query or fragment"],
    [{ SEARCH_EMBEDDINGS_WEIGHT: "1.5" }, "SEARCH_EMBEDDINGS_WEIGHT"],
    [{ SEARCH_EMBEDDINGS_BATCH: "0" }, "SEARCH_EMBEDDINGS_BATCH"],
    [{ SEARCH_EMBEDDINGS: "onnx" }, "SEARCH_EMBEDDINGS_ONNX_MODEL: required"],
    [{ SEARCH_EMBEDDINGS: "onnx", SEARCH_EMBEDDINGS_ONNX_MODEL: "/nonexistent/model.onnx" }, "SEARCH_EMBEDDINGS_ONNX_MODEL: no file at /nonexistent/model.onnx"],
  ])("refuses %j naming %s", (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });

  it("never puts the API key into an error message", () => {
    const env = { SEARCH_EMBEDDINGS: "openai", SEARCH_EMBEDDINGS_API_KEY: "sk-very-secret-key", SEARCH_EMBEDDINGS_MODEL: "m" };
    expect(() => loadConfig(env)).toThrow(/^(?![\s\S]*sk-very-secret-key)/);
  });

  it("hands the API key to the redactor's secrets (server/index.ts), and nothing when there is none", () => {
    const openai = { SEARCH_EMBEDDINGS: "openai", SEARCH_EMBEDDINGS_URL: "https://h/v1", SEARCH_EMBEDDINGS_MODEL: "m" };
    expect(searchEmbeddingsSecret(loadConfig({ ...openai, SEARCH_EMBEDDINGS_API_KEY: "sk-x" }).searchEmbeddings)).toBe("sk-x");
    expect(searchEmbeddingsSecret(loadConfig(openai).searchEmbeddings)).toBeUndefined();
    expect(searchEmbeddingsSecret(loadConfig({}).searchEmbeddings)).toBeUndefined();
  });
});
