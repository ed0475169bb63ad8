// Per-task PostgreSQL roles against the run's real PostgreSQL: what a minted role can and cannot touch,
// that revoke() really removes it (sessions included), parallel mints, and the sweep of expired roles.
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TTaskCredentials } from "../../../lib/sandbox-schemas";
import { createLogger } from "../../logger";
import { testDatabaseUrl } from "../../test/test-db";
import { createPostgresRoleProvider, type MintedCredentials } from "./postgres-role";

const RO = "pc_ro_test";
const OTHER = "pc_other";
const OTHER_DB = "pc_cred_other_db";

const spec = (schemas: TTaskCredentials["schemas"], over: Partial<TTaskCredentials> = {}): TTaskCredentials => ({
  provider: "postgres",
  adminSecret: "PG_ADMIN",
  schemas,
  envVar: "DATABASE_URL",
  ttlSeconds: 600,
  ...over,
});

/** The pg error code of a rejected promise (undefined when it did not fail with one). */
async function errorCode(p: Promise<unknown>): Promise<string | undefined> {
  try {
    await p;
  } catch (err) {
    return (err as { code?: string }).code ?? "no-code";
  }
  return undefined;
}

describe("postgres per-task roles", () => {
  const adminUrl = testDatabaseUrl();
  const admin = new pg.Client({ connectionString: adminUrl });
  const provider = createPostgresRoleProvider({ adminUrl, logger: createLogger("silent") });
  const clients: pg.Client[] = [];
  const minted: MintedCredentials[] = [];

  const mint = async (key: string, s: TTaskCredentials) => {
    const m = await provider.mint(key, s);
    minted.push(m);
    return m;
  };

  async function connect(url: string): Promise<pg.Client> {
    const c = new pg.Client({ connectionString: url });
    c.on("error", () => undefined); // terminated sessions report here; the test asserts on the queries
    clients.push(c);
    await c.connect();
    return c;
  }

  const roleExists = async (role: string) =>
    (await admin.query("SELECT 1 FROM pg_roles WHERE rolname = $1", [role])).rowCount === 1;

  beforeAll(async () => {
    await admin.connect();
    await admin.query(`DROP SCHEMA IF EXISTS ${RO} CASCADE`);
    await admin.query(`DROP SCHEMA IF EXISTS ${OTHER} CASCADE`);
    await admin.query(`CREATE SCHEMA ${RO}`);
    await admin.query(`CREATE SCHEMA ${OTHER}`);
    await admin.query(`CREATE TABLE ${RO}.items (id serial PRIMARY KEY, name text NOT NULL)`);
    await admin.query(`CREATE TABLE ${OTHER}.secrets (id int PRIMARY KEY, value text)`);
    await admin.query(`INSERT INTO ${RO}.items (name) VALUES ('apple'), ('pear')`);
    await admin.query(`INSERT INTO ${OTHER}.secrets VALUES (1, 'hidden')`);
  });

  afterAll(async () => {
    await Promise.allSettled(clients.map((c) => c.end()));
    await Promise.allSettled(minted.map((m) => m.revoke()));
    await provider.close();
    await admin.query(`DROP SCHEMA IF EXISTS ${RO} CASCADE`);
    await admin.query(`DROP SCHEMA IF EXISTS ${OTHER} CASCADE`);
    await admin.query(`DROP DATABASE IF EXISTS ${OTHER_DB} WITH (FORCE)`);
    await admin.end();
  });

  it("read access: SELECT on its schema only; no writes; the role is a bounded, commented login role", async () => {
    const m = await mint("task-read", spec([{ name: RO, access: "read" }]));
    expect(m.role).toMatch(/^pc_task_[0-9a-f]{16}$/);
    const url = new URL(adminUrl);
    expect(m.env).toMatchObject({
      PGUSER: m.role,
      PGHOST: url.hostname,
      PGPORT: url.port,
      PGDATABASE: url.pathname.slice(1),
    });
    expect(m.env.PGPASSWORD).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Object.keys(m.env).sort()).toEqual([
      "DATABASE_URL",
      "PGDATABASE",
      "PGHOST",
      "PGPASSWORD",
      "PGPORT",
      "PGUSER",
    ]);
    expect(m.expiresAt.getTime()).toBeGreaterThan(Date.now() + 590_000);

    const { rows } = await admin.query<{
      rolcanlogin: boolean;
      rolconnlimit: number;
      rolinherit: boolean;
      rolcreatedb: boolean;
      rolcreaterole: boolean;
      rolvaliduntil: Date;
      comment: string;
    }>(
      `SELECT rolcanlogin, rolconnlimit, rolinherit, rolcreatedb, rolcreaterole, rolvaliduntil, shobj_description(oid, 'pg_authid') AS comment
         FROM pg_roles WHERE rolname = $1`,
      [m.role],
    );
    expect(rows[0]).toMatchObject({
      rolcanlogin: true,
      rolconnlimit: 8,
      rolinherit: false,
      rolcreatedb: false,
      rolcreaterole: false,
      comment: "portcullis task task-read",
    });
    expect(Math.abs(rows[0]!.rolvaliduntil.getTime() - m.expiresAt.getTime())).toBeLessThan(1000);

    const c = await connect(m.env.DATABASE_URL!);
    const sel = await c.query<{ name: string }>(`SELECT name FROM ${RO}.items ORDER BY id`);
    expect(sel.rows.map((r) => r.name)).toEqual(["apple", "pear"]);
    expect(await errorCode(c.query(`INSERT INTO ${RO}.items (name) VALUES ('nope')`))).toBe("42501");
    expect(await errorCode(c.query(`UPDATE ${RO}.items SET name = 'x'`))).toBe("42501");
    expect(await errorCode(c.query(`SELECT * FROM ${OTHER}.secrets`))).toBe("42501");
    expect(await errorCode(c.query(`CREATE TABLE ${RO}.mine (id int)`))).toBe("42501");
  });

  it("the PG* variables alone are enough to connect", async () => {
    const m = await mint("task-libpq", spec([{ name: RO, access: "read" }]));
    const c = new pg.Client({
      user: m.env.PGUSER,
      password: m.env.PGPASSWORD,
      host: m.env.PGHOST,
      port: Number(m.env.PGPORT),
      database: m.env.PGDATABASE,
    });
    clients.push(c);
    await c.connect();
    expect((await c.query("SELECT current_user AS u")).rows).toEqual([{ u: m.role }]);
  });

  it("write access: INSERT (with the serial's sequence), UPDATE and DELETE work; other schemas stay closed", async () => {
    const m = await mint("task-write", spec([{ name: RO, access: "write" }], { envVar: "WAREHOUSE_URL" }));
    expect(m.env.DATABASE_URL).toBeUndefined();
    const c = await connect(m.env.WAREHOUSE_URL!);
    const ins = await c.query<{ id: number }>(`INSERT INTO ${RO}.items (name) VALUES ('plum') RETURNING id`);
    expect(ins.rows[0]!.id).toBeGreaterThan(2);
    await c.query(`UPDATE ${RO}.items SET name = 'prune' WHERE id = $1`, [ins.rows[0]!.id]);
    await c.query(`DELETE FROM ${RO}.items WHERE id = $1`, [ins.rows[0]!.id]);
    expect(await errorCode(c.query(`INSERT INTO ${OTHER}.secrets VALUES (2, 'x')`))).toBe("42501");
  });

  it("revoke(): the role is gone, open sessions are terminated, new logins fail; revoking again is a no-op", async () => {
    const m = await mint("task-revoke", spec([{ name: RO, access: "read" }]));
    const before = await connect(m.env.DATABASE_URL!);
    await before.query("SELECT 1");
    await Promise.all([m.revoke(), m.revoke()]);
    expect(await roleExists(m.role)).toBe(false);
    await expect(before.query("SELECT 1")).rejects.toThrow();
    const code = await errorCode(connect(m.env.DATABASE_URL!));
    expect(["28P01", "28000"]).toContain(code);
    await m.revoke();
    // Nothing of it is left in the catalogs.
    const acl = await admin.query(
      `SELECT 1 FROM pg_namespace WHERE nspname = $1 AND nspacl::text LIKE '%' || $2 || '%'`,
      [RO, m.role],
    );
    expect(acl.rowCount).toBe(0);
  });

  it("a failed mint (unknown schema) leaves no role behind", async () => {
    const before = await admin.query("SELECT count(*)::int AS n FROM pg_roles WHERE rolname LIKE 'pc\\_task\\_%'");
    await expect(provider.mint("task-bad", spec([{ name: "pc_no_such_schema", access: "read" }]))).rejects.toThrow(
      /could not create a role for task task-bad/,
    );
    const after = await admin.query("SELECT count(*)::int AS n FROM pg_roles WHERE rolname LIKE 'pc\\_task\\_%'");
    expect(after.rows[0]).toEqual(before.rows[0]);
  });

  it("10 parallel mints give 10 distinct working roles, all gone after revoke", async () => {
    const all = await Promise.all(
      Array.from({ length: 10 }, (_, i) => mint(`task-par-${i}`, spec([{ name: RO, access: "read" }]))),
    );
    expect(new Set(all.map((m) => m.role)).size).toBe(10);
    expect(new Set(all.map((m) => m.env.PGPASSWORD)).size).toBe(10);
    const users = await Promise.all(
      all.map(async (m) => {
        const c = await connect(m.env.DATABASE_URL!);
        const { rows } = await c.query<{ u: string; n: number }>(
          `SELECT current_user AS u, count(*)::int AS n FROM ${RO}.items`,
        );
        return rows[0]!;
      }),
    );
    expect(users.map((r) => r.u).sort()).toEqual(all.map((m) => m.role).sort());
    await Promise.all(all.map((m) => m.revoke()));
    const left = await admin.query("SELECT rolname FROM pg_roles WHERE rolname = ANY($1)", [all.map((m) => m.role)]);
    expect(left.rows).toEqual([]);
  });

  it("sweep() drops expired task roles and leaves unexpired ones", async () => {
    const expired = await mint("task-expired", spec([{ name: RO, access: "write" }], { ttlSeconds: 10 }));
    const live = await mint("task-live", spec([{ name: RO, access: "read" }]));
    const c = await connect(expired.env.DATABASE_URL!);
    await c.query("SELECT 1");
    await admin.query(`ALTER ROLE ${pg.escapeIdentifier(expired.role)} VALID UNTIL '2000-01-01T00:00:00Z'`);
    const swept = await provider.sweep();
    expect(swept).toContain(expired.role);
    expect(swept).not.toContain(live.role);
    expect(await roleExists(expired.role)).toBe(false);
    expect(await roleExists(live.role)).toBe(true);
    await expect(c.query("SELECT 1")).rejects.toThrow();
    await expired.revoke(); // already swept: a no-op
    await live.revoke();
    expect(await roleExists(live.role)).toBe(false);
  });

  it("works with a non-superuser admin (CREATEROLE, grant options, pg_signal_backend)", async () => {
    const name = "pc_cred_admin";
    const password = "admin-pw-1";
    const db = new URL(adminUrl).pathname.slice(1);
    if (await roleExists(name)) {
      await admin.query(`DROP OWNED BY ${name}`);
      await admin.query(`DROP ROLE ${name}`);
    }
    await admin.query(`CREATE ROLE ${name} LOGIN CREATEROLE PASSWORD '${password}'`);
    await admin.query(`GRANT pg_signal_backend TO ${name}`);
    await admin.query(`GRANT CONNECT ON DATABASE ${pg.escapeIdentifier(db)} TO ${name} WITH GRANT OPTION`);
    await admin.query(`GRANT USAGE ON SCHEMA ${RO} TO ${name} WITH GRANT OPTION`);
    await admin.query(`GRANT ALL ON ALL TABLES IN SCHEMA ${RO} TO ${name} WITH GRANT OPTION`);
    await admin.query(`GRANT ALL ON ALL SEQUENCES IN SCHEMA ${RO} TO ${name} WITH GRANT OPTION`);
    const url = new URL(adminUrl);
    url.username = name;
    url.password = password;
    const limited = createPostgresRoleProvider({ adminUrl: url.toString(), logger: createLogger("silent") });
    try {
      const m = await limited.mint("task-limited-admin", spec([{ name: RO, access: "write" }]));
      const c = await connect(m.env.DATABASE_URL!);
      await c.query(`INSERT INTO ${RO}.items (name) VALUES ('fig')`);
      expect(await errorCode(c.query(`SELECT * FROM ${OTHER}.secrets`))).toBe("42501");
      await m.revoke();
      expect(await roleExists(m.role)).toBe(false);
      await expect(c.query("SELECT 1")).rejects.toThrow();
    } finally {
      await limited.close();
      await admin.query(`DROP OWNED BY ${name}`);
      await admin.query(`DROP ROLE ${name}`);
    }
  });

  it("spec.database: grants and the env URL target that database, and revoke cleans it up there", async () => {
    await admin.query(`DROP DATABASE IF EXISTS ${OTHER_DB} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${OTHER_DB}`);
    const url = new URL(adminUrl);
    url.pathname = `/${OTHER_DB}`;
    const other = new pg.Client({ connectionString: url.toString() });
    await other.connect();
    try {
      await other.query(`CREATE SCHEMA ${RO}; CREATE TABLE ${RO}.t (v int); INSERT INTO ${RO}.t VALUES (7)`);
      const m = await mint("task-otherdb", spec([{ name: RO, access: "read" }], { database: OTHER_DB }));
      expect(m.env.PGDATABASE).toBe(OTHER_DB);
      const c = await connect(m.env.DATABASE_URL!);
      expect((await c.query(`SELECT v FROM ${RO}.t`)).rows).toEqual([{ v: 7 }]);
      await m.revoke();
      expect(await roleExists(m.role)).toBe(false);
    } finally {
      await other.end();
    }
  });
});
