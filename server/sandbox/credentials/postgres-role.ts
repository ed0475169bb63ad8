// Per-task PostgreSQL credentials: mints a short-lived LOGIN role for one task (CONNECT on the database,
// USAGE + SELECT — and for write access INSERT, UPDATE, DELETE and sequences — on the configured schemas)
// and drops it when the task ends. VALID UNTIL bounds the role's life even if the drop never happens;
// sweep() removes such leftovers.
//
// Every identifier and literal in the SQL below is validated first and then quoted with pg's
// escapeIdentifier/escapeLiteral: nothing from the spec is interpolated unchecked. The password is sent to
// the server as a SCRAM-SHA-256 verifier computed here, so its plaintext never reaches the server's
// statement log.
import { createHash, createHmac, pbkdf2Sync, randomBytes } from "node:crypto";
import pg from "pg";
import type { TTaskCredentials } from "../../../lib/sandbox-schemas";
import type { Logger } from "../../logger";

export type MintedCredentials = { role: string; env: Record<string, string>; expiresAt: Date; revoke(): Promise<void> };

export type PostgresRoleProvider = {
  mint(taskKey: string, spec: TTaskCredentials): Promise<MintedCredentials>;
  /** Drops leftover `pc_task_` roles whose VALID UNTIL has passed; returns their names. */
  sweep(): Promise<string[]>;
  close(): Promise<void>;
};

export const ROLE_PREFIX = "pc_task_";
const ROLE_NAME = /^pc_task_[0-9a-f]{16}$/;
/** The same shapes lib/sandbox-schemas.ts accepts, checked again here before anything reaches SQL. */
export const PG_IDENT = /^[a-z_][a-z0-9_$]{0,62}$/;
const ENV_VAR = /^[A-Z_][A-Z0-9_]{0,63}$/;
const LIBPQ_VARS = ["PGUSER", "PGPASSWORD", "PGHOST", "PGPORT", "PGDATABASE"];
const MIN_TTL_SECONDS = 10;
const MAX_TTL_SECONDS = 86_400;
const MAX_SCHEMAS = 32;
const CONNECTION_LIMIT = 8;
const DROP_ATTEMPTS = 5;
const SCRAM_ITERATIONS = 4096;
/** Advisory lock (two int4 keys) serialising this provider's ACL changes within a database. */
const ACL_LOCK_KEY = [0x50435452, 0x0c4ed] as const;

const quoteIdent = (s: string): string => pg.escapeIdentifier(s);
const quoteLiteral = (s: string): string => pg.escapeLiteral(s);

/** Throws unless `spec` is a credentials spec this provider can turn into SQL safely. */
export function validateSpec(spec: TTaskCredentials): void {
  const bad = (what: string): never => {
    throw new Error(`postgres credentials: invalid spec: ${what}`);
  };
  if (spec.provider !== "postgres") bad(`unsupported provider ${JSON.stringify(spec.provider)}`);
  if (spec.database !== undefined && !PG_IDENT.test(spec.database))
    bad(`database ${JSON.stringify(spec.database)} is not a plain identifier`);
  if (!Array.isArray(spec.schemas) || spec.schemas.length === 0 || spec.schemas.length > MAX_SCHEMAS)
    bad(`schemas must list 1 to ${MAX_SCHEMAS} entries`);
  for (const s of spec.schemas) {
    if (typeof s.name !== "string" || !PG_IDENT.test(s.name))
      bad(`schema ${JSON.stringify(s.name)} is not a plain identifier`);
    if (s.access !== "read" && s.access !== "write") bad(`schema ${s.name}: access must be "read" or "write"`);
  }
  if (typeof spec.envVar !== "string" || !ENV_VAR.test(spec.envVar))
    bad(`envVar ${JSON.stringify(spec.envVar)} must be an upper-case variable name`);
  if (LIBPQ_VARS.includes(spec.envVar))
    bad(`envVar ${spec.envVar} would be overwritten by the libpq variable of the same name`);
  if (!Number.isInteger(spec.ttlSeconds) || spec.ttlSeconds < MIN_TTL_SECONDS || spec.ttlSeconds > MAX_TTL_SECONDS) {
    bad(`ttlSeconds must be an integer from ${MIN_TTL_SECONDS} to ${MAX_TTL_SECONDS}`);
  }
}

