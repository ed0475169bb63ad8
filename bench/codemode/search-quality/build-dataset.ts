// Writes tools.json (captured real definitions + written business tools) and queries.json (query source +
// split + lexical flag). The split is decided here once: queries ordered by the SHA-256 of their id, the first
// half tunes, the second half is held out. The dev queries (dev-query-source.ts, written later) and the dev2
// queries (dev2-query-source.ts, later still) are splits of their own and never held out, as is the validation
// split dev3 (dev3-query-source.ts). Re-running gives the
// same files.
//   npx tsx bench/codemode/search-quality/build-dataset.ts
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { BUSINESS_TOOLS } from "./business-tools";
import { toolKey, writeJson, type DatasetQuery, type DatasetTool, type Split } from "./dataset";
import { sharesWord } from "./lexical-overlap";
import { DEV_QUERY_SOURCE } from "./dev-query-source";
import { DEV2_QUERY_SOURCE } from "./dev2-query-source";
import { DEV3_QUERY_SOURCE } from "./dev3-query-source";
import { QUERY_SOURCE } from "./query-source";

const DIR = import.meta.dirname;

async function main(): Promise<void> {
  const captured = JSON.parse(readFileSync(path.join(DIR, "captured-tools.json"), "utf8")) as DatasetTool[];
  const tools = [...captured, ...BUSINESS_TOOLS];
  const byKey = new Map(tools.map((tool) => [toolKey(tool), tool]));
  if (byKey.size !== tools.length) throw new Error("duplicate server/name in tools");

  const order = [...QUERY_SOURCE].sort(([a], [b]) => hash(a).localeCompare(hash(b)));
  const heldout = new Set(order.slice(Math.ceil(order.length / 2)).map(([id]) => id));
  const entry = ([id, query, expected]: (typeof QUERY_SOURCE)[number], split: Split): DatasetQuery => {
    const tool = byKey.get(expected);
    if (!tool) throw new Error(`query ${id}: no tool ${expected}`);
    return { id, query, expected, split, lexical: sharesWord(query, tool) };
  };
  const queries: DatasetQuery[] = [
    ...QUERY_SOURCE.map((source) => entry(source, heldout.has(source[0]) ? "heldout" : "tune")),
    ...DEV_QUERY_SOURCE.map((source) => entry(source, "dev")),
    ...DEV2_QUERY_SOURCE.map((source) => entry(source, "dev2")),
    ...DEV3_QUERY_SOURCE.map((source) => entry(source, "dev3")),
  ];

  await writeJson(path.join(DIR, "tools.json"), tools);
  await writeJson(path.join(DIR, "queries.json"), queries);
  const nonLexical = queries.filter((query) => !query.lexical).length;
  console.log(
    `${tools.length} tools (${captured.length} captured) of ${new Set(tools.map((tool) => tool.server)).size} servers; ` +
      `${queries.length} queries (${DEV_QUERY_SOURCE.length} dev, ${DEV2_QUERY_SOURCE.length} dev2, ${DEV3_QUERY_SOURCE.length} dev3), ${heldout.size} held out, ${nonLexical} non-lexical`,
  );
}

const hash = (id: string): string => createHash("sha256").update(id).digest("hex");

await main();
