// SQL read-only rule: one read-only statement passes; writes, stacked statements, locks, side-effect functions do not.
import { describe, expect, it } from "vitest";
import { checkReadOnlySql, DEFAULT_DENIED_FUNCTIONS } from "./sql-readonly";

const ALLOWED: readonly [string, string][] = [
  ["plain select", "select id, total from orders where total > 10 order by id limit 5"],
  ["join", "select o.id, c.name from orders o join customers c on c.id = o.customer_id left join x on true"],
  ["subquery in WHERE", "select * from orders where customer_id in (select id from customers where vip)"],
  ["subquery in FROM", "select s.n from (select count(*) as n from orders) s"],
  ["read-only CTE", "with big as (select * from orders where total > 100) select count(*) from big"],
  ["recursive CTE", "with recursive n(i) as (select 1 union all select i + 1 from n where i < 5) select * from n"],
  ["UNION / INTERSECT / EXCEPT", "select 1 union select 2 intersect select 2 except select 3"],
  ["VALUES list", "values (1, 'a'), (2, 'b')"],
  ["TABLE shorthand", "table orders"],
  [
    "harmless functions",
    "select lower(name), count(*), now(), coalesce(x, 0), generate_series(1, 3) from t group by 1",
  ],
  ["function in FROM that is harmless", "select * from generate_series(1, 10) g"],
  ["EXPLAIN SELECT", "explain select * from orders"],
  ["EXPLAIN (FORMAT JSON) SELECT", "explain (format json, verbose) select * from orders"],
  ["one statement with a trailing semicolon", "select 1;"],
  ["semicolon inside a line comment", "select 1 -- ; delete from t"],
  ["semicolon inside a string literal", "select ';delete from t' as s"],
  ["keywords inside a dollar-quoted string", "select $$ delete from t; select pg_sleep(1) $$"],
  ["column named like a denied function", "select pg_sleep from t"],
  ["a 'lower' call is not an lo_ function", "select lower('X'), log(10)"],
];

