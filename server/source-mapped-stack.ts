// An error's stack with each frame of a built module named by its source file and line (D177, D183).
// `portcullis start` runs the server from bundled modules (.build/server, inline source maps) and Next.js's compiled
// chunks (.next/server, a .map file beside each). Node's own source maps are not turned on: they read and keep every
// map of every module as it loads (about 1,250 files and 64 MB at start-up, 1.3 s of CPU and 90 MB of memory, D183),
// for the few stacks ever logged. The logger's error serialiser passes stacks through here instead, and a built
// file's map is read when a frame of it is first logged, once per process. A map Node holds already (a process run
// with --enable-source-maps) is used as it is.
import { readFileSync, statSync } from "node:fs";
import { findSourceMap, SourceMap } from "node:module";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

// "    at fn (file:///a/b.mjs:12:5)" and "    at file:///a/b.mjs:12:5"; the location in group 2.
const FRAME = /^(\s+at (?:.*? \()?)((?:file:\/\/)?\/[^\s()]*?\.m?js):(\d+):(\d+)(\)?)$/gm;

/**
 * The only files whose maps are read: the server bundle's and Next.js's server output. A stack's text can carry what
 * looks like a frame (an error message that quotes one), so a frame never makes the logger read any other file.
 */
const BUILT_OUTPUT = /\/\.(?:build|next)\/server\/[^\0]*\.m?js(?:\.map)?$/;
/** Larger than any map the build writes (the largest chunk's is 8 MB); a file beyond it is not read. */
const MAX_FILE_BYTES = 64 * 1024 * 1024;
const MARKER = "//# sourceMappingURL=";

/** A built file's map with its sources as absolute paths, or null when it has none or is not built output. */
type LoadedMap = { map: SourceMap; sourcesFrom: string };
const loaded = new Map<string, LoadedMap | null>();

function readBuilt(file: string): string | undefined {
  // Checked as resolved: ".next/server/../../x.js" is not built output.
  const resolved = path.resolve(file);
  if (!BUILT_OUTPUT.test(resolved) || statSync(resolved).size > MAX_FILE_BYTES) return undefined;
  return readFileSync(resolved, "utf8");
}

const parsed = (json: string, sourcesFrom: string): LoadedMap => ({ map: new SourceMap(JSON.parse(json) as ConstructorParameters<typeof SourceMap>[0]), sourcesFrom });

function loadSourceMap(file: string): LoadedMap | null {
  try {
    const text = readBuilt(file);
    const at = text?.lastIndexOf(MARKER) ?? -1;
    if (text === undefined || at < 0) return null;
    const url = text.slice(at + MARKER.length).trim();
    if (url.startsWith("data:")) {
      const comma = url.indexOf(",");
      const data = url.slice(comma + 1);
      const json = url.slice(0, comma).endsWith(";base64") ? Buffer.from(data, "base64").toString("utf8") : decodeURIComponent(data);
      return parsed(json, path.dirname(file));
    }
    const mapFile = path.resolve(path.dirname(file), decodeURIComponent(url));
    const json = readBuilt(mapFile);
    return json === undefined ? null : parsed(json, path.dirname(mapFile));
  } catch {
    return null; // gone, unreadable or not a map: the frame stays as V8 gave it
  }
}

function sourceMapOf(frameFile: string): LoadedMap | null {
  const file = frameFile.startsWith("file://") ? fileURLToPath(frameFile) : frameFile;
  const held = findSourceMap(frameFile) ?? findSourceMap(frameFile.startsWith("file://") ? file : pathToFileURL(file).href);
  if (held) return { map: held, sourcesFrom: path.dirname(file) };
  if (!loaded.has(file)) loaded.set(file, loadSourceMap(file));
  return loaded.get(file) ?? null;
}

function sourcePath(source: string, from: string): string {
  if (source.startsWith("file://")) return fileURLToPath(source);
  // A bundler's relative source ("../../../server/x.ts") is relative to its map's folder.
  return /^[a-z][a-z0-9+.-]*:/i.test(source) || path.isAbsolute(source) ? source : path.resolve(from, source);
}

/** `stack` with its built frames mapped to their sources; frames of files without a source map unchanged. */
export function sourceMappedStack(stack: string): string {
  return stack.replace(FRAME, (frame: string, head: string, file: string, line: string, column: string, tail: string) => {
    const found = sourceMapOf(file);
    const entry = found?.map.findEntry(Number(line) - 1, Number(column) - 1);
    if (!found || !entry || !("originalSource" in entry) || typeof entry.originalSource !== "string") return frame;
    return `${head}${sourcePath(entry.originalSource, found.sourcesFrom)}:${String(entry.originalLine + 1)}:${String(entry.originalColumn + 1)}${tail}`;
  });
}
