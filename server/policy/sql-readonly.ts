// "SQL read-only" parameter rule: lets a tool argument through only if it is exactly one read-only statement
// (SELECT / VALUES / set operation, or EXPLAIN without ANALYZE), judged on PostgreSQL's own parse tree (libpg-query).
import { parse } from "libpg-query";

export type SqlVerdict = { ok: true } | { ok: false; reason: string };

/** Side-effect functions: sleep, signals, files, large objects, dblink, locks, sequences, config, WAL, SQL-in-text. */
// prettier-ignore
export const DEFAULT_DENIED_FUNCTIONS: readonly string[] = [
  "pg_sleep", "pg_sleep_for", "pg_sleep_until",
  "pg_terminate_backend", "pg_cancel_backend", "pg_reload_conf", "pg_rotate_logfile", "pg_log_backend_memory_contexts",
  "pg_read_file", "pg_read_binary_file", "pg_ls_dir", "pg_stat_file", "pg_logdir_ls",
  "pg_file_write", "pg_file_rename", "pg_file_unlink", "pg_file_sync",
  "lo_import", "lo_export", "lo_create", "lo_creat", "lo_unlink", "lo_put", "lo_from_bytea", "lo_open", "lo_write",
  "lo_truncate", "lowrite", "loread",
  "dblink", "dblink_exec", "dblink_connect", "dblink_connect_u", "dblink_send_query", "dblink_open", "dblink_fetch",
  "set_config", "pg_notify", "txid_current", "pg_current_xact_id", "nextval", "setval",
  "pg_advisory_lock", "pg_advisory_lock_shared", "pg_advisory_xact_lock", "pg_advisory_xact_lock_shared",
  "pg_advisory_unlock", "pg_advisory_unlock_shared", "pg_advisory_unlock_all",
  "pg_try_advisory_lock", "pg_try_advisory_lock_shared",
  "pg_try_advisory_xact_lock", "pg_try_advisory_xact_lock_shared",
  "pg_create_restore_point", "pg_switch_wal", "pg_promote", "pg_backup_start", "pg_backup_stop",
  "pg_wal_replay_pause", "pg_wal_replay_resume", "pg_logical_emit_message",
  "pg_create_logical_replication_slot", "pg_create_physical_replication_slot", "pg_drop_replication_slot",
  "pg_logical_slot_get_changes", "pg_logical_slot_get_binary_changes", "pg_replication_slot_advance",
  "pg_import_system_collations", "pg_stat_reset",
  // These run a query given as a string, which this rule cannot see.
  "query_to_xml", "query_to_xmlschema", "query_to_xml_and_xmlschema", "cursor_to_xml", "cursor_to_xmlschema",
  "table_to_xml", "table_to_xmlschema", "table_to_xml_and_xmlschema", "schema_to_xml", "schema_to_xmlschema",
  "schema_to_xml_and_xmlschema", "database_to_xml", "database_to_xmlschema", "database_to_xml_and_xmlschema", "ts_stat",
];

/**
 * Whole families denied by the start of the unqualified name, in any schema: large objects (`lo_*`), advisory locks,
 * dblink, directory listings (`pg_ls_*`), server file access, statistics resets. A user function named e.g. `lo_x`
 * is denied too; that is the price of not missing a family member.
 */
// prettier-ignore
export const DENIED_FUNCTION_PREFIXES: readonly string[] = [
  "lo_", "pg_advisory", "pg_try_advisory", "dblink", "pg_ls_", "pg_read_", "pg_file_", "pg_stat_reset",
];

// Maps, not object literals: a parse-tree key such as "constructor" must not hit Object.prototype.
const DATA_MODIFYING: ReadonlyMap<string, string> = new Map([
  ["InsertStmt", "INSERT"],
  ["UpdateStmt", "UPDATE"],
  ["DeleteStmt", "DELETE"],
  ["MergeStmt", "MERGE"],
]);

