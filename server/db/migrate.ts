// Applies prisma/migrations with Prisma's WebAssembly schema engine (what `prisma migrate deploy` does),
// and computes schema diffs for new migrations. See shared recipe prisma-migrations.md.
import { once } from "node:events";
import { readFile, readdir } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { bindMigrationAwareSqlAdapterFactory } from "@prisma/driver-adapter-utils";
import { underSessionLock } from "./session-lock";

type Engine = {
  free(): void;
  applyMigrations(input: unknown): Promise<{ appliedMigrationNames: string[] }>;
  diff(input: unknown): Promise<{ exitCode: number; stdout: string }>;
};

const filters = { externalTables: [], externalEnums: [] };

async function loadEngineModule() {
  const require = createRequire(import.meta.url);
  const bgPath = require.resolve("@prisma/schema-engine-wasm/schema_engine_bg");
  const bg = (await import("@prisma/schema-engine-wasm/schema_engine_bg")) as Record<string, unknown> & {
    __wbg_set_wasm(exports: WebAssembly.Exports): void;
    SchemaEngine: { new: (opts: unknown, log: (msg: string) => void, adapter: unknown) => Promise<Engine> };
  };
  const wasmBytes = await readFile(path.join(path.dirname(bgPath), "schema_engine_bg.wasm"));
  // The engine arms timers (e.g. a 10 s advisory-lock timeout) that nothing cancels; unref them so a finished
  // migration does not keep a CLI command alive for ten seconds.
  const imports: Record<string, unknown> = { ...bg };
  for (const name of Object.keys(bg).filter((k) => k.startsWith("__wbg_setTimeout_"))) {
    imports[name] = (fn: () => void, ms: number) => setTimeout(fn, ms >>> 0).unref();
  }
  const { instance } = await WebAssembly.instantiate(wasmBytes, { "./schema_engine_bg.js": imports as WebAssembly.ModuleImports });
  bg.__wbg_set_wasm(instance.exports);
  const start = instance.exports.__wbindgen_start;
  if (typeof start === "function") (start as () => void)();
  return bg;
}

let enginePromise: ReturnType<typeof loadEngineModule> | undefined;
let engineStarts = 0;

/** How many times this process has started the schema engine (tests: a database already current never starts it). */
export function schemaEngineStarts(): number {
  return engineStarts;
}

async function withEngine<T>(databaseUrl: string, schemaPath: string, fn: (engine: Engine) => Promise<T>): Promise<T> {
  enginePromise ??= loadEngineModule();
  const bg = await enginePromise;
  const schemaText = await readFile(schemaPath, "utf8");
  // Our own pool, so that every connection (and with it Prisma's migration advisory lock) is released
  // when we return; otherwise the next migrate on this database waits for the lock.
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
  // pool.end() resolves once its clients are told to end, before their sessions close (pg-pool does not wait
  // for client.end()); the lock is gone only when the session is, so wait for each client's own end.
  const sessionsClosed: Promise<unknown>[] = [];
  pool.on("connect", (client) => sessionsClosed.push(once(client, "end")));
  const adapter = bindMigrationAwareSqlAdapterFactory(new PrismaPg(pool));
  const logs: string[] = [];
  try {
    engineStarts++;
    const engine = await bg.SchemaEngine.new({ datamodels: [[schemaPath, schemaText]] }, (m: string) => logs.push(m), adapter);
    try {
      return await fn(engine);
    } finally {
      engine.free();
    }
  } catch (err) {
    throw new Error(`schema engine failed: ${describe(err)}${logs.length ? `\n${logs.slice(-5).join("\n")}` : ""}`, { cause: err });
  } finally {
    await pool.end();
    await Promise.all(sessionsClosed);
  }
}

function describe(err: unknown): string {
  if (err instanceof Error) return err.message;
  if (typeof err === "object" && err && "message" in err) return String(err.message);
  return String(err);
}

export type MigrateOptions = { databaseUrl: string; prismaDir?: string };

/** The database holds migrations this release does not know: a newer release migrated it. */
export class SchemaAheadError extends Error {
  readonly code = "schema_ahead";
  constructor(readonly unknown: string[]) {
    super(
      `The database schema is newer than this release: it has ${String(unknown.length)} migration(s) this release does not know (${unknown.slice(0, 3).join(", ")}${unknown.length > 3 ? ", …" : ""}). Run the release that applied them, or a newer one.`,
    );
    this.name = "SchemaAheadError";
  }
}

