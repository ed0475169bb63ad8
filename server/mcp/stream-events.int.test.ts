// The resumable-stream event store on real PostgreSQL: a message jsonb cannot hold (NUL, lone surrogates) is
// stored and replayed as it was sent, and a resumed stream sends its headers before the first event exists.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDb, truncateAll } from "../test/test-db";
import { createStreamEventStore, resumeStream } from "./stream-events";

const db = createTestDb();
const decoder = new TextDecoder();

beforeAll(() => truncateAll(db));
afterAll(() => db.$disconnect());

/** Reads the stream until it ends. */
async function readAll(res: Response): Promise<string> {
  const reader = res.body!.getReader();
  let text = "";
  for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) text += decoder.decode(chunk.value);
  return text;
}

describe("stream events", () => {
  it.each([
    ["a NUL in the id", { jsonrpc: "2.0", id: "\u0000", result: {} }],
    [
      "a lone surrogate in a result",
      { jsonrpc: "2.0", id: 1, result: { content: [{ type: "text", text: "x\ud800y" }] } },
    ],
    ["a NUL in a key", { jsonrpc: "2.0", id: 2, result: { "a\u0000": 1 } }],
    ["a literal backslash-u0000 in text", { jsonrpc: "2.0", id: 3, result: { text: "\\u0000" } }],
  ])("an answer with %s is stored and replayed exactly", async (label, message) => {
    const store = createStreamEventStore(db, "mcp-session-1");
    const streamId = `stream ${label}`;
    const priming = await store.storeEvent(streamId, {} as never);
    const answerId = await store.storeEvent(streamId, message as never);
    const res = (await resumeStream(db, "mcp-session-1", priming, new AbortController().signal))!;
    const data = (await readAll(res)).split("\n").find((l) => l.startsWith("data: "))!;
    expect(JSON.parse(data.slice("data: ".length))).toEqual(message);
    expect(Number(answerId)).toBeGreaterThan(Number(priming));
  });

  it("a resumed stream sends its first bytes (and so its headers) before any event follows", async () => {
    const store = createStreamEventStore(db, "mcp-session-2");
    const priming = await store.storeEvent("stream-waiting", {} as never);
    const abort = new AbortController();
    const res = (await resumeStream(db, "mcp-session-2", priming, abort.signal))!;
    const reader = res.body!.getReader();
    // The request is still running: nothing follows the priming event yet, and the stream would poll for minutes.
    const first = await reader.read();
    expect(decoder.decode(first.value)).toBe(": resumed\n\n");
    abort.abort();
    await reader.cancel();
  });
});