const LOCK_STRENGTH: ReadonlyMap<string, string> = new Map([
  ["LCS_FORUPDATE", "FOR UPDATE"],
  ["LCS_FORNOKEYUPDATE", "FOR NO KEY UPDATE"],
  ["LCS_FORSHARE", "FOR SHARE"],
  ["LCS_FORKEYSHARE", "FOR KEY SHARE"],
]);

const STATEMENT_LABEL: ReadonlyMap<string, string> = new Map([
  ...DATA_MODIFYING,
  ["VariableSetStmt", "SET"],
  ["VariableShowStmt", "SHOW"],
  ["TransactionStmt", "transaction control (BEGIN/COMMIT/ROLLBACK)"],
  ["CreateStmt", "CREATE TABLE"],
  ["IndexStmt", "CREATE INDEX"],
  ["ViewStmt", "CREATE VIEW"],
  ["DeclareCursorStmt", "DECLARE CURSOR"],
  ["CreateTableAsStmt", "CREATE TABLE AS / CREATE MATERIALIZED VIEW"],
]);

type Json = Record<string, unknown>;

function isRecord(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** "CreateTableAsStmt" -> "CREATE TABLE AS"; a few kinds get a hand-written label. */
function statementLabel(kind: string): string {
  return (
    STATEMENT_LABEL.get(kind) ??
    kind
      .replace(/Stmt$/, "")
      .replace(/([a-z])([A-Z])/g, "$1 $2")
      .toUpperCase()
  );
}

/** The node type of a wrapped node `{ SelectStmt: {...} }`, or undefined. */
function nodeKind(node: unknown): string | undefined {
  return isRecord(node) ? Object.keys(node)[0] : undefined;
}

type DenyList = { names: Set<string>; qualified: Set<string>; unqualifiedOfQualified: Set<string> };

function buildDenyList(extra: readonly string[]): DenyList {
  const list: DenyList = { names: new Set(), qualified: new Set(), unqualifiedOfQualified: new Set() };
  for (const raw of [...DEFAULT_DENIED_FUNCTIONS, ...extra]) {
    const name = raw.trim().toLowerCase();
    if (!name) continue;
    const dot = name.lastIndexOf(".");
    if (dot < 0) {
      list.names.add(name);
    } else {
      list.qualified.add(name);
      list.unqualifiedOfQualified.add(name.slice(dot + 1));
    }
  }
  return list;
}

/**
 * `funcname` is a list of `{ String: { sval } }`, already unquoted by the parser (`"PG_SLEEP"` gives `PG_SLEEP`).
 * Names are compared lower-cased. An unqualified name on the list is denied in every schema; a qualified entry `s.f`
 * denies `s.f(...)` and also a bare `f(...)`, which may resolve to it through search_path.
 */
function deniedFunction(funcname: unknown[], deny: DenyList): string | undefined {
  const parts = funcname.flatMap((part) => {
    const sval = isRecord(part) && isRecord(part.String) ? part.String.sval : undefined;
    return typeof sval === "string" ? [sval.toLowerCase()] : [];
  });
  const name = parts.at(-1);
  if (name === undefined) return undefined;
  const full = parts.join(".");
  const denied =
    deny.names.has(name) ||
    DENIED_FUNCTION_PREFIXES.some((prefix) => name.startsWith(prefix)) ||
    deny.qualified.has(full) ||
    deny.qualified.has(parts.slice(-2).join(".")) ||
    (parts.length === 1 && deny.unqualifiedOfQualified.has(name));
  return denied ? `function ${full} is not allowed` : undefined;
}

function lockingReason(clauses: unknown[]): string {
  const first: unknown = clauses[0];
  const strength = isRecord(first) && isRecord(first.LockingClause) ? first.LockingClause.strength : undefined;
  const label = typeof strength === "string" ? LOCK_STRENGTH.get(strength) : undefined;
  return `locking clause ${label ?? "FOR UPDATE/SHARE"} is not allowed`;
}

/** The first finding in one object's own fields (its children are visited by the walker). */
function inspect(node: Json, deny: DenyList): string | undefined {
  for (const [key, value] of Object.entries(node)) {
    const modifying = DATA_MODIFYING.get(key);
    if (modifying) return `data-modifying statement ${modifying} is not allowed`;
    if (key === "ctequery") {
      const inner = DATA_MODIFYING.get(nodeKind(value) ?? "");
      if (inner) return `data-modifying statement inside a WITH (${inner}) is not allowed`;
    }
    if (key === "intoClause" && value != null) return "SELECT INTO creates a table and is not allowed";
    if (key === "lockingClause" && Array.isArray(value) && value.length > 0) return lockingReason(value);
    if (key === "funcname" && Array.isArray(value)) {
      const reason = deniedFunction(value, deny);
      if (reason) return reason;
    }
  }
  return undefined;
}

/**
 * Visits every object and array of the parse tree, depth first, with an explicit stack: field names are checked
 * wherever they occur, so a new node type or an unwrapped child (SelectStmt.larg/rarg are bare) is still seen, and a
 * deeply nested expression cannot overflow the JS call stack.
 */
function findViolation(root: unknown, deny: DenyList): string | undefined {
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const value = stack.pop();
    if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) stack.push(value[i]);
    } else if (isRecord(value)) {
      const reason = inspect(value, deny);
      if (reason) return reason;
      const children = Object.values(value);
      for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]);
    }
  }
  return undefined;
}

