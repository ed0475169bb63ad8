// Encrypted secrets on the real database: rows hold ciphertext only, the key comes from SECRETS_KEY or a 0600
// key file made on first use, audit rows name secrets but never hold values, references resolve and are
// checked, a referenced secret cannot be deleted, and the gateway's redactor scrubs stored values.
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { readFile, stat } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { redactor } from "../audit/redaction";
import type { RequestContext } from "../context";
import type { Db } from "../db/client";
import { GatewayError } from "../errors";
import { insertUser, userContext } from "../test/contexts";
import { removeTempDirs, startTestGateway, tempDir, waitUntil } from "../test/gateway-harness";
import { createTestDb, truncateAll } from "../test/test-db";
import { keyIdOf, parseSecretsKey, SecretKeyMismatchError } from "./secret-crypto";
import { createSecretStore, type SecretStore } from "./secret-store";

const VALUE = "planted-secret-value-4f1c9e";
const db = createTestDb();

async function rejection(p: Promise<unknown>): Promise<Error> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(Error);
  return err as Error;
}

/** An upstream server row, inserted directly: HTTP, so nothing is launched. */
function insertServer(d: Db, slug: string, data: { env?: Record<string, string>; headers?: Record<string, string>; taskCredentials?: Record<string, unknown> } = {}) {
  return d.upstreamServer.create({
    data: { slug, name: slug, transport: "HTTP", url: "http://127.0.0.1:9/mcp", env: data.env ?? {}, headers: data.headers ?? {}, ...(data.taskCredentials && { taskCredentials: data.taskCredentials as never }), enabled: false },
  });
}

async function auditText(d: Db): Promise<string> {
  const rows = await d.$queryRaw<{ row: string }[]>`SELECT row_to_json(a)::text AS row FROM audit_events a`;
  return rows.map((r) => r.row).join("\n");
}

let admin: RequestContext;
let dataDir: string;
let store: SecretStore;

beforeEach(async () => {
  await truncateAll(db);
  admin = userContext(await insertUser(db, { role: "ADMIN" }));
  dataDir = path.join(await tempDir("secrets"), "data");
  store = createSecretStore({ db, dataDir });
});

afterAll(async () => {
  await removeTempDirs();
  await db.$disconnect();
});

