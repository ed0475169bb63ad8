// Starts one throwaway embedded PostgreSQL for the integration run and applies the migrations once.
// Tests read its URL with `inject("databaseUrl")` (see test-db.ts).
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { startEmbeddedPostgres } from "../db/embedded";
import { applyMigrations } from "../db/migrate";
import { createLogger } from "../logger";

declare module "vitest" {
  export interface ProvidedContext {
    databaseUrl: string;
  }
}

export default async function setup(project: TestProject) {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), "portcullis-int-"));
  const db = await startEmbeddedPostgres({ dataDir, logger: createLogger("warn") });
  await applyMigrations({ databaseUrl: db.url });
  project.provide("databaseUrl", db.url);
  return async () => {
    await db.stop();
    await rm(dataDir, { recursive: true, force: true });
  };
}
