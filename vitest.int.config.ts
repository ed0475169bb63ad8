// Integration tests: real PostgreSQL (embedded, started once per run by server/test/global-setup.ts and
// migrated once), real processes and transports. Files run one at a time so TRUNCATE between them is safe, in
// one process that keeps its loaded modules (isolate: false): loading the gateway's modules afresh for every
// file cost about a minute of the run. What is the process's own (metrics counters) is compared as a difference.
// Two workers, each on a copy of the migrated database, were measured on 2 cores (2026-12-03): the files start
// processes of their own (gateways, PostgreSQL, upstreams) and slowed each other to more than their sum (80 of 130
// files in 17 minutes, against 21 for all of them one at a time), and two tests failed on their time limits.
import path from "node:path";
import { defineConfig } from "vitest/config";

/**
 * Integration files that start `portcullis start` or the CLI as processes of their own and spend most of their
 * time waiting on them (as many of those as even out the two lanes, not all). `npm test` (scripts/test.mjs) runs
 * them as a step of their own (INT_FILES=processes), in the lane beside the rest of the integration files
 * (INT_FILES=others), so both lanes end at about the same time; each run starts a PostgreSQL of its own
 * (server/test/global-setup.ts), so the two never share a database. Without INT_FILES every file runs.
 */
export const PROCESS_FILES = [
  "scripts/cli.int.test.ts",
  "scripts/graceful-stop.int.test.ts",
  "scripts/start.int.test.ts",
  "scripts/start-ctrl-c.int.test.ts",
  "scripts/oauth-server.int.test.ts",
  "scripts/start-mcp-fastpath.int.test.ts",
  "scripts/hostile-http.int.test.ts",
  "scripts/database-budget.int.test.ts",
  // The REST API over a `portcullis start` of their own: moved here when the browser tests got cheaper (D182); two
  // others (auth, tasks: about 55 s) went back when this lane ended 30–90 s after the other (runs of 2026-12-06).
  "app/api/v1/api.int.test.ts",
  // Not `portcullis start`, but the same kind of wait: the conformance suite's processes, eight at a time, and
  // npm installs under bubblewrap.
  "scripts/conformance-upstream-client.int.test.ts",
  "server/packages/package-servers.int.test.ts",
];
const ALL = ["{server,lib,app,scripts}/**/*.int.test.ts"];
const part = process.env.INT_FILES;
if (part !== undefined && part !== "processes" && part !== "others") throw new Error(`INT_FILES must be "processes" or "others", not ${JSON.stringify(part)}`);

export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname) } },
  test: {
    include: part === "processes" ? PROCESS_FILES : ALL,
    exclude: ["node_modules/**", ".next/**", ...(part === "others" ? PROCESS_FILES : [])],
    environment: "node",
    globalSetup: ["server/test/global-setup.ts"],
    fileParallelism: false,
    isolate: false,
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
