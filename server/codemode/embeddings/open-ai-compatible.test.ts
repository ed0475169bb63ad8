// The OpenAI-compatible provider against a real HTTP server process (server/test/fixtures/embeddings-server.mjs)
// that answers well or with one hostile answer per model name.
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import path from "node:path";
import { createInterface } from "node:readline";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { embeddingFailure } from "../../test/embedding-failure";
import { openAiCompatible, type OpenAiCompatibleOptions } from "./open-ai-compatible";

const FIXTURE = path.resolve(import.meta.dirname, "../../test/fixtures/embeddings-server.mjs");
const API_KEY = "sk-test-0123456789abcdef-secret";

let server: ChildProcess;
let base = "";

beforeAll(async () => {
  server = spawn(process.execPath, [FIXTURE], { stdio: ["pipe", "pipe", "inherit"] });
  const [line] = (await once(createInterface({ input: server.stdout! }), "line")) as [string];
  base = `http://127.0.0.1:${String((JSON.parse(line) as { port: number }).port)}`;
});

afterAll(async () => {
  const exited = once(server, "exit");
  server.stdin!.end();
  await exited;
});

const provider = (model: string, extra: Partial<OpenAiCompatibleOptions> = {}) =>
  openAiCompatible({ url: `${base}/v1/`, model, apiKey: API_KEY, timeoutMs: 5_000, maxBatch: 16, ...extra });

const unit = (...xs: number[]) => {
  const n = Math.hypot(...xs);
  return xs.map((x) => x / n);
};

async function requests(): Promise<{ authorization: string | null; body: { model: string; input: string[]; encoding_format: string } }[]> {
  return (await (await fetch(`${base}/requests`)).json()) as never;
}

describe("openAiCompatible", () => {
  it("POSTs the OpenAI request shape with the key as a bearer token, and answers unit vectors in input order", async () => {
    const p = provider("ok");
    expect(p.id).toBe("openai:ok");
    expect(p.dimensions).toBeUndefined();
    const vectors = await p.embed(["ab", "abcd"]);
    expect(vectors.map((v) => [...v])).toEqual([unit(2, 1, 0, 0), unit(4, 1, 0, 0)].map((v) => [...Float32Array.from(v)]));
    expect(p.dimensions).toBe(4);
    const last = (await requests()).at(-1)!;
    expect(last).toEqual({
      authorization: `Bearer ${API_KEY}`,
      body: { model: "ok", input: ["ab", "abcd"], encoding_format: "float" },
    });
  });

  it("sends no authorization header without a key", async () => {
    await openAiCompatible({ url: `${base}/v1`, model: "ok", timeoutMs: 5_000, maxBatch: 4 }).embed(["x"]);
    expect((await requests()).at(-1)!.authorization).toBeNull();
  });

  it("splits the texts into requests of at most maxBatch, and keeps their order", async () => {
    const before = (await requests()).length;
    const texts = ["a", "bb", "ccc", "dddd", "eeeee"];
    const vectors = await provider("ok", { maxBatch: 2 }).embed(texts);
    const sent = (await requests()).slice(before).map((r) => r.body.input);
    expect(sent).toEqual([["a", "bb"], ["ccc", "dddd"], ["eeeee"]]);
    expect(vectors.map((v) => v[0])).toEqual(texts.map((t) => Math.fround(unit(t.length, 1, 0, 0)[0]!)));
  });

  it("puts entries answered out of order back by their index", async () => {
    const vectors = await provider("reversed").embed(["a", "bbb"]);
    expect(vectors.map((v) => v[0])).toEqual([Math.fround(unit(1, 1, 0, 0)[0]!), Math.fround(unit(3, 1, 0, 0)[0]!)]);
  });

  it("holds later answers to the dimensions of the first", async () => {
    const p = provider("ok", { dimensions: 5 });
    expect((await embeddingFailure(p.embed(["a"]))).message).toMatch(/4 dimensions, expected 5/);
    const learned = provider("ok");
    await learned.embed(["a"]);
    const switched = openAiCompatible({ url: `${base}/v1`, model: "five-dims", timeoutMs: 5_000, maxBatch: 4, dimensions: learned.dimensions });
    expect((await embeddingFailure(switched.embed(["a"]))).code).toBe("embedding_bad_response");
  });

  it.each([
    ["wrong-dims", /3 dimensions, expected 4/],
    ["too-few", /1 embeddings for 2 inputs/],
    ["repeated-index", /repeated or out-of-range index/],
    ["zero", /all-zero/],
    ["strings", /non-numeric/],
    ["infinity", /non-finite/],
    ["float32-overflow", /non-finite/],
    ["nan-literal", /not JSON/],
    ["not-json", /not JSON/],
    ["no-data", /no data array/],
  ])("refuses a hostile answer (%s) with embedding_bad_response", async (model, message) => {
    const err = await embeddingFailure(provider(model).embed(["a", "bb"]));
    expect(err.code).toBe("embedding_bad_response");
    expect(err.message).toMatch(message);
  });

  it("stops reading a body past maxResponseBytes, declared or streamed", async () => {
    for (const model of ["huge", "huge-declared"]) {
      const err = await embeddingFailure(provider(model, { maxResponseBytes: 1024 * 1024 }).embed(["a"]));
      expect(err.code).toBe("embedding_bad_response");
      expect(err.message).toMatch(/more than 1048576 bytes/);
    }
  });

  it("an HTTP 500 is embedding_unavailable, and the message never repeats the key the server echoed", async () => {
    const err = await embeddingFailure(provider("error-500").embed(["a"]));
    expect(err.code).toBe("embedding_unavailable");
    expect(err.message).toMatch(/HTTP 500/);
    expect(JSON.stringify({ message: err.message, stack: err.stack, cause: String(err.cause) })).not.toContain(API_KEY);
  });

  it("a redirect is not followed (the key would go with it)", async () => {
    expect((await embeddingFailure(provider("redirect").embed(["a"]))).code).toBe("embedding_unavailable");
  });

  it("a server that does not answer in timeoutMs is embedding_timeout", async () => {
    const err = await embeddingFailure(provider("hang", { timeoutMs: 300 }).embed(["a"]));
    expect(err.code).toBe("embedding_timeout");
  });

  it("an unreachable server is embedding_unavailable", async () => {
    const closed = openAiCompatible({ url: "http://127.0.0.1:1/v1", model: "ok", timeoutMs: 5_000, maxBatch: 4 });
    expect((await embeddingFailure(closed.embed(["a"]))).code).toBe("embedding_unavailable");
  });

  it("the caller's abort is passed on as the caller's reason, not counted as a provider fault", async () => {
    const controller = new AbortController();
    const pending = provider("hang").embed(["a"], controller.signal);
    const reason = new Error("search cancelled");
    controller.abort(reason);
    await expect(pending).rejects.toBe(reason);
  });
});
