// Encrypted secrets in the `secrets` table: admins store and delete them (audited by name, never by value);
// upstream launches resolve `${secret:NAME}` references; the redactor scrubs every decrypted value.
// The key is read (or the key file created) on first need, so a gateway with no secrets never touches it.
import type { TSecret } from "../../lib/secret-schemas";
import { ZPutSecret, ZSecretName } from "../../lib/secret-schemas";
import { recordAudit } from "../audit/record-audit";
import { actorUserId, type RequestContext } from "../context";
import type { Db, DbTx } from "../db/client";
import { GatewayError, notFound } from "../errors";
import { publishChange } from "../events/change-bus";
import { decryptSecret, encryptSecret, loadOrCreateKeyFile, secretKey, type SealedSecret, type SecretKey } from "./secret-crypto";
import { resolveSecretRefs, secretRefsIn, unknownSecrets } from "./secret-refs";

export type SecretStore = {
  /** Names, dates and the servers that use each; never values. */
  list(): Promise<TSecret[]>;
  /** Stores a new secret or replaces a value (audited as secret.created / secret.updated). */
  put(ctx: RequestContext, name: string, value: string): Promise<{ secret: TSecret; created: boolean }>;
  /** 404 when absent, 409 secret_in_use while a server references it (audited as secret.deleted). */
  remove(ctx: RequestContext, name: string): Promise<TSecret>;
  /** `map` with its `${secret:NAME}` references replaced; unknown_secret (422) for a name that is not stored. */
  resolve(map: Record<string, string>): Promise<Record<string, string>>;
  /** Throws unknown_secret listing every referenced name that is not stored. */
  assertKnown(maps: readonly Record<string, string>[]): Promise<void>;
  /** Every value that can be decrypted, for scrubbing logs and audit rows. */
  values(): Promise<string[]>;
  /**
   * Seals a value the gateway holds for itself (upstream OAuth tokens, PKCE verifiers) in a row named
   * `upstream:…`, hidden from list(); returns the row's id. The caller publishes the `secrets` change.
   */
  seal(tx: DbTx, name: string, value: string): Promise<string>;
  /** The value of a sealed row by id; null when the row is gone. */
  unseal(id: string): Promise<string | null>;
  /** Deletes sealed rows by id (tokens of a disconnected connection, a used verifier). */
  drop(tx: DbTx, ids: readonly (string | null | undefined)[]): Promise<void>;
};

/** Names of rows the gateway seals for itself; admins' names (ZSecretName) cannot start so. */
export const INTERNAL_SECRET_PREFIX = "upstream:";

export type SecretStoreDeps = {
  db: Db;
  dataDir: string;
  /** SECRETS_KEY; when unset the key lives in `dataDir/secrets.key`. */
  key?: Buffer | undefined;
  /** A row that cannot be decrypted (another key, altered) while collecting values. */
  onUndecryptable?: (err: unknown, name: string) => void;
};

type Row = { name: string; ciphertext: Uint8Array; iv: Uint8Array; authTag: Uint8Array; keyId: string };
type Meta = { name: string; createdAt: Date; updatedAt: Date };

/** Prisma's Bytes columns take a Uint8Array over a plain ArrayBuffer (a copy of the Buffer's bytes). */
const columnsOf = (s: SealedSecret) => ({ ciphertext: new Uint8Array(s.ciphertext), iv: new Uint8Array(s.iv), authTag: new Uint8Array(s.authTag), keyId: s.keyId });
const sealedOf = (r: Row): SealedSecret => ({ ciphertext: Buffer.from(r.ciphertext), iv: Buffer.from(r.iv), authTag: Buffer.from(r.authTag), keyId: r.keyId });
const dto = (r: Meta, usage: Map<string, string[]>): TSecret => ({ name: r.name, createdAt: r.createdAt.toISOString(), updatedAt: r.updatedAt.toISOString(), usedBy: usage.get(r.name) ?? [] });
const strings = (v: unknown): Record<string, string> =>
  v && typeof v === "object" && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).filter((e): e is [string, string] => typeof e[1] === "string")) : {};

/**
 * Secret name → slugs of the servers that use it: in env or header values (the server's and its canary
 * version's launch), or as the admin secret of per-task credentials.
 */
export async function secretUsage(db: DbTx): Promise<Map<string, string[]>> {
  const servers = await db.upstreamServer.findMany({
    select: { slug: true, env: true, headers: true, taskCredentials: true, canaryVersion: { select: { launch: true } } },
    orderBy: { slug: "asc" },
  });
  const usage = new Map<string, string[]>();
  for (const s of servers) {
    const launch = s.canaryVersion?.launch;
    const canary = launch && typeof launch === "object" && !Array.isArray(launch) ? launch : {};
    const names = new Set([s.env, s.headers, canary.env, canary.headers].map(strings).flatMap(secretRefsIn));
    const admin = strings(s.taskCredentials).adminSecret;
    if (admin) names.add(admin);
    for (const n of names) usage.set(n, [...(usage.get(n) ?? []), s.slug]);
  }
  return usage;
}