describe("secret store", () => {
  it("stores ciphertext only: the row holds neither the value nor its bytes, and a write of the same value changes the IV", async () => {
    const first = await store.put(admin, "DB_PASSWORD", VALUE);
    expect(first.created).toBe(true);
    expect(first.secret).toEqual({ name: "DB_PASSWORD", createdAt: expect.any(String) as string, updatedAt: expect.any(String) as string, usedBy: [] });
    expect(first.secret).not.toHaveProperty("value");
    const before = await db.secret.findUniqueOrThrow({ where: { name: "DB_PASSWORD" } });
    const raw = await db.$queryRaw<{ row: string }[]>`SELECT row_to_json(s)::text AS row FROM secrets s`;
    expect(raw).toHaveLength(1);
    expect(raw[0]!.row).not.toContain(VALUE);
    expect(raw[0]!.row).not.toContain(Buffer.from(VALUE).toString("hex"));
    expect(raw[0]!.row).not.toContain(Buffer.from(VALUE).toString("base64"));
    expect(Buffer.from(before.ciphertext).includes(Buffer.from(VALUE))).toBe(false);
    expect(before.iv).toHaveLength(12);
    expect(before.authTag).toHaveLength(16);
    expect(before.createdById).toBe(admin.actor.type === "user" ? admin.actor.userId : null);

    const second = await store.put(admin, "DB_PASSWORD", VALUE);
    expect(second.created).toBe(false);
    const after = await db.secret.findUniqueOrThrow({ where: { name: "DB_PASSWORD" } });
    expect(Buffer.from(after.iv).equals(Buffer.from(before.iv))).toBe(false);
    expect(after.createdAt).toEqual(before.createdAt);
    expect(after.updatedAt.getTime()).toBeGreaterThanOrEqual(before.updatedAt.getTime());
    expect(await store.resolve({ X: "${secret:DB_PASSWORD}" })).toEqual({ X: VALUE });
  });

  it("creates DATA_DIR/secrets.key (mode 0600) on first write only, and every store on that DATA_DIR uses it", async () => {
    const keyFile = path.join(dataDir, "secrets.key");
    expect(await store.list()).toEqual([]);
    expect(await store.values()).toEqual([]);
    expect(existsSync(keyFile)).toBe(false);

    await store.put(admin, "API_TOKEN", VALUE);
    const mode = (await stat(keyFile)).mode & 0o777;
    expect(mode.toString(8)).toBe("600");
    const key = parseSecretsKey(await readFile(keyFile, "utf8"));
    expect(key).not.toBeNull();
    const row = await db.secret.findUniqueOrThrow({ where: { name: "API_TOKEN" } });
    expect(row.keyId).toBe(keyIdOf(key!));

    // A second process on the same DATA_DIR reads the same key.
    const again = createSecretStore({ db, dataDir });
    expect(await again.values()).toEqual([VALUE]);
    // SECRETS_KEY set to the file's key: the same secrets.
    expect(await createSecretStore({ db, dataDir: await tempDir("secrets-other"), key: key! }).resolve({ T: "${secret:API_TOKEN}" })).toEqual({ T: VALUE });
  });

  it("uses SECRETS_KEY when it is set (no key file), and names the key mismatch when the key differs", async () => {
    const key = randomBytes(32);
    const withEnvKey = createSecretStore({ db, dataDir, key });
    await withEnvKey.put(admin, "API_TOKEN", VALUE);
    expect(existsSync(path.join(dataDir, "secrets.key"))).toBe(false);
    expect((await db.secret.findUniqueOrThrow({ where: { name: "API_TOKEN" } })).keyId).toBe(keyIdOf(key));
    expect(await withEnvKey.resolve({ T: "Bearer ${secret:API_TOKEN}" })).toEqual({ T: `Bearer ${VALUE}` });

    // Another key (here the key file, created on this first use): the row is refused, naming both key ids.
    const undecryptable: string[] = [];
    const withFileKey = createSecretStore({ db, dataDir, onUndecryptable: (_err, name) => undecryptable.push(name) });
    const err = await rejection(withFileKey.resolve({ T: "${secret:API_TOKEN}" }));
    expect(err).toBeInstanceOf(SecretKeyMismatchError);
    expect(err.message).toContain(`was encrypted with key ${keyIdOf(key)}, but the key in use is`);
    expect(err.message).toContain("SECRETS_KEY");
    // What cannot be decrypted is reported and left out of the values to scrub (it cannot reach a server either).
    expect(await withFileKey.values()).toEqual([]);
    expect(undecryptable).toEqual(["API_TOKEN"]);
  });

  it("audits create, update and delete by name and never holds the value", async () => {
    await store.put(admin, "DB_PASSWORD", VALUE);
    await store.put(admin, "DB_PASSWORD", `${VALUE}-2`);
    await store.remove(admin, "DB_PASSWORD");
    const events = await db.auditEvent.findMany({ where: { action: { startsWith: "secret." } }, orderBy: { id: "asc" } });
    expect(events.map((e) => ({ action: e.action, category: e.category, targetType: e.targetType, targetId: e.targetId, details: e.details, userId: e.userId }))).toEqual(
      ["secret.created", "secret.updated", "secret.deleted"].map((action) => ({
        action,
        category: "admin",
        targetType: "secret",
        targetId: "DB_PASSWORD",
        details: { name: "DB_PASSWORD" },
        userId: admin.actor.type === "user" ? admin.actor.userId : null,
      })),
    );
    const audit = await auditText(db);
    expect(audit).not.toContain(VALUE);
  });

  it("values() follows puts, replacements and deletes", async () => {
    expect(await store.values()).toEqual([]);
    await store.put(admin, "A_SECRET", "value-a-123456");
    await store.put(admin, "B_SECRET", "value-b-123456");
    expect((await store.values()).sort()).toEqual(["value-a-123456", "value-b-123456"]);
    await store.put(admin, "A_SECRET", "value-a-replaced");
    expect((await store.values()).sort()).toEqual(["value-a-replaced", "value-b-123456"]);
    await store.remove(admin, "B_SECRET");
    expect(await store.values()).toEqual(["value-a-replaced"]);
  });

  it("resolves several references per value and refuses unknown names (unknown_secret, 422), as assertKnown does", async () => {
    await store.put(admin, "DB_USER", "app");
    await store.put(admin, "DB_PASS", VALUE);
    expect(await store.resolve({ DATABASE_URL: "postgres://${secret:DB_USER}:${secret:DB_PASS}@db:5432/app", MODE: "ro" })).toEqual({
      DATABASE_URL: `postgres://app:${VALUE}@db:5432/app`,
      MODE: "ro",
    });
    expect(await store.resolve({ PLAIN: "x" })).toEqual({ PLAIN: "x" });

    const unknown = await rejection(store.resolve({ A: "${secret:DB_USER} ${secret:NOPE}" }));
    expect(unknown).toBeInstanceOf(GatewayError);
    expect(unknown).toMatchObject({ code: "unknown_secret", status: 422, details: { missing: ["NOPE"] } });

    await expect(store.assertKnown([{ A: "${secret:DB_USER}" }, { B: "${secret:DB_PASS}" }, {}])).resolves.toBeUndefined();
    const missing = await rejection(store.assertKnown([{ A: "${secret:DB_USER}" }, { B: "${secret:GONE}", C: "${secret:ALSO_GONE}" }]));
    expect(missing).toMatchObject({ code: "unknown_secret", details: { missing: ["GONE", "ALSO_GONE"] } });
    expect(missing.message).toContain("${secret:GONE}, ${secret:ALSO_GONE}");
  });

  it("lists usedBy from env, headers and task credentials, and refuses to delete a referenced secret (409 secret_in_use)", async () => {
    await store.put(admin, "DB_PASS", VALUE);
    await store.put(admin, "API_TOKEN", VALUE);
    await store.put(admin, "PG_ADMIN", VALUE);
    await store.put(admin, "UNUSED", VALUE);
    await insertServer(db, "orders", { env: { DATABASE_URL: "postgres://app:${secret:DB_PASS}@db/app" } });
    await insertServer(db, "crm", { headers: { authorization: "Bearer ${secret:API_TOKEN}" }, env: { X: "${secret:DB_PASS}" } });
    await insertServer(db, "warehouse", { taskCredentials: { provider: "postgres", adminSecret: "PG_ADMIN", schemas: ["public"] } });

    const list = await store.list();
    expect(list.map((s) => [s.name, s.usedBy])).toEqual([
      ["API_TOKEN", ["crm"]],
      ["DB_PASS", ["crm", "orders"]],
      ["PG_ADMIN", ["warehouse"]],
      ["UNUSED", []],
    ]);
    expect(JSON.stringify(list)).not.toContain(VALUE);

    for (const [name, servers] of [["DB_PASS", "the servers crm, orders"], ["API_TOKEN", "the server crm"], ["PG_ADMIN", "the server warehouse"]] as const) {
      const err = await rejection(store.remove(admin, name));
      expect(err).toMatchObject({ code: "secret_in_use", status: 409 });
      expect(err.message).toContain(`The secret ${name} is used by ${servers}`);
    }
    expect(await db.secret.count()).toBe(4);
    expect(await db.auditEvent.count({ where: { action: "secret.deleted" } })).toBe(0);

    // Once nothing references it, it can go.
    await db.upstreamServer.delete({ where: { slug: "warehouse" } });
    expect(await store.remove(admin, "PG_ADMIN")).toMatchObject({ name: "PG_ADMIN", usedBy: [] });
    expect(await store.remove(admin, "UNUSED")).toMatchObject({ name: "UNUSED" });
    expect((await store.list()).map((s) => s.name)).toEqual(["API_TOKEN", "DB_PASS"]);
  });

  it("answers not_found for a name that is not stored (or not a valid name), and refuses invalid input", async () => {
    expect(await rejection(store.remove(admin, "NOT_THERE"))).toMatchObject({ code: "not_found", status: 404 });
    expect(await rejection(store.remove(admin, "../x"))).toMatchObject({ code: "not_found" });
    expect((await rejection(store.put(admin, "lower_case", "v"))).name).toBe("ZodError");
    expect((await rejection(store.put(admin, "EMPTY", ""))).name).toBe("ZodError");
    expect((await rejection(store.put(admin, "TOO_LONG", "x".repeat(16_385)))).name).toBe("ZodError");
    expect(await db.secret.count()).toBe(0);
  });
});

