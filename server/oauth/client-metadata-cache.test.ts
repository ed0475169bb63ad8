// The client metadata cache on its own, with a clock the test moves: lifetimes, the bound on entries, and that a
// load is shared while it runs and not after. (Fetching through it is in client-metadata-document.int.test.ts.)
import { describe, expect, it } from "vitest";
import { createClientMetadataCache, type LoadedClientMetadata } from "./client-metadata-cache";
import { ClientMetadataError } from "./client-metadata-error";
import { maxAgeOf } from "./fetch-client-metadata-document";
import type { ClientDocumentMetadata } from "./parse-client-metadata-document";

const SETTINGS = { minSeconds: 60, maxSeconds: 3600, defaultSeconds: 300, failureSeconds: 30, maxEntries: 3 };
const client = (id: string): ClientDocumentMetadata => ({
  client_id: id,
  redirect_uris: ["https://a.example/cb"],
  application_type: "web",
  grant_types: ["authorization_code"],
  response_types: ["code"],
  token_endpoint_auth_method: "none",
  verified: true,
});

function counted(outcome: (id: string) => LoadedClientMetadata) {
  const loads: string[] = [];
  return { loads, load: (id: string) => () => (loads.push(id), Promise.resolve(outcome(id))) };
}

describe("createClientMetadataCache", () => {
  it("keeps a document without max-age for the default lifetime, a failure for the failure lifetime", async () => {
    let now = 0;
    const cache = createClientMetadataCache(SETTINGS, () => now);
    const ok = counted((id) => ({ outcome: client(id), maxAgeSeconds: null }));
    const bad = counted(() => ({ outcome: new ClientMetadataError("http_status", "500"), maxAgeSeconds: 3600 }));
    await cache.resolve("a", ok.load("a"));
    await cache.resolve("b", bad.load("b"));
    now = 29_999;
    await cache.resolve("a", ok.load("a"));
    await cache.resolve("b", bad.load("b"));
    expect([ok.loads.length, bad.loads.length]).toEqual([1, 1]);
    now = 30_000; // a failure's max-age is ignored: it lives failureSeconds
    await cache.resolve("b", bad.load("b"));
    expect(bad.loads.length).toBe(2);
    now = 299_999;
    await cache.resolve("a", ok.load("a"));
    expect(ok.loads.length).toBe(1);
    now = 300_000;
    await cache.resolve("a", ok.load("a"));
    expect(ok.loads.length).toBe(2);
  });

  it("holds at most maxEntries, dropping the oldest stored first", async () => {
    const cache = createClientMetadataCache(SETTINGS, () => 0);
    const ok = counted((id) => ({ outcome: client(id), maxAgeSeconds: null }));
    for (const id of ["a", "b", "c", "d"]) await cache.resolve(id, ok.load(id));
    for (const id of ["b", "c", "d", "a"]) await cache.resolve(id, ok.load(id));
    expect(ok.loads).toEqual(["a", "b", "c", "d", "a"]);
  });

  it("shares a running load, and loads again once it finished and expired", async () => {
    let now = 0;
    const cache = createClientMetadataCache(SETTINGS, () => now);
    let finish: (loaded: LoadedClientMetadata) => void = () => undefined;
    let loads = 0;
    const slow = () => (loads++, new Promise<LoadedClientMetadata>((resolve) => (finish = resolve)));
    const waiting = [cache.resolve("x", slow), cache.resolve("x", slow), cache.resolve("x", slow)];
    finish({ outcome: client("x"), maxAgeSeconds: 60 });
    const outcomes = await Promise.all(waiting);
    expect(loads).toBe(1);
    expect(new Set(outcomes).size).toBe(1);
    now = 60_000;
    const again = cache.resolve("x", slow);
    finish({ outcome: client("x"), maxAgeSeconds: 60 });
    await again;
    expect(loads).toBe(2);
  });
});

describe("maxAgeOf", () => {
  it.each([
    [null, null],
    ["", null],
    ["public, max-age=120", 120],
    ["MAX-AGE=7", 7],
    ['max-age="30"', 30],
    ["no-store", 0],
    ["max-age=600, no-cache", 0],
    ["s-maxage=99", null],
    ["max-age=-1", null],
  ])("%s → %s", (header, seconds) => {
    expect(maxAgeOf(header)).toBe(seconds);
  });
});
