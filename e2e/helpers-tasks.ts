// Task rows for the browser tests, written into the e2e server's own database (its embedded PostgreSQL
// publishes its URL in DATA_DIR while it runs), as the engine would leave them.
import { readFileSync } from "node:fs";
import type { Page } from "./fixtures";
import { createDb, type Db } from "@/server/db/client";
import { dataPaths } from "@/server/db/embedded";

export { seedAgentSession, seedTask } from "@/scripts/test-support/seed-task";

export function e2eDb(): Db {
  const dataDir = process.env.E2E_DATA_DIR;
  if (!dataDir) throw new Error("E2E_DATA_DIR is not set; run the browser tests through `node scripts/e2e.mjs`.");
  return createDb(readFileSync(dataPaths(dataDir).urlFile, "utf8").trim(), { max: 2 });
}

/** The signed-in user's id, from GET /api/v1/me. */
export async function myUserId(page: Page): Promise<string> {
  const res = await page.request.get("/api/v1/me");
  return ((await res.json()) as { user: { id: string } }).user.id;
}