// "pcmg": replicas starting together migrate one at a time; the others wait, then find nothing left to apply.
export const MIGRATION_LOCK_CLASS = 0x70636d67;

/**
 * Applies every migration not yet recorded in `_prisma_migrations`; returns the names applied now. Replicas that
 * start at the same moment take turns under a session advisory lock (Prisma's own lock gives up after 10 s), and
 * a database that a newer release has migrated is refused (SchemaAheadError): serving it with older code could
 * write what the newer schema forbids. A database that has every migration finished and none failed is left as it
 * is without starting the schema engine (what `prisma migrate deploy` would conclude: nothing to apply): loading
 * it cost each start and each CLI command about 0.45 s of CPU (D183).
 */
export async function applyMigrations({ databaseUrl, prismaDir = defaultPrismaDir() }: MigrateOptions): Promise<string[]> {
  const migrationsDir = path.join(prismaDir, "migrations");
  const names = (await readdir(migrationsDir, { withFileTypes: true }))
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort();
  return underSessionLock(databaseUrl, MIGRATION_LOCK_CLASS, "portcullis migrate", async (lock) => {
    const recorded = await recordedMigrations(lock);
    const knownSet = new Set(names);
    const ahead = [...recorded.finished].filter((n) => !knownSet.has(n)).sort();
    if (ahead.length) throw new SchemaAheadError(ahead);
    // A failed or unfinished one is the engine's to report (P3009), never skipped.
    if (!recorded.failed && names.every((n) => recorded.finished.has(n))) return [];
    return applyUnderLock(databaseUrl, prismaDir, migrationsDir, names);
  });
}

/**
 * The migrations `_prisma_migrations` records as finished (and not rolled back), and whether one is recorded as started
 * and neither finished nor rolled back (failed, or cut off). None on a fresh database.
 */
async function recordedMigrations(client: pg.Client): Promise<{ finished: Set<string>; failed: boolean }> {
  const { rows } = await client.query<{ exists: boolean }>("SELECT to_regclass('_prisma_migrations') IS NOT NULL AS exists");
  if (!rows[0]?.exists) return { finished: new Set(), failed: false };
  const recorded = await client.query<{ migration_name: string; finished: boolean; rolled_back: boolean }>(
    "SELECT migration_name, finished_at IS NOT NULL AS finished, rolled_back_at IS NOT NULL AS rolled_back FROM _prisma_migrations",
  );
  return {
    finished: new Set(recorded.rows.filter((r) => r.finished && !r.rolled_back).map((r) => r.migration_name)),
    failed: recorded.rows.some((r) => !r.finished && !r.rolled_back),
  };
}

async function applyUnderLock(databaseUrl: string, prismaDir: string, migrationsDir: string, names: string[]): Promise<string[]> {
  const migrationDirectories = await Promise.all(
    names.map(async (name) => ({
      path: name,
      migrationFile: {
        path: "migration.sql",
        content: { tag: "ok", value: await readFile(path.join(migrationsDir, name, "migration.sql"), "utf8") },
      },
    })),
  );
  const lockPath = path.join(migrationsDir, "migration_lock.toml");
  const lockContent = await readFile(lockPath, "utf8").catch(() => 'provider = "postgresql"\n');
  return withEngine(databaseUrl, path.join(prismaDir, "schema.prisma"), async (engine) => {
    const out = await engine.applyMigrations({
      migrationsList: {
        baseDir: migrationsDir,
        lockfile: { path: "migration_lock.toml", content: lockContent },
        shadowDbInitScript: "",
        migrationDirectories,
      },
      filters,
    });
    return out.appliedMigrationNames;
  });
}

/** SQL that turns the database described by `fromSchema` (or an empty one) into `toSchema`. */
export async function diffSchemas(opts: {
  databaseUrl: string;
  fromSchema: { path: string; content: string } | null;
  toSchema: { path: string; content: string };
}): Promise<string> {
  return withEngine(opts.databaseUrl, opts.toSchema.path, async (engine) => {
    const out = await engine.diff({
      from: opts.fromSchema ? { tag: "schemaDatamodel", files: [opts.fromSchema] } : { tag: "empty" },
      to: { tag: "schemaDatamodel", files: [opts.toSchema] },
      script: true,
      exitCode: null,
      filters,
    });
    return out.stdout;
  });
}

/** The repository's prisma/ folder, wherever the command is run from. */
export function defaultPrismaDir(): string {
  return fileURLToPath(new URL("../../prisma", import.meta.url));
}
