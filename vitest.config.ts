// Unit tests: pure, fast, colocated `*.test.ts` (integration tests are `*.int.test.ts`, see vitest.int.config.ts).
import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname) } },
  test: {
    include: ["{server,lib,app,scripts,components,bench}/**/*.test.{ts,tsx}"],
    exclude: ["**/*.int.test.ts", "node_modules/**", ".next/**"],
    environment: "node",
  },
});
