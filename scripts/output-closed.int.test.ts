// `portcullis start` whose output nobody reads any more (`portcullis start | head`, a supervisor or log shipper
// that died): every write to the closed pipe fails with EPIPE. It must stop as on SIGTERM and leave nothing
// running. It used to loop instead: the failed write was an uncaught exception, which Next.js logs to the same
// stream, and the loop kept the process busy (45 % of a core each, three orphaned test replicas for an hour) and
// deaf to SIGTERM.
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { freePort } from "../server/db/embedded";
import { childEnv } from "./test-support/child-env";
import { findProcesses, processTree } from "./test-support/find-processes";
import { CLI_PATH, REPO_ROOT } from "./test-support/run-cli";
import { makeTempDir, removeTempDirs } from "./test-support/temp-dir";

const PROBE = path.join(REPO_ROOT, "server/test/fixtures/console-probe.mjs");
let child: ChildProcess | undefined;

afterAll(async () => {
  // After a failure: nothing of this test may outlive it.
  for (const pid of child?.pid ? processTree(child.pid) : []) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      /* gone meanwhile */
    }
  }
  await removeTempDirs();
});

describe("portcullis start, its output's pipe closed", () => {
  it("stops as on SIGTERM once a write fails (exit 0), its PostgreSQL with it", async () => {
    const dataDir = await makeTempDir("output-closed");
    const port = await freePort();
    const started = spawn(process.execPath, ["--import", PROBE, CLI_PATH, "start", "--no-build"], {
      cwd: REPO_ROOT,
      env: childEnv({ DATA_DIR: dataDir, HOST: "127.0.0.1", PORT: String(port) }),
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    child = started;
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => started.once("exit", (code, signal) => resolve({ code, signal })));
    let output = "";
    await new Promise<void>((resolve, reject) => {
      started.stdout.setEncoding("utf8").on("data", (s: string) => {
        output += s;
        if (output.includes('"msg":"Portcullis is ready"')) resolve();
      });
      started.stderr.setEncoding("utf8").on("data", (s: string) => (output += s));
      void exited.then((e) => reject(new Error(`exited before it was ready (${JSON.stringify(e)}):\n${output.slice(-3000)}`)));
    });
    // The reader goes away; then something writes through the console.
    started.stdout.destroy();
    started.stderr.destroy();
    process.kill(started.pid!, "SIGUSR2");
    expect(await exited).toEqual({ code: 0, signal: null });
    expect(findProcesses(dataDir)).toEqual([]);
  });
});
