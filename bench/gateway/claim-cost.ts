// The dedupe claim alone, measured as CPU: `calls` claims and drops of distinct calls (as on the hot path: each
// claim, then its drop after the answer, not waited for) through createCallClaims, `c` at a time, against a
// throwaway embedded PostgreSQL with the migrations applied. Reports CPU milliseconds per call of this process and
// of PostgreSQL's process tree: CPU time, unlike latency, barely moves with the load of a shared machine.
//
//   npx tsx bench/gateway/claim-cost.ts        (BENCH_CLAIMS=6000, BENCH_CLAIM_C=32, BENCH_ROUNDS=3)
import { readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { createCallClaims, type ClaimRow } from "../../server/tasks/call-claims";
import { startBenchDatabase } from "./bench-database";
import { cpuMs, ownCpuMs, processTree } from "./proc-stats";

const calls = Number(process.env.BENCH_CLAIMS ?? 6000);
const c = Number(process.env.BENCH_CLAIM_C ?? 32);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const bench = await startBenchDatabase("claim-cost");
try {
  const postmaster = Number(readFileSync(path.join(bench.dataDir, "pg", "postmaster.pid"), "utf8").split("\n")[0]);
  const claims = createCallClaims(bench.url);
  let n = 0;
  const row = (): ClaimRow => {
    const text = `call-${String(++n)}`.padEnd(64, "x");
    return { ownerId: bench.userId, agentSessionId: bench.agentSessionId, toolId: null, toolName: "bench__echo", arguments: { text }, argumentsHash: text, retryable: false, maxAttempts: 1, requestId: `r-${String(n)}`, endpoint: "mcp", runnerId: "bench" };
  };
  const run = async (count: number) => {
    let left = count;
    const drops: Promise<boolean>[] = [];
    await Promise.all(Array.from({ length: c }, async () => {
      while (left-- > 0) {
        const t = await claims.claim(row(), 30_000);
        if (!t) throw new Error("a distinct call was not claimed");
        // As on the hot path, the drop is not waited for (settleClaim runs after the answer); the round waits for all.
        drops.push(claims.drop(t));
      }
    }));
    if (!(await Promise.all(drops)).every(Boolean)) throw new Error("a claim was not dropped");
  };
  await run(1000); // warm-up: JIT, pool, plans
  for (let r = 0; r < rounds; r++) {
    const tree = processTree(postmaster);
    const [own0, pg0, t0] = [ownCpuMs(), cpuMs(tree), performance.now()];
    await run(calls);
    const [own1, pg1, t1] = [ownCpuMs(), cpuMs(tree), performance.now()];
    console.log(`round ${String(r + 1)}: ${String(calls)} claims+drops at c=${String(c)}: this process ${((own1 - own0) / calls).toFixed(3)} ms CPU/call, PostgreSQL ${((pg1 - pg0) / calls).toFixed(3)} ms CPU/call, ${(calls / ((t1 - t0) / 1000)).toFixed(0)} calls/s; load ${os.loadavg().map((l) => l.toFixed(2)).join(" ")}`);
  }
  await claims.close();
} finally {
  await bench.stop();
}
