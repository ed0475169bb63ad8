// Renders a run of bench/sandbox as the Markdown block of docs/benchmarks.md.
import { machineTable } from "../gateway/report";
import { percentile, type Samples } from "./rounds";

export type SandboxReport = {
  facts: Record<string, string>;
  durationS: number;
  loadAtStart: number;
  loadAtEnd: number;
  rounds: number;
  warmup: number;
  bwrapVersion: string;
  memoryEnforcement: string;
  hidden: string[];
  server: string;
  allow: string[];
  processStart: { samples: Samples; unavailable: { name: string; detail: string }[]; cgroupBookkeeping: number[] };
  mcpStart: { samples: Samples };
};

const ms = (v: number) => (Number.isNaN(v) ? "–" : v < 10 ? v.toFixed(2) : v.toFixed(1));
const ratio = (v: number, base: number) => `${(v / base).toFixed(2)}×`;
const plus = (v: number, base: number) => `${v - base >= 0 ? "+" : "−"}${ms(Math.abs(v - base))}`;

/** One table: the first variant is the baseline the others are compared with. */
function table(samples: Samples, unavailable: { name: string; detail: string }[] = []): string[] {
  const rows = [...samples.entries()].map(([name, xs]) => ({ name, n: xs.length, p50: percentile(xs, 50), p95: percentile(xs, 95), max: percentile(xs, 100) }));
  const base = rows[0]!;
  return [
    "| variant | runs | p50 ms | p95 ms | max ms | p50 vs bare | p95 vs bare | added at p50 ms |",
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ...rows.map((r) =>
      r === base
        ? `| ${r.name} | ${String(r.n)} | ${ms(r.p50)} | ${ms(r.p95)} | ${ms(r.max)} | 1.00× | 1.00× | – |`
        : `| ${r.name} | ${String(r.n)} | ${ms(r.p50)} | ${ms(r.p95)} | ${ms(r.max)} | ${ratio(r.p50, base.p50)} | ${ratio(r.p95, base.p95)} | ${plus(r.p50, base.p50)} |`,
    ),
    ...unavailable.map((u) => `| ${u.name} | 0 | – | – | – | not available: ${u.detail.replace(/\|/g, "\\|")} | | |`),
  ];
}

export function renderReport(r: SandboxReport): string {
  const m = r.facts;
  const cg = r.processStart.cgroupBookkeeping;
  return [
    `Run of ${m.date!} at commit ${m.commit!}, ${r.durationS.toFixed(0)} s in all. Load average (1 min) ${r.loadAtStart.toFixed(1)} at the start, ${r.loadAtEnd.toFixed(1)} at the end, on ${m.nproc!} CPUs (other work on a shared machine slows every number here).`,
    "",
    ...machineTable(m, [["sandbox", `${r.bwrapVersion}; memory enforced by ${r.memoryEnforcement}`]]),
    "",
    `- ${String(r.rounds)} rounds after ${String(r.warmup)} warm-up rounds; each round runs every variant once, in an order rotated from round to round; one process at a time`,
    `- sandbox: the default isolation (512 MB, 64 tasks, 256 files, 3600 s CPU, 64 MB /tmp), the seccomp filter on fd 3, hiding ${r.hidden.map((h) => `\`${h}\``).join(", ")}`,
    "",
    "**(a) `/bin/true`, spawn to exit** (the command lines of commands.ts alone: `[sh joining cgroups →] prlimit → setpriv → bwrap → init sh → /bin/true`)",
    "",
    ...table(r.processStart.samples, r.processStart.unavailable),
    ...(cg.length ? ["", `The supervisor's cgroup bookkeeping around each process (mkdir + limits before, rmdir after; not in the times above): p50 ${ms(percentile(cg, 50))} ms, p95 ${ms(percentile(cg, 95))} ms.`] : []),
    "",
    `**(b) stdio MCP server, \`connectUpstream\` to initialize complete** (\`node ${r.server}\`; launcher from server/sandbox/launcher.ts, secrets resolved as given; allowlist \`${r.allow.join("`, `")}\`)`,
    "",
    ...table(r.mcpStart.samples),
  ].join("\n");
}
