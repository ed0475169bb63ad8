// Stored tool embeddings on real PostgreSQL: computed once per definition version and provider, claimed so
// concurrent fillers (separate connection pools, as two gateway processes have) compute each vector once, and
// a provider fault that never fails a search. The provider is the deterministic TEST provider (no real model
// ships in a registry package; see the embeddings notes).
import { spawn } from "node:child_process";
import { once } from "node:events";
import path from "node:path";
import { compiledScript } from "../../test/compiled-script";
import { createInterface } from "node:readline";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { createDb, type Db } from "../../db/client";
import { createLogger } from "../../logger";
import { metricsRegistry } from "../../metrics/metrics";
import { capturedLogger } from "../../test/captured-logger";
import { deterministicTestProvider } from "../../test/fixtures/deterministic-embedding-provider";
import { createTestDb, testDatabaseUrl, truncateAll } from "../../test/test-db";
import type { SearchableTool } from "../declarations";
import { realisticTools } from "../fixtures/realistic-tools";
import { createSemanticRanker } from "./semantic-ranker";
import { toolEmbeddingStore } from "./tool-embedding-store";

const tools = realisticTools(120);
const FILLER = path.resolve(import.meta.dirname, "../../test/fixtures/embedding-filler-process.ts");

async function failureCount(code: string): Promise<number> {
  const metric = (await metricsRegistry.getMetricsAsJSON()).find((m) => m.name === "portcullis_search_embedding_failures_total");
  return metric?.values.find((v) => v.labels.code === code)?.value ?? 0;
}

async function storedRows(db: Db) {
  return db.$queryRaw<{ providerId: string; textHash: string; dimensions: number; hasVector: boolean }[]>`
    SELECT "providerId", "textHash", dimensions, vector IS NOT NULL AS "hasVector" FROM tool_embeddings`;
}

