// A stdio MCP server for bench/codemode: serves one server's share of realisticTools(n) (server/codemode/fixtures/
// realistic-tools.ts) as the fixture defines them (name, description, input and output schemas; no annotations),
// and answers every call at once with plausible, deterministic records derived from the tool and its arguments
// (list/search: `limit` records, get: one record with the asked ID, count, export, delete…), so a program can
// chain calls on the IDs it gets back. upstreams.ts runs it transpiled to plain JavaScript (no tsx per process:
// tens of them start per run). Imports nothing from the repo at run time.
//
//   BENCH_TOOLS_FILE   JSON array of SearchableTool (realisticTools(max), written by upstreams.ts)
//   BENCH_TOOL_COUNT   serve the first n of them (realisticTools(n) is a prefix of realisticTools(max))
//   BENCH_SERVER       the server whose tools this process serves
import { readFileSync } from "node:fs";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { SearchableTool } from "../../server/codemode/declarations";

type Schema = {
  type?: string | string[];
  enum?: unknown[];
  format?: string;
  description?: string;
  minimum?: number;
  maximum?: number;
  items?: Schema;
  properties?: Record<string, Schema>;
  additionalProperties?: unknown;
};
type Json = Record<string, unknown>;

const slug = process.env.BENCH_SERVER ?? "";
const count = Number(process.env.BENCH_TOOL_COUNT ?? "0");
const all = JSON.parse(readFileSync(process.env.BENCH_TOOLS_FILE ?? "", "utf8")) as SearchableTool[];
const tools = all.slice(0, count).filter((t) => t.server === slug);
const byName = new Map(tools.map((t) => [t.tool, t]));

const VERBS = ["bulk_update", "list", "get", "create", "update", "delete", "search", "archive", "export", "count"];
const CONTROL = new Set(["limit", "cursor", "sort", "include", "fields", "idempotency_key", "expected_version", "dry_run", "query", "ids", "changes", "format", "columns", "since", "reason", "hard_delete", "note", "notify_owner", "metadata"]);
const NAMES = ["Ada Lovelace", "Grace Hopper", "Alan Turing", "Katherine Johnson", "Edsger Dijkstra", "Barbara Liskov", "Donald Knuth", "Frances Allen"];
const CITIES = ["Berlin", "Lyon", "Austin", "Osaka", "Porto", "Tallinn"];
const COUNTRIES = ["DE", "FR", "US", "JP", "PT", "EE"];

/** verb and entity of a tool name in any of the fixture's styles (snake, kebab, dotted, camel). */
function parseName(name: string): { verb: string; entity: string } {
  const snake = name
    .replace(/-/g, "_")
    .replace(/([a-z])([A-Z])/g, "$1_$2")
    .toLowerCase();
  const dotted = /^(.+)\.([a-z_]+)$/.exec(snake);
  if (dotted) return { verb: dotted[2]!, entity: dotted[1]! };
  const verb = VERBS.find((v) => snake.startsWith(`${v}_`));
  return verb ? { verb, entity: snake.slice(verb.length + 1) } : { verb: "other", entity: snake };
}

function hash(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}
const hex = (n: number) => n.toString(16).padStart(8, "0");
const pick = <T>(xs: T[], seed: number): T => xs[seed % xs.length]!;

function sampleString(schema: Schema, key: string, seed: number): string {
  if (schema.format === "email" || key.includes("email")) return `${pick(NAMES, seed).split(" ")[0]!.toLowerCase()}.${String(seed % 97)}@example.com`;
  if (schema.format === "date" || key.endsWith("_date")) return `2026-${String((seed % 12) + 1).padStart(2, "0")}-${String((seed % 28) + 1).padStart(2, "0")}`;
  if (schema.format === "date-time" || /_at$|^start$|^end$/.test(key)) return new Date(Date.UTC(2026, seed % 12, (seed % 28) + 1, seed % 24, seed % 60)).toISOString();
  if (key === "id" || key.endsWith("_id")) return `${key === "id" ? "rec" : key.slice(0, -3)}_${hex(hash(`${key}:${String(seed)}`))}`;
  if (key.endsWith("url")) return `https://files.example.com/${hex(hash(String(seed)))}`;
  if (/name|assignee|owner|requester/.test(key)) return pick(NAMES, seed);
  if (key === "city") return pick(CITIES, seed);
  if (key === "country") return pick(COUNTRIES, seed);
  if (key === "currency") return "EUR";
  if (key === "repo") return "acme/storefront";
  return `${(schema.description ?? key).split(/[,.(]/)[0]!.trim().slice(0, 40)} #${String(seed % 1000)}`;
}

