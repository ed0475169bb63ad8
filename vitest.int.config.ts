// Integration tests: real PostgreSQL (embedded, started once per run by server/test/global-setup.ts and
// migrated once), real processes and transports. Files run one at a time so TRUNCATE between them is safe, in
// one process that keeps its loaded modules (isolate: false): loading the gateway's modules afresh for every
// file cost about a minute of the run. What is the process's own (metrics counters) is compared as a difference.
// Two workers, each on a copy of the migrated database, were measured on 2 cores (2026-12-03): the files start
// processes of their own (gateways, PostgreSQL, upstreams) and slowed each other to more than their sum (80 of 130
// files in 17 minutes, against 21 for all of them one at a time), and two tests failed on their time limits.
import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname) } },
  test: {
    include: ["{server,lib,app,scripts}/**/*.int.test.ts"],
    exclude: ["node_modules/**", ".next/**"],
    environment: "node",
    globalSetup: ["server/test/global-setup.ts"],
    fileParallelism: false,
    isolate: false,
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
