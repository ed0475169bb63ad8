// The upstreams of the context measurement: realisticTools(n) spread over its servers (14 at n ≤ ~410, up to 70
// at 2,000), one stdio process of bench/codemode/realistic-server.ts per server slug, each serving its share.
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { realisticTools } from "../../server/codemode/fixtures/realistic-tools";
import type { SearchableTool } from "../../server/codemode/declarations";
import type { BenchGateway } from "./gateway";

const REPO_ROOT = path.resolve(import.meta.dirname, "../..");
const FIXTURE_SOURCE = path.join(REPO_ROOT, "bench", "codemode", "realistic-server.ts");

/**
 * The fixture as plain JavaScript under node_modules/.cache (so its imports resolve), started with plain node:
 * tsx would add about a second to each of the tens of starts on a busy machine (as compiledFixture does).
 */
function compiledFixture(): string {
  const source = readFileSync(FIXTURE_SOURCE, "utf8");
  const dir = path.join(REPO_ROOT, "node_modules", ".cache", "portcullis-bench");
  const out = path.join(dir, `realistic-server-${createHash("sha256").update(source).digest("hex").slice(0, 12)}.mjs`);
  if (!existsSync(out)) {
    const ts = createRequire(import.meta.url)("typescript") as typeof import("typescript");
    const { outputText } = ts.transpileModule(source, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } });
    mkdirSync(dir, { recursive: true });
    const tmp = `${out}.${String(process.pid)}.tmp`;
    writeFileSync(tmp, outputText);
    renameSync(tmp, out);
  }
  return out;
}

export type Upstreams = {
  /** realisticTools(max): every phase serves a prefix of it. */
  all: SearchableTool[];
  /** Registers or re-launches the servers so that exactly realisticTools(n) is served; answers the seconds it took. */
  serve(n: number): Promise<{ servers: number; started: number; seconds: number }>;
};

export function realisticUpstreams(bg: Pick<BenchGateway, "gateway" | "admin">, dir: string, max: number): Upstreams {
  const fixture = compiledFixture();
  const all = realisticTools(max);
  const file = path.join(dir, "realistic-tools.json");
  writeFileSync(file, JSON.stringify(all));
  /** Tools each registered server serves now. */
  const served = new Map<string, number>();
  const registry = bg.gateway.registry;

  async function one(slug: string, n: number, share: number): Promise<boolean> {
    const env = { BENCH_TOOLS_FILE: file, BENCH_TOOL_COUNT: String(n), BENCH_SERVER: slug };
    const known = served.get(slug);
    if (known === share) return false;
    if (known === undefined) {
      await registry.register(bg.admin, {
        slug,
        name: `Realistic ${slug}`,
        transport: "stdio",
        command: process.execPath,
        args: [fixture],
        env,
        cwd: REPO_ROOT,
        isolation: { profile: "none" },
      });
    } else {
      await registry.update(bg.admin, slug, { env }); // a new launch config: re-launched, its tools synced again
    }
    served.set(slug, share);
    return true;
  }

  return {
    all,
    async serve(n) {
      const started = performance.now();
      const prefix = all.slice(0, n);
      const check = realisticTools(n);
      if (check.length !== prefix.length || check.some((t, i) => t.name !== prefix[i]!.name)) throw new Error(`realisticTools(${String(n)}) is not a prefix of realisticTools(${String(max)})`);
      const shares = new Map<string, number>();
      for (const t of prefix) shares.set(t.server, (shares.get(t.server) ?? 0) + 1);
      const extra = [...served.keys()].filter((s) => !shares.has(s));
      if (extra.length) throw new Error(`phases must grow: ${extra.join(", ")} would have to go`);
      // A few at a time: each is a node process start plus a sync of its definitions.
      const queue = [...shares.entries()];
      let launched = 0;
      const worker = async () => {
        for (let next = queue.shift(); next; next = queue.shift()) if (await one(next[0], n, next[1])) launched++;
      };
      await Promise.all(Array.from({ length: 4 }, worker));
      return { servers: shares.size, started: launched, seconds: (performance.now() - started) / 1000 };
    },
  };
}