export function createSecretStore(deps: SecretStoreDeps): SecretStore {
  const { db } = deps;
  let keyPromise: Promise<SecretKey> | undefined;
  const key = (): Promise<SecretKey> => {
    if (!keyPromise) {
      const p = (deps.key ? Promise.resolve(deps.key) : loadOrCreateKeyFile(deps.dataDir)).then(secretKey);
      // A failure (an unreadable DATA_DIR, say) is not remembered: the next use tries again.
      p.catch(() => {
        if (keyPromise === p) keyPromise = undefined;
      });
      keyPromise = p;
    }
    return keyPromise;
  };
  const secretRows = (where: { name: { in: string[] } } | undefined) =>
    db.secret.findMany({ ...(where && { where }), select: { name: true, ciphertext: true, iv: true, authTag: true, keyId: true } });

  return {
    async list() {
      const [rows, usage] = await Promise.all([
        db.secret.findMany({ where: { NOT: { name: { startsWith: INTERNAL_SECRET_PREFIX } } }, select: { name: true, createdAt: true, updatedAt: true }, orderBy: { name: "asc" } }),
        secretUsage(db),
      ]);
      return rows.map((r) => dto(r, usage));
    },

    async put(ctx, name, value) {
      const input = ZPutSecret.parse({ name, value });
      const sealed = columnsOf(encryptSecret(await key(), input.name, input.value));
      return db.$transaction(async (tx) => {
        const existing = await tx.secret.findUnique({ where: { name: input.name }, select: { id: true } });
        const row = await tx.secret.upsert({
          where: { name: input.name },
          create: { name: input.name, ...sealed, createdById: actorUserId(ctx) ?? null },
          update: sealed,
          select: { name: true, createdAt: true, updatedAt: true },
        });
        await recordAudit(tx, ctx, { action: existing ? "secret.updated" : "secret.created", targetType: "secret", targetId: input.name, details: { name: input.name } });
        await publishChange(tx, { kind: "secrets" });
        return { secret: dto(row, await secretUsage(tx)), created: !existing };
      });
    },

    async remove(ctx, name) {
      if (!ZSecretName.safeParse(name).success) throw notFound(`The secret ${name}`);
      return db.$transaction(async (tx) => {
        const row = await tx.secret.findUnique({ where: { name }, select: { name: true, createdAt: true, updatedAt: true } });
        if (!row) throw notFound(`The secret ${name}`);
        const usage = await secretUsage(tx);
        const usedBy = usage.get(name) ?? [];
        if (usedBy.length) {
          throw new GatewayError("secret_in_use", `The secret ${name} is used by ${usedBy.length === 1 ? "the server" : "the servers"} ${usedBy.join(", ")}: remove the references first.`, { usedBy });
        }
        await tx.secret.delete({ where: { name } });
        await recordAudit(tx, ctx, { action: "secret.deleted", targetType: "secret", targetId: name, details: { name } });
        await publishChange(tx, { kind: "secrets" });
        return dto(row, usage);
      });
    },

    async resolve(map) {
      const names = secretRefsIn(map);
      if (!names.length) return { ...map };
      const rows = await secretRows({ name: { in: names } });
      const k = rows.length ? await key() : null;
      const byName = new Map(rows.map((r) => [r.name, r]));
      return resolveSecretRefs(map, (n) => {
        const r = byName.get(n);
        return r && k ? decryptSecret(k, n, sealedOf(r)) : undefined;
      });
    },

    async assertKnown(maps) {
      const names = [...new Set(maps.flatMap(secretRefsIn))];
      if (!names.length) return;
      const found = new Set((await db.secret.findMany({ where: { name: { in: names } }, select: { name: true } })).map((r) => r.name));
      const missing = names.filter((n) => !found.has(n));
      if (missing.length) throw unknownSecrets(missing);
    },

    async values() {
      const rows = await secretRows(undefined);
      if (!rows.length) return [];
      const k = await key();
      return rows.flatMap((r) => {
        try {
          return [decryptSecret(k, r.name, sealedOf(r))];
        } catch (err) {
          // It cannot reach a server either (resolve fails on it), so there is nothing of it to scrub.
          deps.onUndecryptable?.(err, r.name);
          return [];
        }
      });
    },

    async seal(tx, name, value) {
      if (!name.startsWith(INTERNAL_SECRET_PREFIX)) throw new Error(`a sealed row's name starts with ${INTERNAL_SECRET_PREFIX}`);
      const sealed = columnsOf(encryptSecret(await key(), name, value));
      const row = await tx.secret.create({ data: { name, ...sealed }, select: { id: true } });
      return row.id;
    },

    async unseal(id) {
      const row = await db.secret.findUnique({ where: { id }, select: { name: true, ciphertext: true, iv: true, authTag: true, keyId: true } });
      return row ? decryptSecret(await key(), row.name, sealedOf(row)) : null;
    },

    async drop(tx, ids) {
      const present = ids.filter((id): id is string => typeof id === "string");
      if (present.length) await tx.secret.deleteMany({ where: { id: { in: present }, name: { startsWith: INTERNAL_SECRET_PREFIX } } });
    },
  };
}