/** At the top only SELECT (incl. VALUES, UNION/INTERSECT/EXCEPT) or EXPLAIN of one, without ANALYZE, is allowed. */
function topLevelViolation(stmt: unknown): string | undefined {
  const kind = nodeKind(stmt);
  if (kind === "SelectStmt") return undefined;
  if (kind === "ExplainStmt" && isRecord(stmt) && isRecord(stmt.ExplainStmt)) {
    const { query, options } = stmt.ExplainStmt;
    const analyze =
      Array.isArray(options) &&
      options.some((opt) => isRecord(opt) && isRecord(opt.DefElem) && opt.DefElem.defname === "analyze");
    if (analyze) return "EXPLAIN ANALYZE executes the statement and is not allowed; use plain EXPLAIN";
    const inner = nodeKind(query);
    if (inner === "SelectStmt") return undefined;
    return `EXPLAIN of ${statementLabel(inner ?? "unknown")} is not allowed; only a SELECT can be explained`;
  }
  return `${statementLabel(kind ?? "unknown")} statements are not allowed; send one read-only SELECT`;
}

/** extraDeniedFunctions: more function names (lower-case, optionally schema-qualified) from the rule's config. */
export async function checkReadOnlySql(
  sql: string,
  opts?: { extraDeniedFunctions?: readonly string[] },
): Promise<SqlVerdict> {
  if (typeof (sql as unknown) !== "string") return { ok: false, reason: "the SQL must be a string" };
  if (sql.trim() === "") return { ok: false, reason: "the SQL is empty" };

  let stmts: unknown[];
  try {
    const result: unknown = await parse(sql);
    stmts = isRecord(result) && Array.isArray(result.stmts) ? result.stmts : [];
  } catch (error) {
    return { ok: false, reason: `the SQL does not parse: ${error instanceof Error ? error.message : String(error)}` };
  }

  if (stmts.length === 0) return { ok: false, reason: "the SQL contains no statement (only comments or semicolons)" };
  if (stmts.length > 1) return { ok: false, reason: `only one statement is allowed; found ${stmts.length}` };

  const stmt = isRecord(stmts[0]) ? stmts[0].stmt : undefined;
  const reason = topLevelViolation(stmt) ?? findViolation(stmt, buildDenyList(opts?.extraDeniedFunctions ?? []));
  return reason ? { ok: false, reason } : { ok: true };
}
