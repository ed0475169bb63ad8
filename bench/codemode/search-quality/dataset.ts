// The search-quality dataset: tool definitions (real ones captured from MCP server packages plus realistic
// business servers) and task queries, each with exactly one correct tool. Fixed before any ranker tuning.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

export type DatasetTool = {
  server: string;
  name: string;
  title?: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  /** The npm package a real definition was captured from; absent for the written ones. */
  source?: string;
};

/**
 * `dev`: a second tuning split written later (dev-query-source.ts), after `tune` was nearly saturated. `dev2`: a
 * third, written blind after `dev` was tuned on (dev2-query-source.ts), for tools `dev` has no query for. `dev3`: a
 * validation split (dev3-query-source.ts) for the tools neither has a query for, reported like the held-out one,
 * as aggregates only.
 */
export const SPLITS = ["tune", "dev", "dev2", "dev3", "heldout"] as const;
export type Split = (typeof SPLITS)[number];

/** The splits whose queries are never shown one by one: the held-out one, and the validation split. */
export const AGGREGATES_ONLY: ReadonlySet<Split> = new Set(["dev3", "heldout"]);

export type DatasetQuery = {
  id: string;
  query: string;
  /** `<server>/<tool>`. */
  expected: string;
  split: Split;
  /** Whether the query shares a word with the expected tool's name, title or description (computed). */
  lexical: boolean;
};

const DIR = import.meta.dirname;

export function loadTools(): DatasetTool[] {
  return JSON.parse(readFileSync(path.join(DIR, "tools.json"), "utf8")) as DatasetTool[];
}

/**
 * Each server's one-line summary for browse_catalog, as an admin would write it: written from tools.json alone
 * (no query, ranker or thesaurus seen), for `--server-summaries`.
 */
export function loadServerSummaries(): Record<string, string> {
  return JSON.parse(readFileSync(path.join(DIR, "server-summaries.json"), "utf8")) as Record<string, string>;
}

export function loadQueries(): DatasetQuery[] {
  return JSON.parse(readFileSync(path.join(DIR, "queries.json"), "utf8")) as DatasetQuery[];
}

export const toolKey = (tool: Pick<DatasetTool, "server" | "name">): string => `${tool.server}/${tool.name}`;

/** Writes a dataset file as the repository formats JSON, so a rebuild leaves no formatting diff. */
export async function writeJson(file: string, value: unknown): Promise<void> {
  // Loaded only here: the bench and the tests read the dataset without needing a formatter.
  const { format, resolveConfig } = await import("prettier");
  const options = await resolveConfig(file);
  writeFileSync(file, await format(JSON.stringify(value), { ...options, filepath: file }));
}