describe("gateway.secrets", () => {
  it("scrubs stored values from what is logged and audited, from the moment put answers until the secret is deleted", async () => {
    const gw = await startTestGateway({ env: { DATA_DIR: dataDir, SECRETS_KEY: randomBytes(32).toString("base64") } });
    try {
      const planted = `scrub-me-${randomBytes(6).toString("hex")}`;
      expect(redactor().text(`value ${planted}`)).toBe(`value ${planted}`);
      const { created, secret } = await gw.gateway.secrets.put(admin, { name: "SCRUBBED", value: planted });
      expect(created).toBe(true);
      expect(secret.name).toBe("SCRUBBED");
      expect(redactor().text(`value ${planted}`)).not.toContain(planted);
      expect(await gw.gateway.secrets.values()).toEqual([planted]);
      expect(await gw.gateway.secrets.resolve({ K: "${secret:SCRUBBED}" })).toEqual({ K: planted });
      await gw.gateway.secrets.assertKnown([{ K: "${secret:SCRUBBED}" }]);
      expect((await gw.gateway.secrets.list()).map((s) => s.name)).toEqual(["SCRUBBED"]);

      await gw.gateway.secrets.remove(admin, "SCRUBBED");
      await waitUntil("the redactor to drop the deleted value", () => redactor().text(planted) === planted);
      expect(existsSync(path.join(dataDir, "secrets.key"))).toBe(false);
    } finally {
      await gw.close();
    }
  });
});