/** A value for `schema` under `key`; `seed` makes it vary from record to record. */
function sample(schema: Schema | undefined, key: string, seed: number, depth = 0): unknown {
  if (!schema) return null;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return pick(schema.enum, seed);
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== "null") : schema.type;
  switch (type) {
    case "string":
      return sampleString(schema, key, seed);
    case "integer":
      return Math.min(schema.maximum ?? 100_000, (schema.minimum ?? 0) + (seed % 5000));
    case "number":
      return Math.min(schema.maximum ?? 1000, (schema.minimum ?? 0) + (seed % 100) / 4);
    case "boolean":
      return seed % 2 === 0;
    case "array":
      return depth > 2 ? [] : [0, 1].map((i) => sample(schema.items ?? { type: "string" }, key.replace(/s$/, ""), seed + i * 7919, depth + 1));
    case "object": {
      if (depth > 3) return {};
      const props = Object.entries(schema.properties ?? {});
      if (props.length === 0) return schema.additionalProperties ? { source: "import", region: "eu" } : {};
      return Object.fromEntries(props.map(([k, s]) => [k, sample(s, k, hash(`${k}:${String(seed)}`) % 100_000, depth + 1)]));
    }
    default:
      return null;
  }
}

/** The entity's fields: the arguments of its create tool on this server (all of them), else the tool's own. */
const entityFields = new Map<string, [string, Schema][]>();
function fieldsOf(tool: SearchableTool, entity: string): [string, Schema][] {
  let fields = entityFields.get(entity);
  if (!fields) {
    const create = all.find((t) => t.server === slug && parseName(t.tool).verb === "create" && parseName(t.tool).entity === entity);
    const props = ((create ?? tool).inputSchema.properties ?? {}) as Record<string, Schema>;
    fields = Object.entries(props).filter(([k]) => !CONTROL.has(k) && k !== `${entity}_id`);
    entityFields.set(entity, fields);
  }
  return fields;
}

/** One record of the tool's entity: its fields plus what real APIs add. */
function record(tool: SearchableTool, entity: string, seed: number, id?: unknown): Json {
  return {
    id: typeof id === "string" ? id : `${entity}_${hex(hash(`${tool.name}:${String(seed)}`))}`,
    object: entity,
    ...Object.fromEntries(fieldsOf(tool, entity).map(([k, s]) => [k, sample(s, k, hash(`${k}:${String(seed)}`) % 100_000)])),
    created_at: sampleString({}, "created_at", seed),
    updated_at: sampleString({}, "updated_at", seed + 3),
    url: `https://app.example.com/${slug}/${entity}/${hex(seed)}`,
  };
}

function answer(tool: SearchableTool, args: Json): Json {
  const { verb, entity } = parseName(tool.tool);
  const seed = hash(`${tool.name}:${JSON.stringify(args)}`);
  const limit = Math.min(25, Math.max(1, Number(args.limit ?? 10) || 10));
  switch (verb) {
    case "list":
    case "search":
      return { items: Array.from({ length: limit }, (_, i) => record(tool, entity, seed + i)), next_cursor: `c_${hex(seed)}` };
    case "get":
    case "create":
    case "update":
    case "archive":
      return record(tool, entity, seed, args[`${entity}_id`]);
    case "delete":
      return { deleted: true };
    case "count":
      return { count: seed % 5000 };
    case "export":
      return { download_url: `https://files.example.com/exports/${hex(seed)}.${typeof args.format === "string" ? args.format : "csv"}`, expires_at: new Date(Date.UTC(2026, 11, 31)).toISOString() };
    case "bulk_update":
      return { updated: Array.isArray(args.ids) ? args.ids.length : 0, dry_run: Boolean(args.dry_run) };
    default:
      return { ok: true, id: `op_${hex(seed)}` };
  }
}

/** The answer shaped to the tool's output schema (its own fields first, so it validates), when it has one. */
function structured(tool: SearchableTool, value: Json): Json {
  const schema = tool.outputSchema as Schema | null | undefined;
  if (!schema) return value;
  const shaped = sample(schema, "result", hash(tool.name)) as Json;
  const itemSchema = schema.properties?.items?.items;
  if (Array.isArray(value.items) && itemSchema) {
    return { ...shaped, ...value, items: (value.items as Json[]).map((it) => ({ ...(sample(itemSchema, "item", hash(String(it.id))) as Json), ...it })) };
  }
  return { ...shaped, ...value };
}

const server = new Server({ name: `bench-${slug}`, version: "1.0.0" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, () => ({
  tools: tools.map((t) => ({
    name: t.tool,
    ...(t.title ? { title: t.title } : {}),
    ...(t.description ? { description: t.description } : {}),
    inputSchema: t.inputSchema as { type: "object" },
    ...(t.outputSchema ? { outputSchema: t.outputSchema as { type: "object" } } : {}),
  })),
}));
server.setRequestHandler(CallToolRequestSchema, (req): CallToolResult => {
  const tool = byName.get(req.params.name);
  if (!tool) return { content: [{ type: "text", text: `unknown tool ${req.params.name}` }], isError: true };
  const value = structured(tool, answer(tool, req.params.arguments ?? {}));
  return { content: [{ type: "text", text: JSON.stringify(value) }], ...(tool.outputSchema ? { structuredContent: value } : {}) };
});
await server.connect(new StdioServerTransport());
