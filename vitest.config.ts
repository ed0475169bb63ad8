// Unit tests: pure, fast, colocated `*.test.ts` (integration tests are `*.int.test.ts`, see vitest.int.config.ts).
// Files share their worker's loaded modules (isolate: false): loading them afresh for each of ~180 files took
// about 100 s of a 105 s run on 2 cores, against about 35 s shared (2026-12-05). A file that replaces modules
// with vi.mock runs isolated, in a project of its own; files that fake timers or swap process-wide state restore
// them after each test, as a shared module graph needs.
import path from "node:path";
import { defineConfig } from "vitest/config";

const ISOLATED = ["app/api/route-contract.test.ts"];

export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname) } },
  test: {
    environment: "node",
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["{server,lib,app,scripts,components,bench}/**/*.test.{ts,tsx}"],
          exclude: ["**/*.int.test.ts", "node_modules/**", ".next/**", ...ISOLATED],
          isolate: false,
        },
      },
      { extends: true, test: { name: "unit-isolated", include: ISOLATED } },
    ],
  },
});
