#!/usr/bin/env node
// `npm run fuzz`: the property-based and fuzz tests with many runs (FUZZ_RUNS, default 2000; FUZZ_SEED picks
// another seed, default 17). CI runs the same tests with a few seeded runs each. The integration files need a
// Next.js build (`npm run build`) for the `portcullis start` part.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const vitest = path.join(root, "node_modules", ".bin", "vitest");
const env = { ...process.env, FUZZ_RUNS: process.env.FUZZ_RUNS ?? "2000" };
const suites = [
  ["vitest.config.ts", "server/audit/redaction.property.test.ts", "server/policy/policy-rules.property.test.ts"],
  ["vitest.int.config.ts", "server/mcp/hostile-input.int.test.ts", "scripts/hostile-http.int.test.ts"],
];
for (const [config, ...files] of suites) {
  const res = spawnSync(vitest, ["run", "--config", config, "--testTimeout", String(60 * 60_000), ...files], {
    cwd: root,
    env,
    stdio: "inherit",
  });
  if (res.status !== 0) process.exit(res.status ?? 1);
}
