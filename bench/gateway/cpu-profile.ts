// A V8 CPU profile of the gateway process while it serves load, summed by where the code lives
// (package, Node internals, our server/), so "where does the CPU go" has a measured answer.
import { Session } from "node:inspector/promises";

export type ProfileNode = {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
};
type Profile = { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[]; startTime: number; endTime: number };

export type CpuProfileSummary = {
  busyMs: number;
  idleMs: number;
  byPlace: { place: string; ms: number; share: number }[];
  topFunctions: { fn: string; place: string; ms: number; share: number }[];
};

/** The npm package a file path or URL lies in (the last node_modules of it; scoped as `@scope/name`), if any. */
export function packageOf(file: string): string | undefined {
  return /.*(?:^|\/)node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(file)?.[1];
}

export function placeOf(url: string, functionName: string): string {
  if (!url) {
    if (functionName === "(garbage collector)") return "V8 garbage collector";
    if (functionName === "(program)") return "V8 / native (program)";
    if (functionName === "(idle)") return "(idle)";
    return "native / builtins";
  }
  if (url.startsWith("wasm://")) return "WebAssembly (Prisma query compiler)";
  const pkg = packageOf(url);
  if (pkg) return pkg;
  if (url.startsWith("node:internal/deps/undici")) return "node: undici (fetch)";
  if (url.startsWith("node:internal/streams") || url.startsWith("node:internal/webstreams")) return "node: streams";
  if (url.startsWith("node:")) return "node: other internals";
  const m = /\/(server|bench|lib)\//.exec(url);
  if (m) return `portcullis ${m[1]}/`;
  return url;
}

/** Starts V8's sampling profiler in this process; the returned function stops it and summarizes the profile. */
export async function startProfiler<T>(summarize: (profile: Profile) => T): Promise<() => Promise<T>> {
  const session = new Session();
  session.connect();
  await session.post("Profiler.enable");
  await session.post("Profiler.setSamplingInterval", { interval: 250 });
  await session.post("Profiler.start");
  return async () => {
    const { profile } = (await session.post("Profiler.stop")) as unknown as { profile: Profile };
    session.disconnect();
    return summarize(profile);
  };
}

export function startCpuProfile(): Promise<() => Promise<CpuProfileSummary>> {
  return startProfiler(summarizeProfile);
}

export function summarizeProfile(profile: Profile): CpuProfileSummary {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  for (let i = 0; i < profile.samples.length; i++) {
    const id = profile.samples[i]!;
    self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
  }
  const places = new Map<string, number>();
  const fns = new Map<string, { place: string; ms: number }>();
  let idleMs = 0;
  let busyMs = 0;
  for (const [id, ms] of self) {
    const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
    const place = placeOf(url, functionName);
    if (place === "(idle)") {
      idleMs += ms;
      continue;
    }
    busyMs += ms;
    places.set(place, (places.get(place) ?? 0) + ms);
    const short = url ? `${url.split("/").slice(-2).join("/")}:${lineNumber + 1}` : "";
    const key = `${functionName || "(anonymous)"} ${short}`.trim();
    const f = fns.get(key) ?? { place, ms: 0 };
    f.ms += ms;
    fns.set(key, f);
  }
  const share = (ms: number) => (busyMs ? ms / busyMs : 0);
  return {
    busyMs,
    idleMs,
    byPlace: [...places].map(([place, ms]) => ({ place, ms, share: share(ms) })).sort((a, b) => b.ms - a.ms),
    topFunctions: [...fns]
      .map(([fn, f]) => ({ fn, place: f.place, ms: f.ms, share: share(f.ms) }))
      .sort((a, b) => b.ms - a.ms)
      .slice(0, 15),
  };
}
