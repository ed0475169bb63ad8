// A V8 CPU profile of a gateway process under task load: self time by place (bench/gateway's summary) and,
// inclusively, the share of busy samples with a frame of a given library or folder anywhere on the stack
// (e.g. everything done under Prisma: its query compiler, its driver adapter and the pg writes it makes).
import { startProfiler, summarizeProfile, type CpuProfileSummary } from "../gateway/cpu-profile";

type ProfileNode = {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
};
type Profile = { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[]; startTime: number; endTime: number };

export type InclusiveRow = { under: string; ms: number; share: number };
export type TaskProfileSummary = CpuProfileSummary & { inclusive: InclusiveRow[] };

const UNDER: [string, RegExp][] = [
  ["Prisma (@prisma/*)", /\/node_modules\/@prisma\//],
  ["node-postgres (pg, pg-pool, pg-protocol)", /\/node_modules\/pg(-pool|-protocol)?\//],
  ["graphile-worker", /\/node_modules\/graphile-worker\//],
  ["MCP SDK", /\/node_modules\/@modelcontextprotocol\/sdk\//],
  ["zod", /\/node_modules\/zod\//],
  ["ajv", /\/node_modules\/ajv/],
  ["portcullis server/tasks/", /\/server\/tasks\//],
  ["portcullis server/ (any)", /\/server\//],
];

export function startTaskProfile(): Promise<() => Promise<TaskProfileSummary>> {
  return startProfiler((profile: Profile) => ({ ...summarizeProfile(profile), inclusive: inclusive(profile) }));
}

function inclusive(profile: Profile): InclusiveRow[] {
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  // Which categories each node's stack (itself and its ancestors) touches, memoized per node.
  const memo = new Map<number, Set<number>>();
  const under = (id: number): Set<number> => {
    const hit = memo.get(id);
    if (hit) return hit;
    const p = parent.get(id);
    const set = new Set(p === undefined ? [] : under(p));
    const url = byId.get(id)?.callFrame.url ?? "";
    UNDER.forEach(([, re], i) => re.test(url) && set.add(i));
    memo.set(id, set);
    return set;
  };
  const ms = new Array<number>(UNDER.length).fill(0);
  let busy = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    const id = profile.samples[i]!;
    if (byId.get(id)?.callFrame.functionName === "(idle)") continue;
    const dt = (profile.timeDeltas[i] ?? 0) / 1000;
    busy += dt;
    for (const k of under(id)) ms[k]! += dt;
  }
  return UNDER.map(([name], i) => ({ under: name, ms: ms[i]!, share: busy ? ms[i]! / busy : 0 }));
}
