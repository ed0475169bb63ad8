// The path and SQL rules decide on hostile input: they never throw (a verdict for anything a tool call can
// carry), and on doubt they deny — a path that any reading places outside the whitelist, a statement that
// writes, however it is dressed.
import path from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fuzzParams, hostileJson, hostileString } from "../test/fuzz";
import { checkPathInWhitelist, normalizeWhitelistEntry, uriInWhitelist } from "./path-check";
import { checkReadOnlySql } from "./sql-readonly";

const ROOT = "/srv/data";
const pathPiece = fc.constantFrom(
  "a",
  "b.txt",
  "..",
  ".",
  "%2e%2e",
  "%2E%2e%2f",
  "%252e%252e",
  "\\..",
  "..\\..",
  "%5c..",
  "%00",
  "\u0000",
  "\ud800",
  "\u202e",
  "",
  "//",
  "%2f",
  "~",
  "$HOME",
  "a%20b",
  "é",
  "e\u0301",
  "%c0%ae%c0%ae",
  "....",
  "etc",
  "passwd",
);
const fsValue = fc.array(pathPiece, { minLength: 1, maxLength: 8 }).map((parts) => `${ROOT}/${parts.join("/")}`);

/** Every way a server might read `value`: as written, and percent-decoded repeatedly with "\" as "/". */
function readings(value: string): string[] {
  const out = [value];
  let cur = value;
  for (let i = 0; i < 4; i++) {
    try {
      cur = decodeURIComponent(cur);
    } catch {
      break;
    }
    out.push(cur, cur.replaceAll("\\", "/"));
  }
  return out;
}
const inside = (p: string) => {
  const n = path.posix.normalize(p);
  return n === ROOT || n.startsWith(`${ROOT}/`);
};

describe("path rule – property tests", () => {
  it("checkPathInWhitelist and uriInWhitelist give a verdict for any value, never an exception", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(hostileJson, hostileString, fsValue),
        fc.constantFrom([ROOT], ["orders://order/"], ["*"], []),
        async (value, whitelist) => {
          const verdict = await checkPathInWhitelist(value, whitelist, { resolveSymlinks: false });
          expect(typeof verdict.ok).toBe("boolean");
          if (typeof value === "string") expect(typeof uriInWhitelist(value, whitelist).ok).toBe("boolean");
        },
      ),
      fuzzParams(400),
    );
  });

  it("a path is allowed only when every reading of it lies inside the whitelisted directory", async () => {
    await fc.assert(
      fc.asyncProperty(fsValue, async (value) => {
        const verdict = await checkPathInWhitelist(value, [ROOT], { resolveSymlinks: false });
        if (verdict.ok)
          for (const r of readings(value))
            expect(inside(r), `${JSON.stringify(value)} allowed, but read as ${JSON.stringify(r)}`).toBe(true);
      }),
      fuzzParams(400),
    );
  });

  it("a value with NUL, a lone surrogate or a control character is denied", async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom("\u0000", "\ud800", "\u0007", "\u202e"), fc.string(), async (bad, rest) => {
        expect((await checkPathInWhitelist(`${ROOT}/${rest}${bad}`, [ROOT], { resolveSymlinks: false })).ok).toBe(
          false,
        );
      }),
      fuzzParams(100),
    );
  });

  it("normalizeWhitelistEntry accepts or refuses with a readable Error, for any text", () => {
    fc.assert(
      fc.property(hostileString, (entry) => {
        try {
          expect(typeof normalizeWhitelistEntry(entry)).toBe("string");
        } catch (err) {
          expect(err).toBeInstanceOf(Error);
          expect((err as Error).message).toMatch(/whitelist entry/);
        }
      }),
      fuzzParams(400),
    );
  });
});

describe("SQL read-only rule – property tests", () => {
  it("gives a verdict for any input, never an exception", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(hostileString, hostileJson, fc.string({ unit: "binary", maxLength: 200 })),
        async (sql) => {
          const verdict = await checkReadOnlySql(sql as string);
          expect(typeof verdict.ok).toBe("boolean");
          if (typeof sql !== "string") expect(verdict.ok).toBe(false);
        },
      ),
      fuzzParams(300),
    );
  });

  const write = fc.constantFrom(
    "INSERT INTO t VALUES (1)",
    "update t set a = 1",
    "DELETE FROM t",
    "DROP TABLE t",
    "TRUNCATE t",
    "CREATE TABLE x (a int)",
    "COPY t TO '/tmp/x'",
    "SELECT pg_sleep(10)",
    "SELECT * FROM t FOR UPDATE",
    "WITH d AS (DELETE FROM t RETURNING *) SELECT * FROM d",
    "SELECT lo_import('/etc/passwd')",
    "SET role postgres",
    "EXPLAIN ANALYZE DELETE FROM t",
    "SELECT set_config('a','b',false)",
  );
  const noise = fc.constantFrom("", " ", "\n", "/* c */", "-- c\n", "\t");
  it("denies a statement that writes or has side effects, dressed in comments, case and extra statements", async () => {
    await fc.assert(
      fc.asyncProperty(
        write,
        noise,
        noise,
        fc.constantFrom("", "SELECT 1; ", "SELECT 1;"),
        fc.boolean(),
        async (stmt, pre, post, before, upper) => {
          const sql = `${before}${pre}${upper ? stmt.toUpperCase() : stmt}${post}`;
          expect((await checkReadOnlySql(sql)).ok, sql).toBe(false);
        },
      ),
      fuzzParams(200),
    );
  });
});
