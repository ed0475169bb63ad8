// What of a tool is indexed: its fields as index terms (name, title, server, arguments, descriptions) and its
// name read as action and object. Pure; the weights are BM25F's.
import type { SearchableTool } from "../declarations";
import type { FieldWeights } from "./field-index";
import { isPlural } from "./grammatical-number";
import { knownRequestsFor } from "./known-requests";
import { STOP_WORDS, termOf } from "./normalize";
import type { RankDoc } from "./rank";
import { actionsOf } from "./thesaurus";
import { words } from "./words";

/**
 * A tool as indexed: its definition and, when the catalog has them, its server's one-line description (evidence for
 * the server, not the tool: server-prior.ts) and the requests an admin wrote for it (lib/tool-examples.ts; without
 * them, the shipped ones of known-requests.ts).
 */
export type IndexableTool = SearchableTool & { serverDescription?: string | null; exampleRequests?: readonly string[] };

// Arguments of a hostile schema are indexed up to here; more would only dilute the document.
const MAX_ARG_TERMS = 200;

export type Field = "name" | "title" | "server" | "args" | "description" | "argDescriptions" | "examples" | "knownRequests";

// The tool's own name says most, then its title, its server (every orders tool is about orders), argument
// names, descriptions and, least, argument descriptions. A name is short: its length barely normalises. An
// admin's example requests weigh like half a description, each word by how few tools' requests use it
// (distinctive): more weight, or every word alike, lifts the tools that have requests over those that have
// none (D175, measured with half the tools given requests). The requests that ship for a well-known package's
// tools weigh like a description (D176): they come for every tool of the package at once.
export const FIELDS: FieldWeights<Field> = {
  name: { weight: 6, b: 0.3 },
  title: { weight: 4, b: 0.5 },
  server: { weight: 2.5, b: 0 },
  args: { weight: 2, b: 0.75 },
  description: { weight: 1, b: 0.75 },
  argDescriptions: { weight: 0.5, b: 0.75 },
  examples: { weight: 0.5, b: 0.75, distinctive: true },
  knownRequests: { weight: 1, b: 0.75, distinctive: true },
};

// Words every server name may carry that name no server in particular ("acme/api", "github-mcp-server").
const GENERIC_SERVER_WORDS = new Set(
  ["mcp", "server", "api", "service", "tool", "app", "official"].map((word) => termOf(word)!),
);

/** Index terms of a text: its words, stop words dropped, stemmed. */
export function terms(text: string): string[] {
  return words(text).flatMap((word) => termOf(word) ?? []);
}

/**
 * A server's name as index terms, less generic words ("acme-api" → "acme"). A function word in a name is a name:
 * the "everything" server is kept, where "everything" in free text is dropped.
 */
export function serverNameTerms(server: string): string[] {
  return words(server)
    .flatMap((word) => termOf(word) ?? (STOP_WORDS.has(word) && word.length > 2 ? word : []))
    .filter((term) => !GENERIC_SERVER_WORDS.has(term));
}

export type ToolName = RankDoc & {
  /** The name's words as written and as terms, aligned (for notes). */
  nameWords: string[];
  allTerms: string[];
  /** Name terms that are no action: what the tool acts on. */
  objectTerms: string[];
};

/** The tool's name as action and object; words repeating its server's name ("maps" of google-maps) left out. */
export function nameOf(tool: IndexableTool): ToolName {
  const nameWords = words(tool.tool).filter((word) => termOf(word) !== null);
  const serverWords = new Set(serverNameTerms(tool.server));
  const allTerms = nameWords.map((word) => termOf(word)!);
  const ownTerms = allTerms.filter((term) => !serverWords.has(term) && !GENERIC_SERVER_WORDS.has(term));
  const nameTerms = ownTerms.length > 0 ? ownTerms : allTerms;
  return {
    server: tool.server,
    nameWords,
    allTerms,
    nameTerms,
    objectNumber: objectNumber(nameWords, allTerms, new Set(nameTerms)),
    objectTerms: nameTerms.filter((t) => actionsOf(t).size === 0),
  };
}

// The number of each object word of the name: `list_issues` → issue: plural; `get_issue` → issue: singular. The
// leading action word is no object ("comment" of `comment_on_issue` is; of `add_issue_comment` it is too).
function objectNumber(nameWords: readonly string[], allTerms: readonly string[], own: ReadonlySet<string>) {
  const number = new Map<string, boolean>();
  let first = true;
  nameWords.forEach((word, i) => {
    const term = allTerms[i]!;
    if (!own.has(term)) return;
    if (first && actionsOf(term).size > 0) return void (first = false);
    first = false;
    number.set(term, isPlural(word));
  });
  return number;
}

export function toFields(tool: IndexableTool): Record<Field, string[]> {
  const names: string[] = [];
  const descriptions: string[] = [];
  collectArgs(tool.inputSchema, tool.inputSchema, names, descriptions, new Set(), 0);
  return {
    name: terms(tool.tool),
    title: terms(tool.title ?? ""),
    server: serverNameTerms(tool.server),
    args: names.flatMap(terms),
    description: terms(tool.description ?? ""),
    argDescriptions: descriptions.flatMap(terms),
    examples: (tool.exampleRequests ?? []).flatMap(terms),
    // Those that ship for this exact definition of a well-known package's tool, unless an admin wrote some.
    knownRequests: (tool.exampleRequests?.length ? [] : knownRequestsFor(tool)).flatMap(terms),
  };
}

// Argument names and descriptions, nested objects, array items, combinators and local $refs included.
function collectArgs(
  schema: unknown,
  root: Record<string, unknown>,
  names: string[],
  descriptions: string[],
  seen: Set<unknown>,
  depth: number,
): void {
  if (!isObject(schema) || seen.has(schema) || depth > 6 || names.length >= MAX_ARG_TERMS) return;
  seen.add(schema);
  const visit = (child: unknown) => collectArgs(child, root, names, descriptions, seen, depth + 1);
  if (typeof schema.$ref === "string") {
    const match = /^#\/(\$defs|definitions)\/(.+)$/.exec(schema.$ref);
    const defs = match ? root[match[1]!] : undefined;
    if (match && isObject(defs)) visit(defs[match[2]!]);
  }
  if (isObject(schema.properties)) {
    for (const [name, property] of Object.entries(schema.properties)) {
      if (names.length >= MAX_ARG_TERMS) return;
      names.push(name);
      if (isObject(property) && typeof property.description === "string") descriptions.push(property.description);
      visit(property);
    }
  }
  for (const key of ["items", "additionalProperties"] as const) visit(schema[key]);
  for (const key of ["anyOf", "oneOf", "allOf", "prefixItems"] as const) {
    const members = schema[key];
    if (Array.isArray(members)) members.forEach(visit);
  }
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
