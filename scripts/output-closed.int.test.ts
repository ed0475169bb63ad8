// `portcullis start` whose output nobody reads any more (`portcullis start | head`, a supervisor or log shipper
// that died): every write to the closed pipe fails with EPIPE. It must stop as on SIGTERM and leave nothing
// running. It used to loop instead: the failed write was an uncaught exception, which Next.js logs to the same
// stream, and the loop kept the process busy (45 % of a core each, three orphaned test replicas for an hour) and
// deaf to SIGTERM.
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { findProcesses } from "./test-support/find-processes";
import { REPO_ROOT } from "./test-support/run-cli";
import { startApp, stopAllApps } from "./test-support/start-app";
import { makeTempDir, removeTempDirs } from "./test-support/temp-dir";

const PROBE = path.join(REPO_ROOT, "server/test/fixtures/console-probe.mjs");

afterAll(async () => {
  // After a failure: nothing of this test may outlive it.
  await stopAllApps();
  await removeTempDirs();
});

describe("portcullis start, its output's pipe closed", () => {
  it("stops as on SIGTERM once a write fails (exit 0), its PostgreSQL with it", async () => {
    const dataDir = await makeTempDir("output-closed");
    const app = await startApp({ nodeArgs: ["--import", PROBE], env: { DATA_DIR: dataDir } });
    // The reader goes away; then something writes through the console.
    app.closeOutput();
    process.kill(app.pid, "SIGUSR2");
    expect(await app.exited).toEqual({ code: 0, signal: null });
    expect(findProcesses(dataDir)).toEqual([]);
  });
});
