// An error's stack with each frame of a module that has a source map named by its source file and line (D177).
// `portcullis start` runs the server from bundled modules with inline source maps, and Node maps stacks through
// them, but Next.js replaces `Error.prepareStackTrace` with its own, which leaves `err.stack` as V8 gave it, so the
// JSON logs would name `.build/server/<build>/chunk-….mjs:9845:17`. The logger's error serialiser passes stacks
// through here.
import { findSourceMap, type SourceMap } from "node:module";
import { fileURLToPath, pathToFileURL } from "node:url";

// "    at fn (file:///a/b.mjs:12:5)" and "    at file:///a/b.mjs:12:5"; the location in group 2.
const FRAME = /^(\s+at (?:.*? \()?)((?:file:\/\/)?\/[^\s()]*?\.m?js):(\d+):(\d+)(\)?)$/gm;

function sourceMapOf(file: string): SourceMap | undefined {
  if (file.startsWith("file://")) return findSourceMap(file) ?? findSourceMap(fileURLToPath(file));
  return findSourceMap(file) ?? findSourceMap(pathToFileURL(file).href);
}

const asPath = (source: string): string => (source.startsWith("file://") ? fileURLToPath(source) : source);

/** `stack` with its bundled frames mapped to their sources; frames of files without a source map unchanged. */
export function sourceMappedStack(stack: string): string {
  const maps = new Map<string, SourceMap | undefined>();
  return stack.replace(FRAME, (frame: string, head: string, file: string, line: string, column: string, tail: string) => {
    if (!maps.has(file)) maps.set(file, sourceMapOf(file));
    const entry = maps.get(file)?.findEntry(Number(line) - 1, Number(column) - 1);
    if (!entry || !("originalSource" in entry) || typeof entry.originalSource !== "string") return frame;
    return `${head}${asPath(entry.originalSource)}:${String(entry.originalLine + 1)}:${String(entry.originalColumn + 1)}${tail}`;
  });
}