describe("semantic ranker and its tool embedding store", () => {
  const db = createTestDb();
  const pools: Db[] = [];
  const pool = () => {
    const p = createTestDb();
    pools.push(p);
    return p;
  };

  beforeEach(async () => {
    await truncateAll(db);
  });
  afterAll(async () => {
    await Promise.all([db, ...pools].map((p) => p.$disconnect()));
  });

  it("eight fillers on separate pools racing over one tool set compute and store each vector once", async () => {
    const provider = deterministicTestProvider();
    const rankers = Array.from({ length: 8 }, () =>
      createSemanticRanker({ db: pool(), provider, weight: 0.5, logger: createLogger("silent"), batchSize: 16 }),
    );
    await Promise.all(rankers.map((r) => r.warm(r.prepare(tools))));
    expect(provider.embedded).toHaveLength(tools.length);
    expect(new Set(provider.embedded).size).toBe(tools.length);
    const rows = await storedRows(db);
    expect(rows).toHaveLength(tools.length);
    expect(rows.every((r) => r.hasVector && r.dimensions === 64)).toBe(true);

    // A later process reads them all and embeds nothing.
    const fresh = deterministicTestProvider();
    const later = createSemanticRanker({ db: pool(), provider: fresh, weight: 0.5, logger: createLogger("silent") });
    await later.warm(later.prepare(tools));
    expect(fresh.embedded).toEqual([]);
  });

  it("two processes filling the same tool set at once embed and store each vector once", async () => {
    const n = 200;
    const filler = await compiledScript(FILLER);
    const children = [0, 1].map(() =>
      spawn(process.execPath, [filler, String(n)], {
        env: { ...process.env, DATABASE_URL: testDatabaseUrl() },
        stdio: ["pipe", "pipe", "inherit"],
      }),
    );
    const lines = children.map((c) => createInterface({ input: c.stdout })[Symbol.asyncIterator]());
    for (const line of lines) expect((await line.next()).value).toBe("ready");
    for (const c of children) c.stdin.end("go\n");
    const reports = await Promise.all(lines.map(async (line) => JSON.parse((await line.next()).value as string) as { embedded: number }));
    await Promise.all(children.filter((c) => c.exitCode === null).map((c) => once(c, "exit")));
    expect(reports.reduce((sum, r) => sum + r.embedded, 0)).toBe(n);
    const rows = await storedRows(db);
    expect(rows).toHaveLength(n);
    expect(rows.every((r) => r.hasVector)).toBe(true);
  });

  it("a changed definition is embedded again, the unchanged ones are not; another provider id keeps its own vectors", async () => {
    const provider = deterministicTestProvider();
    const ranker = createSemanticRanker({ db, provider, weight: 0.5, logger: createLogger("silent") });
    await ranker.warm(ranker.prepare(tools));
    const changed: SearchableTool[] = tools.map((t, i) => (i === 3 ? { ...t, description: `${t.description ?? ""} Now paginated.` } : t));
    const again = deterministicTestProvider();
    const next = createSemanticRanker({ db, provider: again, weight: 0.5, logger: createLogger("silent") });
    await next.warm(next.prepare(changed));
    expect(again.embedded).toHaveLength(1);
    expect(again.embedded[0]).toContain("Now paginated.");

    const other = deterministicTestProvider("test:other-model");
    const otherRanker = createSemanticRanker({ db, provider: other, weight: 0.5, logger: createLogger("silent") });
    await otherRanker.warm(otherRanker.prepare(tools.slice(0, 5)));
    expect(other.embedded).toHaveLength(5);
    expect((await storedRows(db)).filter((r) => r.providerId === "test:other-model")).toHaveLength(5);
  });

  it("ranks by meaning once warm: a tool the lexical ranking missed comes first", async () => {
    const provider = deterministicTestProvider();
    const ranker = createSemanticRanker({ db, provider, weight: 0.7, logger: createLogger("silent") });
    const set = ranker.prepare(tools);
    await ranker.warm(set);
    const target = tools[17]!;
    // The test provider's "meaning" is shared words: the target's own text as the query.
    const query = set.texts.get(target.name)!;
    const ranked = await ranker.rank(query, set, []);
    expect(ranked[0]!.name).toBe(target.name);
    expect(ranked).toHaveLength(tools.length);
  });

  it("a search before the vectors are stored answers at once with what there is, and starts filling them", async () => {
    const provider = deterministicTestProvider();
    let open!: () => void;
    provider.gate = new Promise((resolve) => (open = resolve));
    const ranker = createSemanticRanker({ db, provider, weight: 0.5, logger: createLogger("silent") });
    const set = ranker.prepare(tools);
    const lexical = [{ name: tools[2]!.name, score: 1 }];
    // The query's own embedding waits on the gate too: open it once the fill has claimed its rows.
    const ranking = ranker.rank("send an invoice", set, lexical);
    await expect.poll(async () => (await storedRows(db)).length).toBe(tools.length);
    open();
    const ranked = await ranking;
    expect(ranked[0]!.name).toBe(tools[2]!.name); // no tool vectors yet: the lexical hit alone
    expect(ranked).toHaveLength(1);
    await ranker.warm(set);
    expect((await storedRows(db)).every((r) => r.hasVector)).toBe(true);
  });

  it("a provider fault never fails the search: lexical order, logged once, counted, claims given back, retried later", async () => {
    const provider = deterministicTestProvider();
    provider.failWith = "embedding_unavailable";
    let clock = 1_000_000;
    const { logger, lines } = capturedLogger();
    const ranker = createSemanticRanker({ db, provider, weight: 0.5, logger, coolDownMs: 30_000, now: () => clock });
    const set = ranker.prepare(tools);
    const lexical = [
      { name: tools[1]!.name, score: 5 },
      { name: tools[0]!.name, score: 3 },
    ];
    const before = await failureCount("embedding_unavailable");

    expect(await ranker.rank("refund an order", set, lexical)).toEqual(lexical);
    await ranker.warm(set);
    expect(await failureCount("embedding_unavailable")).toBe(before + 2); // the query and the fill
    expect(lines.filter((l) => l.msg === "embedding provider failed; tool search falls back to lexical ranking")).toHaveLength(1);
    expect(await storedRows(db)).toEqual([]); // claims released

    // Cooling down: the provider is not asked again.
    const calls = provider.calls;
    expect(await ranker.rank("refund an order", set, lexical)).toEqual(lexical);
    expect(provider.calls).toBe(calls);

    // After the cool-down it answers again: semantic ranking resumes, the recovery is logged once.
    clock += 30_000;
    provider.failWith = null;
    await ranker.rank("refund an order", set, lexical);
    await ranker.warm(set);
    expect((await storedRows(db)).filter((r) => r.hasVector)).toHaveLength(tools.length);
    expect(lines.filter((l) => l.msg === "embedding provider answers again; semantic ranking resumed")).toHaveLength(1);
  });

  it("an unreachable database is a fault like the provider's: the search keeps its lexical order, counted as embedding_store_failed", async () => {
    const down = createDb("postgresql://portcullis@127.0.0.1:1/none", { max: 1 });
    pools.push(down);
    const provider = deterministicTestProvider();
    const ranker = createSemanticRanker({ db: down, provider, weight: 0.5, logger: createLogger("silent") });
    const set = ranker.prepare(tools.slice(0, 3));
    const before = await failureCount("embedding_store_failed");
    await ranker.warm(set);
    expect(await failureCount("embedding_store_failed")).toBe(before + 1);
    expect(provider.embedded).toEqual([]);
  });

  it("a claim left by a process that died is taken over after the claim timeout, a fresh one is not", async () => {
    const store = toolEmbeddingStore(db, "test:deterministic", 60_000);
    expect(await store.claim(["a", "b"])).toEqual(["a", "b"]);
    expect(await store.claim(["a", "b", "c"])).toEqual(["c"]);
    await db.$executeRaw`UPDATE tool_embeddings SET "claimedAt" = CURRENT_TIMESTAMP - interval '2 minutes' WHERE "textHash" = 'a'`;
    expect(await store.claim(["a", "b"])).toEqual(["a"]);
    await store.save(new Map([["a", Float32Array.from([0.6, 0.8])]]));
    expect([...(await store.read(["a", "b"]))]).toEqual([["a", Float32Array.from([0.6, 0.8])]]);
    // A stored vector is kept: a late second save of the same key changes nothing.
    await store.save(new Map([["a", Float32Array.from([1, 0])]]));
    expect([...(await store.read(["a"])).values()][0]).toEqual(Float32Array.from([0.6, 0.8]));
  });
});