const DENIED: readonly [string, unknown, string][] = [
  // Stacked statements and comment tricks
  ["stacked SELECT; DELETE", "select 1; delete from t", "only one statement is allowed; found 2"],
  ["two SELECTs", "select 1;select 2", "found 2"],
  ["semicolon hidden in a block comment", "select 1 /* ; */ ; delete from t", "found 2"],
  // Writes hidden inside a SELECT
  ["writable CTE", "with x as (delete from orders returning *) select * from x", "inside a WITH (DELETE)"],
  [
    "writable CTE nested in a subquery",
    "select * from (with y as (insert into t values (1) returning *) select * from y) s",
    "inside a WITH (INSERT)",
  ],
  [
    "writable CTE inside a WHERE subquery",
    "select 1 where exists (with u as (update t set a = 1 returning 1) select 1 from u)",
    "inside a WITH (UPDATE)",
  ],
  ["SELECT INTO", "select * into new_table from orders", "SELECT INTO creates a table"],
  ["FOR UPDATE", "select * from orders for update", "locking clause FOR UPDATE is not allowed"],
  ["FOR SHARE", "select * from orders for share", "locking clause FOR SHARE"],
  [
    "FOR NO KEY UPDATE in a subquery",
    "select * from t where id in (select id from u for no key update)",
    "FOR NO KEY UPDATE",
  ],
  ["FOR KEY SHARE in a UNION arm", "(select 1 from t for key share) union select 2", "FOR KEY SHARE"],
  // Functions: case, quoting, schema qualification, position
  ["mixed case", "SeLeCt pg_SLEEP(1)", "function pg_sleep is not allowed"],
  ["quoted name", 'select "pg_sleep"(1)', "function pg_sleep is not allowed"],
  ["quoted upper-case name", 'select "PG_SLEEP"(1)', "function pg_sleep is not allowed"],
  ["schema-qualified", "select pg_catalog.pg_sleep(1)", "function pg_catalog.pg_sleep is not allowed"],
  ["dblink in another schema", "select * from public.dblink('host=x', 'delete from t') as r(a int)", "public.dblink"],
  ["denied function in WHERE", "select * from orders where pg_sleep(5) is not null", "pg_sleep"],
  ["denied function in a CTE", "with s as (select pg_sleep_for('5 s')) select * from s", "pg_sleep_for"],
  ["denied function in FROM", "select * from pg_ls_dir('.')", "function pg_ls_dir is not allowed"],
  ["ROWS FROM", "select * from rows from (generate_series(1, 2), pg_read_file('/etc/passwd'))", "pg_read_file"],
  ["lo_import", "select lo_import('/etc/passwd')", "lo_import"],
  ["lo_ prefix rule", "select lo_get(1234)", "function lo_get"],
  ["advisory-lock prefix rule", "select pg_try_advisory_xact_lock(1)", "pg_try_advisory_xact_lock"],
  ["set_config", "select set_config('statement_timeout', '0', false)", "function set_config"],
  ["pg_terminate_backend", "select pg_terminate_backend(pid) from pg_stat_activity", "pg_terminate_backend"],
  ["nextval", "select nextval('orders_id_seq')", "nextval"],
  [
    "query_to_xml runs SQL from a string",
    "select query_to_xml('delete from t returning 1', true, false, '')",
    "query_to_xml",
  ],
  [
    "denied function as an aggregate argument",
    "select sum(pg_cancel_backend(pid)) from pg_stat_activity",
    "pg_cancel_backend",
  ],
  // EXPLAIN
  ["EXPLAIN ANALYZE DELETE", "explain analyze delete from orders", "EXPLAIN ANALYZE executes the statement"],
  ["EXPLAIN ANALYZE SELECT", "explain analyze select 1", "EXPLAIN ANALYZE"],
  ["EXPLAIN ANALYSE (British spelling)", "explain analyse select 1", "EXPLAIN ANALYZE"],
  ["EXPLAIN (ANALYZE) SELECT", "explain (analyze) select 1", "EXPLAIN ANALYZE"],
  ["EXPLAIN (ANALYZE true, FORMAT JSON)", "explain (analyze true, format json) select 1", "EXPLAIN ANALYZE"],
  ["EXPLAIN (ANALYZE false) is denied too", "explain (analyze false) select 1", "EXPLAIN ANALYZE"],
  ["EXPLAIN of a DELETE", "explain delete from orders", "EXPLAIN of DELETE is not allowed"],
  ["EXPLAIN of SELECT INTO", "explain select 1 into t", "SELECT INTO"],
  ["EXPLAIN of a SELECT calling a denied function", "explain select pg_sleep(1)", "pg_sleep"],
  // Other statement kinds
  ["INSERT ... SELECT", "insert into archive select * from orders", "INSERT statements are not allowed"],
  ["UPDATE", "update orders set total = 0", "UPDATE statements are not allowed"],
  ["DELETE", "delete from orders", "DELETE statements are not allowed"],
  ["MERGE", "merge into t using s on t.id = s.id when matched then delete", "MERGE statements are not allowed"],
  ["COPY", "copy orders to '/tmp/x.csv'", "COPY statements are not allowed"],
  ["COPY of a query", "copy (select 1) to program 'id'", "COPY"],
  ["DO block", "do $$ begin perform 1; end $$", "DO statements are not allowed"],
  ["SET", "set statement_timeout = 0", "SET statements are not allowed"],
  ["BEGIN", "begin", "transaction control"],
  [
    "CREATE TABLE AS",
    "create table x as select 1",
    "CREATE TABLE AS / CREATE MATERIALIZED VIEW statements are not allowed",
  ],
  ["CREATE TABLE", "create table x (id int)", "CREATE TABLE statements are not allowed"],
  ["DROP", "drop table orders", "DROP statements are not allowed"],
  ["CALL", "call do_things()", "CALL statements are not allowed"],
  ["PREPARE", "prepare p as select 1", "PREPARE statements are not allowed"],
  ["EXECUTE", "execute p", "EXECUTE statements are not allowed"],
  ["LOCK", "lock table orders", "LOCK statements are not allowed"],
  ["VACUUM", "vacuum orders", "VACUUM statements are not allowed"],
  ["DECLARE CURSOR", "declare c cursor for select 1", "DECLARE CURSOR statements are not allowed"],
  ["NOTIFY", "notify ch, 'x'", "NOTIFY statements are not allowed"],
  ["SHOW", "show all", "SHOW statements are not allowed"],
  // Not SQL at all
  ["unparseable garbage", "selec 1 frm", "the SQL does not parse: syntax error"],
  ["unterminated string", "select 'abc", "the SQL does not parse"],
  ["empty string", "", "the SQL is empty"],
  ["only whitespace", "  \n\t ", "the SQL is empty"],
  ["only a comment", "-- nothing here\n/* or here */", "contains no statement"],
  ["only semicolons", ";;", "contains no statement"],
  ["non-string input", 42, "must be a string"],
  ["null input", null, "must be a string"],
];

describe("checkReadOnlySql", () => {
  it.each(ALLOWED)("allows: %s", async (_name, sql) => {
    expect(await checkReadOnlySql(sql)).toEqual({ ok: true });
  });

  it.each(DENIED)("denies: %s", async (_name, sql, reason) => {
    const verdict = await checkReadOnlySql(sql as string);
    expect(verdict.ok).toBe(false);
    if (!verdict.ok) expect(verdict.reason).toContain(reason);
  });

  it("adds extraDeniedFunctions, case-insensitively and by schema", async () => {
    const opts = { extraDeniedFunctions: ["refund_order", "billing.charge"] };
    expect(await checkReadOnlySql("select refund_order(1)", opts)).toEqual({
      ok: false,
      reason: "function refund_order is not allowed",
    });
    expect(await checkReadOnlySql('select "Refund_Order"(1)', opts)).toMatchObject({ ok: false });
    expect(await checkReadOnlySql("select Billing.Charge(1)", opts)).toMatchObject({ ok: false });
    // A bare call may resolve to billing.charge through search_path, so it is denied as well.
    expect(await checkReadOnlySql("select charge(1)", opts)).toMatchObject({ ok: false });
    expect(await checkReadOnlySql("select other.charge(1)", opts)).toEqual({ ok: true });
    expect(await checkReadOnlySql("select refund_order(1)")).toEqual({ ok: true });
  });

  it("denies every default function, however it is spelled", async () => {
    for (const name of DEFAULT_DENIED_FUNCTIONS) {
      expect(await checkReadOnlySql(`select ${name.toUpperCase()}()`)).toMatchObject({ ok: false });
    }
  });

  it("survives deeply nested expressions", async () => {
    const sql = `select ${"abs(".repeat(3000)}pg_sleep(1)${")".repeat(3000)}`;
    expect(await checkReadOnlySql(sql)).toEqual({ ok: false, reason: "function pg_sleep is not allowed" });
  });
});
