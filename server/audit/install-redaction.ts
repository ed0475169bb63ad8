// Loading the redaction settings into the process's redactor (redaction.ts), and saving them. Apart from
// redaction.ts because it listens on the change bus, and the bus logs through the logger, which redacts: the
// redactor itself must depend on neither.
import { randomBytes } from "node:crypto";
import { ZRedactionSettings, type TRedactionSettings } from "../../lib/redaction-schemas";
import type { Db } from "../db/client";
import type { ChangeBus } from "../events/change-bus";
import { publishChange } from "../events/change-bus";
import { buildRedactor, loadRedactionSettings, REDACTION_SETTINGS_KEY, setProcessRedactors } from "./redaction";

const KEY_SETTING = "audit.redaction.key";

async function hmacKey(db: Db): Promise<Buffer> {
  const fresh = randomBytes(32).toString("base64");
  // The first process to get here creates it; every other one reads the same key.
  await db.$executeRaw`INSERT INTO settings (key, value, "updatedAt") VALUES (${KEY_SETTING}, to_jsonb(${fresh}::text), now()) ON CONFLICT (key) DO NOTHING`;
  const row = await db.setting.findUniqueOrThrow({ where: { key: KEY_SETTING } });
  if (typeof row.value !== "string") throw new Error(`the setting ${KEY_SETTING} is not a string`);
  return Buffer.from(row.value, "base64");
}

/** Values of upstream servers' environment and headers: credentials the gateway hands out, never to be logged. */
async function knownSecrets(db: Db, extra: readonly string[]): Promise<string[]> {
  const servers = await db.upstreamServer.findMany({ select: { env: true, headers: true } });
  const values = servers.flatMap((s) => [...Object.values((s.env ?? {}) as Record<string, unknown>), ...Object.values((s.headers ?? {}) as Record<string, unknown>)]);
  return [...values.filter((v): v is string => typeof v === "string"), ...extra];
}

/** Stored secrets that cannot be decrypted (the key unreadable, say) cannot reach a server either: nothing to scrub. */
const storedSecretValues = (deps: { secretValues?: () => Promise<string[]>; onError?: (err: unknown) => void }): Promise<string[]> =>
  deps.secretValues?.().catch((err: unknown) => {
    deps.onError?.(err);
    return [];
  }) ?? Promise.resolve([]);

/**
 * Loads the settings, key and known secrets into the process's redactor, and reloads them on every `redaction`,
 * `registry` or `secrets` change. Resolves once the first load is done.
 */
export function installRedaction(deps: {
  db: Db;
  bus: ChangeBus;
  secrets?: readonly string[];
  /** The decrypted values of stored secrets (server/secrets), reloaded on every `secrets` change. */
  secretValues?: () => Promise<string[]>;
  onError?: (err: unknown) => void;
}): {
  ready: Promise<void>;
  /** Loads again now (this process; the others reload on the change event). */
  reload(): Promise<void>;
  close(): void;
} {
  const load = async () => {
    const [settings, key, secrets, stored] = await Promise.all([loadRedactionSettings(deps.db), hmacKey(deps.db), knownSecrets(deps.db, deps.secrets ?? []), storedSecretValues(deps)]);
    setProcessRedactors(buildRedactor(settings, { key, secrets: [...secrets, ...stored] }), buildRedactor(settings, { key }));
  };
  const reload = () => void load().catch((err: unknown) => deps.onError?.(err));
  const unsubscribe = deps.bus.subscribe((e) => {
    if (e.kind === "redaction" || e.kind === "registry" || e.kind === "secrets") reload();
  });
  return { ready: load().catch((err: unknown) => deps.onError?.(err)), reload: load, close: unsubscribe };
}

/** Admin: the redaction settings (saved, then every process reloads them). */
export async function saveRedactionSettings(db: Db, userId: string | null, settings: TRedactionSettings): Promise<TRedactionSettings> {
  const value = ZRedactionSettings.parse(settings);
  await db.$transaction(async (tx) => {
    await tx.setting.upsert({ where: { key: REDACTION_SETTINGS_KEY }, create: { key: REDACTION_SETTINGS_KEY, value, updatedById: userId }, update: { value, updatedById: userId } });
    await publishChange(tx, { kind: "redaction" });
  });
  return value;
}
