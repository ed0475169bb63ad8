import { createHash, createHmac, pbkdf2Sync } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { TTaskCredentials } from "../../../lib/sandbox-schemas";
import {
  buildConnectionUrl,
  buildEnv,
  mintStatements,
  parseAdminUrl,
  scramVerifier,
  validateSpec,
  validateTaskKey,
} from "./postgres-role";

const spec = (over: Partial<TTaskCredentials> = {}): TTaskCredentials => ({
  provider: "postgres",
  adminSecret: "PG_ADMIN",
  schemas: [{ name: "analytics", access: "read" }],
  envVar: "DATABASE_URL",
  ttlSeconds: 3600,
  ...over,
});

describe("admin URL and connection URL building", () => {
  it("keeps host, port, database and options but never the admin's user or password", () => {
    const t = parseAdminUrl("postgres://admin:s3cret@db.internal:6543/app?sslmode=require&password=leak&user=admin");
    expect(t).toMatchObject({ hostname: "db.internal", port: "6543", database: "app", search: "?sslmode=require" });
    expect(buildConnectionUrl(t, "pc_task_0123456789abcdef", "pw")).toBe(
      "postgres://pc_task_0123456789abcdef:pw@db.internal:6543/app?sslmode=require",
    );
  });

  it("defaults the port to 5432 and accepts postgresql://", () => {
    const t = parseAdminUrl("postgresql://admin:x@localhost/main");
    expect(t.port).toBe("5432");
    expect(buildConnectionUrl(t, "u", "p")).toBe("postgresql://u:p@localhost/main");
  });

  it("percent-encodes special characters in the password so the URL parses back to the same password", () => {
    const t = parseAdminUrl("postgres://admin:x@127.0.0.1:5432/app");
    const password = "p@ss:w/o rd?#%&=+é'\"";
    const url = buildConnectionUrl(t, "pc_task_0123456789abcdef", password);
    expect(url).not.toContain("p@ss");
    expect(url).toContain(encodeURIComponent(password));
    const parsed = new URL(url);
    expect(decodeURIComponent(parsed.password)).toBe(password);
    expect(decodeURIComponent(parsed.username)).toBe("pc_task_0123456789abcdef");
    expect(parsed.host).toBe("127.0.0.1:5432");
    expect(parsed.pathname).toBe("/app");
  });

  it("builds the env: the URL under envVar plus libpq's variables", () => {
    const t = parseAdminUrl("postgres://admin:x@[::1]:5433/app");
    const env = buildEnv(t, "WAREHOUSE_URL", "pc_task_0123456789abcdef", "a/b");
    expect(env).toEqual({
      WAREHOUSE_URL: "postgres://pc_task_0123456789abcdef:a%2Fb@[::1]:5433/app",
      PGUSER: "pc_task_0123456789abcdef",
      PGPASSWORD: "a/b",
      PGHOST: "::1",
      PGPORT: "5433",
      PGDATABASE: "app",
    });
  });

  it("rejects admin secrets that are not usable postgres URLs", () => {
    expect(() => parseAdminUrl("not a url")).toThrow(/not a connection URL/);
    expect(() => parseAdminUrl("mysql://a:b@h/db")).toThrow(/postgres:\/\//);
    expect(() => parseAdminUrl("postgres://a:b@h:5432/")).toThrow(/no usable database/);
  });
});

describe("spec validation", () => {
  it("accepts a valid spec", () => {
    expect(() => validateSpec(spec({ database: "app", schemas: [{ name: "a_b$1", access: "write" }] }))).not.toThrow();
  });

  it.each([
    ["schema with a quote", { schemas: [{ name: 'x"; DROP ROLE postgres; --', access: "read" as const }] }],
    ["upper-case schema", { schemas: [{ name: "Analytics", access: "read" as const }] }],
    ["schema starting with a digit", { schemas: [{ name: "1abc", access: "read" as const }] }],
    ["too long schema", { schemas: [{ name: "a".repeat(64), access: "read" as const }] }],
    ["no schemas", { schemas: [] }],
    ["bad access", { schemas: [{ name: "a", access: "admin" as unknown as "read" }] }],
    ["database with a space", { database: "app db" }],
    ["database with a quote", { database: 'app"' }],
    ["lower-case envVar", { envVar: "database_url" }],
    ["envVar with '='", { envVar: "A=B" }],
    ["envVar clashing with PGPASSWORD", { envVar: "PGPASSWORD" }],
    ["ttl below 10", { ttlSeconds: 5 }],
    ["fractional ttl", { ttlSeconds: 10.5 }],
    ["ttl above a day", { ttlSeconds: 86_401 }],
    ["other provider", { provider: "mysql" as unknown as "postgres" }],
  ])("rejects %s", (_label, over) => {
    expect(() => validateSpec(spec(over))).toThrow(/invalid spec/);
  });

  it("rejects empty, overlong or control-character task keys", () => {
    expect(() => validateTaskKey("")).toThrow();
    expect(() => validateTaskKey("x".repeat(201))).toThrow();
    expect(() => validateTaskKey("a\nb")).toThrow();
    expect(() => validateTaskKey("task-42 'quoted'")).not.toThrow();
  });
});

describe("mint statements", () => {
  const base = {
    role: "pc_task_0123456789abcdef",
    passwordVerifier: "SCRAM-SHA-256$4096:c2FsdA==$a:b",
    expiresAt: new Date("2030-01-02T03:04:05.000Z"),
    taskKey: "task 'o'",
    database: "app",
  };

  it("creates the role, comments it, and grants per access level with quoted identifiers and literals", () => {
    const sql = mintStatements({
      ...base,
      schemas: [
        { name: "ro", access: "read" },
        { name: "rw", access: "write" },
      ],
    });
    expect(sql).toEqual([
      `CREATE ROLE "pc_task_0123456789abcdef" LOGIN PASSWORD 'SCRAM-SHA-256$4096:c2FsdA==$a:b' VALID UNTIL '2030-01-02T03:04:05.000Z' CONNECTION LIMIT 8 NOINHERIT NOCREATEDB NOCREATEROLE`,
      `COMMENT ON ROLE "pc_task_0123456789abcdef" IS 'portcullis task task ''o'''`,
      `GRANT CONNECT ON DATABASE "app" TO "pc_task_0123456789abcdef"`,
      `GRANT USAGE ON SCHEMA "ro" TO "pc_task_0123456789abcdef"`,
      `GRANT SELECT ON ALL TABLES IN SCHEMA "ro" TO "pc_task_0123456789abcdef"`,
      `GRANT USAGE ON SCHEMA "rw" TO "pc_task_0123456789abcdef"`,
      `GRANT SELECT ON ALL TABLES IN SCHEMA "rw" TO "pc_task_0123456789abcdef"`,
      `GRANT INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA "rw" TO "pc_task_0123456789abcdef"`,
      `GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA "rw" TO "pc_task_0123456789abcdef"`,
    ]);
  });

  it("refuses a role name that is not a task role and an unchecked schema name", () => {
    expect(() => mintStatements({ ...base, role: "postgres", schemas: [{ name: "ro", access: "read" }] })).toThrow(
      /bad role name/,
    );
    expect(() => mintStatements({ ...base, schemas: [{ name: 'ro"x', access: "read" }] })).toThrow(/plain identifier/);
  });
});

describe("SCRAM verifier", () => {
  it("matches RFC 5802/7677 key derivation", () => {
    const salt = Buffer.from("0123456789abcdef");
    const v = scramVerifier("pencil", salt, 4096);
    const salted = pbkdf2Sync("pencil", salt, 4096, 32, "sha256");
    const stored = createHash("sha256")
      .update(createHmac("sha256", salted).update("Client Key").digest())
      .digest("base64");
    const server = createHmac("sha256", salted).update("Server Key").digest("base64");
    expect(v).toBe(`SCRAM-SHA-256$4096:${salt.toString("base64")}$${stored}:${server}`);
  });
});