/** Throws unless `taskKey` is printable text of reasonable length (it only ever goes into a quoted literal). */
export function validateTaskKey(taskKey: string): void {
  const control = (ch: string) => ch.charCodeAt(0) < 0x20 || ch.charCodeAt(0) === 0x7f;
  if (typeof taskKey !== "string" || taskKey.length === 0 || taskKey.length > 200 || [...taskKey].some(control)) {
    throw new Error("postgres credentials: task key must be 1 to 200 printable characters");
  }
}

export type AdminTarget = {
  protocol: string;
  host: string;
  hostname: string;
  port: string;
  database: string;
  search: string;
};

/** Host, port, database and options of the admin connection URL (never its user or password). */
export function parseAdminUrl(adminUrl: string): AdminTarget {
  let url: URL;
  try {
    url = new URL(adminUrl);
  } catch {
    throw new Error("postgres credentials: the admin secret is not a connection URL");
  }
  if (url.protocol !== "postgres:" && url.protocol !== "postgresql:")
    throw new Error("postgres credentials: the admin secret is not a postgres:// URL");
  if (!url.hostname) throw new Error("postgres credentials: the admin URL has no host");
  const database = decodeURIComponent(url.pathname.replace(/^\//, ""));
  if (!database || database.length > 63 || database.includes("\u0000"))
    throw new Error("postgres credentials: the admin URL names no usable database");
  const params = new URLSearchParams(url.search);
  for (const key of ["user", "password", "passfile"]) params.delete(key);
  const query = params.toString();
  const search = query ? `?${query}` : "";
  return { protocol: url.protocol, host: url.host, hostname: url.hostname, port: url.port || "5432", database, search };
}

/** A connection URL for `user` on the admin's host and port, to `database`; user and password percent-encoded. */
export function buildConnectionUrl(
  target: AdminTarget,
  user: string,
  password: string,
  database = target.database,
): string {
  const enc = encodeURIComponent;
  return `${target.protocol}//${enc(user)}:${enc(password)}@${target.host}/${enc(database)}${target.search}`;
}

/** The environment a task gets: its URL under `envVar`, and the same as libpq's PG* variables. */
export function buildEnv(
  target: AdminTarget,
  envVar: string,
  role: string,
  password: string,
  database = target.database,
): Record<string, string> {
  // An IPv6 host is bracketed in URLs; libpq's PGHOST wants it bare.
  const host = target.hostname.replace(/^\[(.*)\]$/, "$1");
  return {
    [envVar]: buildConnectionUrl(target, role, password, database),
    PGUSER: role,
    PGPASSWORD: password,
    PGHOST: host,
    PGPORT: target.port,
    PGDATABASE: database,
  };
}

/** A SCRAM-SHA-256 verifier for `password` (what PostgreSQL stores; accepted by CREATE ROLE … PASSWORD). */
export function scramVerifier(password: string, salt: Buffer = randomBytes(16), iterations = SCRAM_ITERATIONS): string {
  const salted = pbkdf2Sync(password.normalize("NFKC"), salt, iterations, 32, "sha256");
  const clientKey = createHmac("sha256", salted).update("Client Key").digest();
  const storedKey = createHash("sha256").update(clientKey).digest();
  const serverKey = createHmac("sha256", salted).update("Server Key").digest();
  return `SCRAM-SHA-256$${iterations}:${salt.toString("base64")}$${storedKey.toString("base64")}:${serverKey.toString("base64")}`;
}

/** The statements of the minting transaction, in order. */
export function mintStatements(args: {
  role: string;
  passwordVerifier: string;
  expiresAt: Date;
  taskKey: string;
  database: string;
  schemas: TTaskCredentials["schemas"];
}): string[] {
  if (!ROLE_NAME.test(args.role)) throw new Error(`postgres credentials: bad role name ${JSON.stringify(args.role)}`);
  validateTaskKey(args.taskKey);
  const role = quoteIdent(args.role);
  const out = [
    `CREATE ROLE ${role} LOGIN PASSWORD ${quoteLiteral(args.passwordVerifier)} VALID UNTIL ${quoteLiteral(args.expiresAt.toISOString())} ` +
      `CONNECTION LIMIT ${CONNECTION_LIMIT} NOINHERIT NOCREATEDB NOCREATEROLE`,
    `COMMENT ON ROLE ${role} IS ${quoteLiteral(`portcullis task ${args.taskKey}`)}`,
    `GRANT CONNECT ON DATABASE ${quoteIdent(args.database)} TO ${role}`,
  ];
  for (const s of args.schemas) {
    if (!PG_IDENT.test(s.name))
      throw new Error(`postgres credentials: schema ${JSON.stringify(s.name)} is not a plain identifier`);
    const schema = quoteIdent(s.name);
    out.push(`GRANT USAGE ON SCHEMA ${schema} TO ${role}`, `GRANT SELECT ON ALL TABLES IN SCHEMA ${schema} TO ${role}`);
    if (s.access === "write") {
      out.push(
        `GRANT INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA ${schema} TO ${role}`,
        `GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA ${schema} TO ${role}`,
      );
    }
  }
  return out;
}

const message = (err: unknown): string => (err instanceof Error ? err.message : String(err));
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export function createPostgresRoleProvider(opts: { adminUrl: string; logger?: Logger }): PostgresRoleProvider {
  const target = parseAdminUrl(opts.adminUrl);
  const log = opts.logger?.child({ component: "postgres-credentials" });
  const pool = new pg.Pool({ connectionString: opts.adminUrl, max: 2, idleTimeoutMillis: 10_000 });
  let closed = false;
  // An idle client's connection dropping must not crash the process; the next query reports it. After close()
  // it is PostgreSQL's own shutdown ending a connection being closed: expected, not worth a warning.
  pool.on("error", (err) => (closed ? log?.debug({ err: message(err) }, "admin connection ended while closing") : log?.warn({ err: message(err) }, "admin connection error")));

  /** The admin URL pointed at another database on the same server. */
  const adminUrlFor = (database: string): string => {
    const url = new URL(opts.adminUrl);
    url.pathname = `/${encodeURIComponent(database)}`;
    return url.toString();
  };

  /** Runs `fn` on an admin connection to `database` (the pool for the admin's own database). */
  async function withAdmin<T>(database: string, fn: (c: pg.ClientBase) => Promise<T>): Promise<T> {
    if (closed) throw new Error("postgres credentials: the provider is closed");
    if (database === target.database) {
      const client = await pool.connect();
      try {
        const result = await fn(client);
        client.release();
        return result;
      } catch (err) {
        // A connection that saw an error (perhaps mid-transaction, perhaps terminated) is discarded, not reused.
        client.release(err instanceof Error ? err : true);
        throw err;
      }
    }
    const client = new pg.Client({ connectionString: adminUrlFor(database) });
    client.on("error", (err) => log?.warn({ err: message(err), database }, "admin connection error"));
    await client.connect();
    try {
      return await fn(client);
    } finally {
      await client.end().catch(() => undefined);
    }
  }

  /**
   * Runs `fn` in one transaction. Concurrent GRANTs/REVOKEs on the same schema or database rewrite the same
   * catalog row and fail with "tuple concurrently updated", so every such transaction first takes one
   * advisory lock (held to its end) in the database it runs in — which is where each of them changes ACLs —
   * serialising them across connections and gateway processes.
   */
  async function inTransaction(
    c: pg.ClientBase,
    fn: (run: (sql: string) => Promise<void>) => Promise<void>,
  ): Promise<void> {
    await c.query("BEGIN");
    try {
      await c.query(`SELECT pg_advisory_xact_lock(${ACL_LOCK_KEY[0]}, ${ACL_LOCK_KEY[1]})`);
      await fn(async (sql) => {
        await c.query(sql);
      });
      await c.query("COMMIT");
    } catch (err) {
      await c.query("ROLLBACK").catch(() => undefined);
      throw err;
    }
  }

  const runAll = (statements: string[]) => async (run: (sql: string) => Promise<void>) => {
    for (const sql of statements) await run(sql);
  };

  /**
   * In the connected database: revokes every privilege the role holds there (on the database itself, on
   * schemas and on their tables and sequences), then DROP OWNED BY when the admin may (a superuser, or a role
   * with the task role's privileges; a plain CREATEROLE admin on PostgreSQL 16+ may not, and the explicit
   * REVOKEs cover what the task role was ever granted).
   */
  async function revokeEverything(
    c: pg.ClientBase,
    oid: number,
    role: string,
    run: (sql: string) => Promise<void>,
  ): Promise<void> {
    const r = quoteIdent(role);
    const { rows: schemas } = await c.query<{ nspname: string }>(
      `SELECT n.nspname FROM pg_namespace n, aclexplode(n.nspacl) a WHERE a.grantee = $1
       UNION
       SELECT n.nspname FROM pg_class k JOIN pg_namespace n ON n.oid = k.relnamespace, aclexplode(k.relacl) a WHERE a.grantee = $1`,
      [oid],
    );
    for (const { nspname } of schemas) {
      const s = quoteIdent(nspname);
      await run(`REVOKE ALL ON ALL TABLES IN SCHEMA ${s} FROM ${r}`);
      await run(`REVOKE ALL ON ALL SEQUENCES IN SCHEMA ${s} FROM ${r}`);
      await run(`REVOKE ALL ON SCHEMA ${s} FROM ${r}`);
    }
    await run(`REVOKE ALL ON DATABASE ${quoteIdent(await currentDatabase(c))} FROM ${r}`);
    const { rows } = await c.query<{ may: boolean }>("SELECT pg_has_role(current_user, $1::oid, 'USAGE') AS may", [
      oid,
    ]);
    if (rows[0]?.may) await run(`DROP OWNED BY ${r}`);
  }

  async function currentDatabase(c: pg.ClientBase): Promise<string> {
    const { rows } = await c.query<{ db: string }>("SELECT current_database() AS db");
    return rows[0]?.db ?? target.database;
  }

  /** Ends the role's sessions, removes its privileges everywhere it was granted some, and drops it. */
  async function dropRoleOnce(role: string): Promise<"dropped" | "absent"> {
    const info = await withAdmin(target.database, async (c) => {
      const { rows } = await c.query<{ oid: number }>("SELECT oid FROM pg_roles WHERE rolname = $1", [role]);
      const oid = rows[0]?.oid;
      if (oid === undefined) return undefined;
      // No new sessions from here on, then end the ones that are open (waiting up to 5 s for each to exit).
      await c.query(`ALTER ROLE ${quoteIdent(role)} NOLOGIN`);
      try {
        const terminated = await c.query<{ pid: number; ok: boolean }>(
          "SELECT pid, pg_terminate_backend(pid, 5000) AS ok FROM pg_stat_activity WHERE usename = $1 AND pid <> pg_backend_pid()",
          [role],
        );
        const stuck = terminated.rows.filter((r) => !r.ok).map((r) => r.pid);
        if (stuck.length > 0) log?.warn({ role, pids: stuck }, "some sessions of the task role did not end in time");
      } catch (err) {
        // The admin lacks pg_signal_backend: open sessions lose every privilege below but stay connected.
        if ((err as { code?: string }).code !== "42501") throw err;
        log?.warn(
          { role, err: message(err) },
          "cannot terminate the task role's sessions (grant the admin pg_signal_backend)",
        );
      }
      // Other databases it was granted something on: privileges there can only be revoked from there.
      const dbs = await c.query<{ datname: string }>(
        "SELECT DISTINCT d.datname FROM pg_database d, aclexplode(d.datacl) a WHERE a.grantee = $1 AND d.datname <> current_database()",
        [oid],
      );
      return { oid, databases: dbs.rows.map((r) => r.datname) };
    });
    if (!info) return "absent";
    for (const database of info.databases) {
      await withAdmin(database, (c) => inTransaction(c, (run) => revokeEverything(c, info.oid, role, run)));
    }
    await withAdmin(target.database, (c) =>
      inTransaction(c, async (run) => {
        await revokeEverything(c, info.oid, role, run);
        await run(`DROP ROLE IF EXISTS ${quoteIdent(role)}`);
      }),
    );
    return "dropped";
  }

  async function dropRole(role: string): Promise<void> {
    if (!ROLE_NAME.test(role))
      throw new Error(`postgres credentials: refusing to drop ${JSON.stringify(role)}: not a task role`);
    let last: unknown;
    for (let attempt = 1; attempt <= DROP_ATTEMPTS; attempt++) {
      try {
        const outcome = await dropRoleOnce(role);
        log?.info({ role, outcome, attempt }, "task database role revoked");
        return;
      } catch (err) {
        last = err;
        if (closed) break;
        // Typically a backend of the role still closing, or a concurrent grant: wait and try again.
        log?.debug({ role, attempt, err: message(err) }, "dropping the task role failed; retrying");
        if (attempt < DROP_ATTEMPTS) await sleep(100 * 2 ** (attempt - 1));
      }
    }
    log?.error({ role, err: message(last) }, "could not drop the task database role");
    throw new Error(`postgres credentials: could not drop role ${role}: ${message(last)}`, { cause: last });
  }

  async function mint(taskKey: string, spec: TTaskCredentials): Promise<MintedCredentials> {
    validateTaskKey(taskKey);
    validateSpec(spec);
    const role = ROLE_PREFIX + randomBytes(8).toString("hex");
    const password = randomBytes(32).toString("base64url");
    const expiresAt = new Date(Date.now() + spec.ttlSeconds * 1000);
    const database = spec.database ?? target.database;
    const statements = mintStatements({
      role,
      passwordVerifier: scramVerifier(password),
      expiresAt,
      taskKey,
      database,
      schemas: spec.schemas,
    });
    try {
      // The schema grants apply to the database the statements run in: the one the task connects to.
      await withAdmin(database, (c) => inTransaction(c, runAll(statements)));
    } catch (err) {
      log?.error({ taskKey, role, err: message(err) }, "could not mint a task database role");
      throw new Error(`postgres credentials: could not create a role for task ${taskKey}: ${message(err)}`, {
        cause: err,
      });
    }
    log?.info(
      { taskKey, role, expiresAt: expiresAt.toISOString(), schemas: spec.schemas },
      "task database role minted",
    );

    let revoking: Promise<void> | undefined;
    const revoke = (): Promise<void> => {
      // Idempotent: concurrent and repeated calls share one successful drop; a failed one may be retried.
      revoking ??= dropRole(role).catch((err: unknown) => {
        revoking = undefined;
        throw err;
      });
      return revoking;
    };
    return { role, env: buildEnv(target, spec.envVar, role, password, database), expiresAt, revoke };
  }

  async function sweep(): Promise<string[]> {
    const expired = await withAdmin(target.database, async (c) => {
      const { rows } = await c.query<{ rolname: string }>(
        "SELECT rolname FROM pg_roles WHERE rolname LIKE 'pc\\_task\\_%' AND rolvaliduntil < now() ORDER BY rolname",
      );
      return rows.map((r) => r.rolname).filter((name) => ROLE_NAME.test(name));
    });
    const dropped: string[] = [];
    for (const role of expired) {
      try {
        await dropRole(role);
        dropped.push(role);
      } catch {
        // Logged by dropRole; the next sweep tries again.
      }
    }
    if (dropped.length > 0) log?.info({ roles: dropped }, "swept expired task database roles");
    return dropped;
  }

  async function close(): Promise<void> {
    if (closed) return;
    closed = true;
    await pool.end();
  }

  return { mint, sweep, close };
}
