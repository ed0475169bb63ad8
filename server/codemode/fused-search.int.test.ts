// search_tools with an embedding provider: the lexical ranking fused with the tools' nearness in meaning, the
// vectors stored in PostgreSQL. The provider here is a test double standing in for a model (no model ships in
// a registry package, D87): it gives the query and one tool's text the same direction, as a model would for a
// paraphrase that shares no word with the tool.
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { createLogger } from "../logger";
import { createTestDb, truncateAll } from "../test/test-db";
import { fusedSearch, searchText } from "./code-mode-tools";
import { EmbeddingError } from "./embeddings/embedding-error";
import type { EmbeddingProvider } from "./embeddings/embedding-provider";
import { createSemanticRanker } from "./embeddings/semantic-ranker";
import { cachedSemanticSet, cachedToolIndex } from "./tool-index-cache";

const tool = (name: string, description: string): Tool => ({ name, description, inputSchema: { type: "object", properties: {} } });
const TOOLS = [
  tool("books__reconcile_ledger", "Match the quarterly ledger against the bank's statements."),
  tool("books__list_invoices", "List invoices, newest first."),
  tool("mail__send_message", "Send an email to one or more recipients."),
  tool("chat__post_message", "Post a message to a channel."),
  tool("files__read_file", "Read a file's contents."),
];
// "zorp" means reconciling books in this test's language: no tool says it, the model knows it.
const QUERY = "zorp the numbers for Q3";

/** Texts about reconciling (the tool's, the query) point one way; every other text its own way. */
function paraphraseModel(): EmbeddingProvider & { failing: boolean } {
  const others = new Map<string, number>();
  const provider = {
    id: "test:paraphrase",
    dimensions: 16,
    failing: false,
    embed(texts: string[]) {
      if (provider.failing) return Promise.reject(new EmbeddingError("embedding_unavailable", "the test model is down"));
      return Promise.resolve(
        texts.map((text) => {
          const v = new Float32Array(16);
          if (/reconcile|zorp/i.test(text)) v[0] = 1;
          else v[1 + (others.get(text) ?? others.set(text, others.size % 15).get(text)!)] = 1;
          return v;
        }),
      );
    },
  };
  return provider;
}

describe("search_tools fused with semantic ranking", () => {
  const db = createTestDb();
  beforeEach(async () => {
    await truncateAll(db);
  });
  afterAll(async () => {
    await db.$disconnect();
  });

  it("a tool that shares no word with the query comes first once its vector is stored; the lexical answer alone calls the match weak", async () => {
    const model = paraphraseModel();
    const ranker = createSemanticRanker({ db, provider: model, weight: 0.7, logger: createLogger("silent") });
    const index = cachedToolIndex(TOOLS);
    const lexical = index.search(QUERY);
    expect(lexical.tools[0]?.name).not.toBe("books__reconcile_ledger");

    await ranker.warm(cachedSemanticSet(ranker, TOOLS));
    const fused = await fusedSearch(ranker, index, TOOLS, QUERY, { detail: "summary", limit: 3 }, undefined);
    expect(fused.tools[0]?.name).toBe("books__reconcile_ledger");
    expect(fused.tools.length).toBeLessThanOrEqual(3);
    expect(searchText(fused, "summary").split("\n")[0]).toBe("tools.books.reconcile_ledger({}) — Match the quarterly ledger against the bank's statements.");
    // A server filter holds for the fused answer too.
    const onlyMail = await fusedSearch(ranker, index, TOOLS, QUERY, { detail: "name", server: "mail" }, undefined);
    expect(onlyMail.tools.map((t) => t.name)).toEqual(["mail__send_message"]);
  });

  it("a provider that fails leaves the lexical order, never an error", async () => {
    const model = paraphraseModel();
    model.failing = true;
    const ranker = createSemanticRanker({ db, provider: model, weight: 0.7, logger: createLogger("silent") });
    const index = cachedToolIndex(TOOLS);
    const fused = await fusedSearch(ranker, index, TOOLS, "send an email", { detail: "name" }, undefined);
    expect(fused.tools[0]?.name).toBe(index.search("send an email").tools[0]?.name);
    expect(fused.tools[0]?.name).toBe("mail__send_message");
  });
});
