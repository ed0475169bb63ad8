// A stand-in for a second Portcullis process in embedded-postgres tests: owns DATA_DIR (argv[2]) until
// SIGTERM (clean stop) or SIGKILL (which leaves its PostgreSQL orphaned, as a crash would).
import { releaseEmbeddedSignalHooks, startEmbeddedPostgres } from "../db/embedded";
import { createLogger } from "../logger";

const dataDir = process.argv[2];
if (!dataDir) throw new Error("usage: hold-embedded-postgres.ts <dataDir>");
const db = await startEmbeddedPostgres({ dataDir, logger: createLogger("silent") });
// As `portcullis start` does: this process orders its own stop.
releaseEmbeddedSignalHooks();
process.on("SIGTERM", () => {
  void db.stop().then(() => process.exit(0));
});
console.log(`READY ${JSON.stringify({ pid: process.pid, url: db.url })}`);
setInterval(() => undefined, 60_000);
