// The one line browse_catalog shows for a server: what the admin wrote (lib/server-summary.ts checked it), else
// the first sentence of the instructions the server sent at connect (its version's definitions hold them), else
// what its tool names say. Instructions come from the upstream, unchecked: they are flattened to one printable
// line and capped, so a server cannot add lines to the listing or fill the model's context.
export const MAX_DERIVED_CHARS = 120;

// Controls, line/paragraph separators and bidi overrides become spaces; lone surrogates are dropped.
// eslint-disable-next-line no-control-regex
const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** `text` cut to `max` characters (code points) at a word boundary where there is one, with an ellipsis. */
export function capLine(text: string, max = MAX_DERIVED_CHARS): string {
  const chars = [...text];
  if (chars.length <= max) return text;
  const cut = chars.slice(0, max - 1).join("");
  const space = cut.lastIndexOf(" ");
  return `${(space > max / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/** The first sentence of MCP instructions, one line: markdown headings and list marks are not part of it. */
export function firstSentenceOf(instructions: string): string {
  const line = instructions
    .replace(LONE_SURROGATE, "")
    .split(/\r?\n|\r/)
    .map((l) => l.replace(UNPRINTABLE, " ").replace(/^\s*(?:#+|[-*>]|\d+[.)])\s+/, "").trim())
    .find((l) => l.length > 0);
  if (!line) return "";
  const flat = line.replace(/\s+/g, " ");
  // A sentence ends at . ! ? followed by a space (not "e.g. x" inside a word like "v1.2").
  const end = /[.!?](?=\s)/.exec(flat);
  return capLine(end ? flat.slice(0, end.index + 1) : flat);
}

/** What the tool names say when nothing else does: how many, and the first few. */
export function fromToolNames(names: readonly string[]): string {
  return capLine(`${String(names.length)} tool${names.length === 1 ? "" : "s"}: ${names.join(", ")}`);
}

export function catalogSummary(server: { summary?: string | null; instructions?: string }, toolNames: readonly string[]): string {
  if (server.summary) return server.summary;
  const fromInstructions = server.instructions ? firstSentenceOf(server.instructions) : "";
  return fromInstructions || fromToolNames(toolNames);
}
