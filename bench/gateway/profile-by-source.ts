// Reads a V8 CPU profile of `portcullis start` (shipped.ts with BENCH_CPU_PROF_DIR) by source file: the start
// process runs Next.js's compiled chunks, minified, so a profile names functions like `s` at line 2652 of a chunk.
// Each sample's frame is mapped through the chunk's source map (Node's own `SourceMap`, no dependency) to the file
// it was compiled from (server/audit/redaction.ts, zod, pg), and the busy time is summed per file and per function.
//
//   BENCH_CPU_PROF_DIR=/tmp/prof npx tsx bench/gateway/shipped.ts
//   npx tsx bench/gateway/profile-by-source.ts /tmp/prof/CPU.*.cpuprofile [rows]
//   npx tsx bench/gateway/profile-by-source.ts /tmp/prof/CPU.*.cpuprofile 10 --callers writev   # whose writes
import { existsSync, readFileSync } from "node:fs";
import { SourceMap } from "node:module";
import { fileURLToPath } from "node:url";
import { packageOf, placeOf, type ProfileNode } from "./cpu-profile";

type Frame = ProfileNode["callFrame"] & { columnNumber: number };
/** What `findEntry` answers (an empty object where the position maps to nothing). */
type Mapped = { originalSource?: string; originalLine?: number };
export type Profile = { nodes: (ProfileNode & { callFrame: Frame })[]; samples: number[]; timeDeltas: number[] };

/** A map of a compiled file's url, or null: read once per url from the `.map` beside the file. */
export type MapOf = (url: string) => SourceMap | null;

export function mapsBeside(): MapOf {
  const maps = new Map<string, SourceMap | null>();
  return (url) => {
    if (!maps.has(url)) {
      let map: SourceMap | null = null;
      const path = url.startsWith("file://") ? fileURLToPath(url) : url;
      try {
        if (path && existsSync(`${path}.map`)) map = new SourceMap(JSON.parse(readFileSync(`${path}.map`, "utf8")) as never);
      } catch {
        map = null; // a map Node cannot read (some index maps): the compiled file's name stands
      }
      maps.set(url, map);
    }
    return maps.get(url)!;
  };
}

/** The package, or the repository file, a compiled source path names. */
export function placeOfSource(source: string): string {
  const pkg = packageOf(source);
  if (pkg) return pkg;
  const own = /(?:^|\/)((?:server|lib|app|scripts)\/.*)$/.exec(source);
  return own ? own[1]! : source.replace(/^(?:\.\.\/)+/, "");
}

/** Where a frame's code comes from, through its chunk's map: its place (file or package) and function label. */
function whereOf(callFrame: Frame, mapOf: MapOf): { place: string; fn: string } {
  const { url, lineNumber, columnNumber, functionName } = callFrame;
  const fn = functionName || "(anonymous)";
  const entry: Mapped | undefined = url && lineNumber >= 0 ? mapOf(url)?.findEntry(lineNumber, columnNumber) : undefined;
  if (!entry?.originalSource) {
    const place = placeOf(url, functionName);
    return { place, fn: `${fn} ${place}` };
  }
  // The source line names the function; the map's `name` is not used (Node carries a segment's name on to the
  // unnamed segments after it), the compiled name is kept beside it.
  const place = placeOfSource(entry.originalSource);
  return { place, fn: `${place}:${(entry.originalLine ?? 0) + 1} (${fn})` };
}

function selfTimes(profile: Profile): Map<number, number> {
  const selfUs = new Map<number, number>();
  profile.samples.forEach((id, i) => selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  return selfUs;
}

/** Busy time (µs, idle left out) per source file or package, and per function at its source line. */
export function bySource(profile: Profile, mapOf: MapOf): { busyUs: number; byPlace: Map<string, number>; byFunction: Map<string, number> } {
  const selfUs = selfTimes(profile);
  const byPlace = new Map<string, number>();
  const byFunction = new Map<string, number>();
  let busyUs = 0;
  for (const node of profile.nodes) {
    const us = selfUs.get(node.id);
    if (!us || node.callFrame.functionName === "(idle)") continue;
    busyUs += us;
    const { place, fn } = whereOf(node.callFrame, mapOf);
    byPlace.set(place, (byPlace.get(place) ?? 0) + us);
    byFunction.set(fn, (byFunction.get(fn) ?? 0) + us);
  }
  return { busyUs, byPlace, byFunction };
}

const INTERNAL = /^(?:node: |native |V8 )/;

/**
 * Who a native function's time is spent for: its self time (µs) per nearest caller outside Node's internals, by
 * that caller's function at its source line. `writev` is a system call whose time includes the process it wakes
 * (the thirteenth pass); this says whose writes they are (pg's queries, the HTTP answer, the upstream's stdin).
 */
export function callersOf(profile: Profile, mapOf: MapOf, functionName: string): Map<string, number> {
  const selfUs = selfTimes(profile);
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const out = new Map<string, number>();
  for (const node of profile.nodes) {
    const us = selfUs.get(node.id);
    if (!us || node.callFrame.functionName !== functionName) continue;
    let caller = "(no caller outside Node)";
    for (let id = parent.get(node.id); id !== undefined; id = parent.get(id)) {
      const where = whereOf(byId.get(id)!.callFrame, mapOf);
      if (!INTERNAL.test(where.place)) {
        caller = where.fn;
        break;
      }
    }
    out.set(caller, (out.get(caller) ?? 0) + us);
  }
  return out;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const args = process.argv.slice(2);
  const at = args.indexOf("--callers");
  const callersOfName = at >= 0 ? args.splice(at, 2)[1] : undefined;
  const [file, rowsArg] = args;
  if (!file) throw new Error("usage: profile-by-source.ts <profile.cpuprofile> [rows] [--callers <native function, e.g. writev>]");
  const rows = Number(rowsArg ?? 40);
  const profile = JSON.parse(readFileSync(file, "utf8")) as Profile;
  const { busyUs, byPlace, byFunction } = bySource(profile, mapsBeside());
  const table = (title: string, m: Map<string, number>) => {
    console.log(`\n| ${title} | share of busy | ms |\n|---|---:|---:|`);
    for (const [k, us] of [...m].sort((a, b) => b[1] - a[1]).slice(0, rows)) console.log(`| ${k} | ${((100 * us) / busyUs).toFixed(2)} % | ${(us / 1000).toFixed(0)} |`);
  };
  console.log(`busy (not idle): ${(busyUs / 1000).toFixed(0)} ms of the profile`);
  if (callersOfName) table(`${callersOfName}, by its caller outside Node`, callersOf(profile, mapsBeside(), callersOfName));
  else {
    table("where (source file or package)", byPlace);
    table("function (at its source line)", byFunction);
  }
}
