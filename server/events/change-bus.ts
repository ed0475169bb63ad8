// Cross-process change notifications over PostgreSQL LISTEN/NOTIFY: a registry change in one gateway
// process reaches every process (including itself) within milliseconds.
import { randomUUID } from "node:crypto";
import { EventEmitter } from "node:events";
import pg from "pg";
// pino's type, not ../logger: the logger redacts through audit/, which publishes on this bus.
import type { Logger } from "pino";
import type { DbTx } from "../db/client";

const CHANNEL = "portcullis_changes";

export type ChangeEvent =
  | { kind: "registry"; serverId?: string | undefined }
  | { kind: "cancel"; mcpSessionId: string; requestId: string | number; reason?: string | undefined }
  /** A message from an agent for the process that holds its transparent session's upstream (responses, notifications). */
  | { kind: "session-in"; mcpSessionId: string; message: unknown }
  /** A message for an agent's GET stream, wherever that stream is held. */
  | { kind: "session-out"; mcpSessionId: string; message: unknown }
  | { kind: "session-closed"; mcpSessionId: string }
  /** A personal API token was revoked: every process drops it from its token cache. */
  | { kind: "api_token"; tokenId: string }
  /** A user's role or disabled flag changed: cached tokens of that user are dropped. */
  | { kind: "user"; userId: string }
  /** An agent session token was revoked: every process drops it from its session cache. */
  | { kind: "agent_session"; sessionId: string }
  /** Grants, parameter rules or session settings changed: every process reloads its policy snapshot. */
  | { kind: "policy" }
  /** A task changed state (submitted, started, finished, canceled): a canceled one is aborted where it runs. */
  | { kind: "task"; taskId: string; status: string }
  /** Redaction settings changed: every process reloads its redactor. */
  | { kind: "redaction" }
  /** A secret was stored, replaced or deleted: every process reloads the values its redactor scrubs. */
  | { kind: "secrets" }
  /** An approval request was made or changed state: approvers' open consoles refresh their queue. */
  | { kind: "approval"; approvalId: string; status: string }
  /**
   * Local only, never published: whether this process is listening. While it is not, invalidations can be
   * missed, so caches must not serve; once it listens again they start empty.
   */
  | { kind: "listening"; listening: boolean };

/**
 * Publishes a small event through `db` (a client or a transaction). Inside a transaction PostgreSQL delivers
 * it at commit and only if the transaction commits, so a change and the invalidation it causes cannot part.
 */
export async function publishChange(db: DbTx, event: ChangeEvent): Promise<void> {
  await db.$executeRaw`SELECT pg_notify(${CHANNEL}, ${JSON.stringify(event)})`;
}

export type ChangeBus = {
  publish(event: ChangeEvent): Promise<void>;
  subscribe(fn: (event: ChangeEvent) => void): () => void;
  close(): Promise<void>;
};

// NOTIFY payloads must stay under 8000 bytes: larger events travel as numbered chunks of one transaction.
const CHUNK_CHARS = 2000; // a chunk re-escaped as JSON is at most 3 bytes per character: < 8000 bytes
export const MAX_EVENT_CHARS = 4 * 1024 * 1024;
const CHUNK_PREFIX = "\u0000chunk:";

export function splitPayload(payload: string): string[] {
  if (payload.length <= CHUNK_CHARS) return [payload];
  if (payload.length > MAX_EVENT_CHARS) throw new Error(`change event of ${String(payload.length)} characters exceeds ${String(MAX_EVENT_CHARS)}`);
  const id = randomUUID();
  const n = Math.ceil(payload.length / CHUNK_CHARS);
  return Array.from({ length: n }, (_, i) => `${CHUNK_PREFIX}${JSON.stringify([id, i, n, payload.slice(i * CHUNK_CHARS, (i + 1) * CHUNK_CHARS)])}`);
}

/**
 * A reassembler for one listener: returns the whole payload once its last chunk arrived, undefined while
 * chunks are missing. Each bus has its own, since every listening connection receives every chunk.
 */
export function createReassembler(): (raw: string) => string | undefined {
  const pending = new Map<string, { parts: (string | undefined)[]; got: number; at: number }>();
  return (raw) => {
    if (!raw.startsWith(CHUNK_PREFIX)) return raw;
    const [id, i, n, part] = JSON.parse(raw.slice(CHUNK_PREFIX.length)) as [string, number, number, string];
    const now = Date.now();
    for (const [k, v] of pending) if (now - v.at > 60_000) pending.delete(k);
    const entry = pending.get(id) ?? { parts: new Array<string | undefined>(n), got: 0, at: now };
    pending.set(id, entry);
    if (entry.parts[i] === undefined) entry.got++;
    entry.parts[i] = part;
    if (entry.got < n) return undefined;
    pending.delete(id);
    return entry.parts.join("");
  };
}

/** Starts listening in the background; events published before the listener is up still reach it once it is. */
export function createChangeBus(databaseUrl: string, logger: Logger): ChangeBus {
  const emitter = new EventEmitter().setMaxListeners(0);
  const reassemble = createReassembler();
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
  // An idle connection the server ends (PostgreSQL restarting or stopping) must not crash the process.
  pool.on("error", () => undefined);
  let listener: pg.Client | undefined;
  let closed = false;

  async function listen() {
    const client = new pg.Client({ connectionString: databaseUrl });
    client.on("notification", (msg) => {
      if (msg.channel !== CHANNEL || !msg.payload) return;
      try {
        const payload = reassemble(msg.payload);
        if (payload !== undefined) emitter.emit("change", JSON.parse(payload) as ChangeEvent);
      } catch (err) {
        logger.warn({ err }, "ignored a malformed change notification");
      }
    });
    client.on("error", (err) => {
      logger.warn({ err }, "change bus connection failed; reconnecting");
      listener = undefined;
      emitter.emit("change", { kind: "listening", listening: false } satisfies ChangeEvent);
      if (!closed) setTimeout(() => void listen().catch(() => undefined), 1000).unref();
    });
    await client.connect();
    await client.query(`LISTEN ${CHANNEL}`);
    listener = client;
    // Anything may have changed while we were not listening.
    emitter.emit("change", { kind: "listening", listening: true } satisfies ChangeEvent);
    emitter.emit("change", { kind: "registry" } satisfies ChangeEvent);
  }
  const ready = listen().catch((err: unknown) => {
    logger.error({ err }, "change bus could not listen; retrying");
    if (!closed) setTimeout(() => void listen().catch(() => undefined), 1000).unref();
  });

  return {
    async publish(event) {
      const parts = splitPayload(JSON.stringify(event));
      // One statement, one transaction: PostgreSQL delivers its notifications together and in order.
      await pool.query(`SELECT ${parts.map((_, i) => `pg_notify($1, $${String(i + 2)})`).join(", ")}`, [CHANNEL, ...parts]);
    },
    subscribe(fn) {
      emitter.on("change", fn);
      return () => emitter.off("change", fn);
    },
    async close() {
      closed = true;
      await ready;
      await listener?.end().catch(() => undefined);
      await pool.end();
    },
  };
}

/**
 * Runs `fn` (which publishes a change, usually at its transaction's commit) and resolves once this process has
 * heard the change back from PostgreSQL (or after `timeoutMs`), plus `graceMs`. Each listening backend forwards
 * the NOTIFY to its own client, and under load another process's copy can trail ours by a few milliseconds:
 * the grace covers that, so a caller told "revoked" can count on the next call anywhere being refused. (It
 * narrows the window rather than proving it shut; acknowledgements from every listener would prove it.)
 */
export async function afterEcho<T>(
  bus: ChangeBus,
  heard: (e: ChangeEvent) => boolean,
  fn: () => Promise<T>,
  { timeoutMs = 2000, graceMs = 100 }: { timeoutMs?: number; graceMs?: number } = {},
): Promise<T> {
  let done = () => {};
  const echo = new Promise<void>((resolve) => (done = resolve));
  const unsubscribe = bus.subscribe((e) => heard(e) && done());
  try {
    const out = await fn();
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([echo, new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs)))]);
    clearTimeout(timer);
    await new Promise((resolve) => setTimeout(resolve, graceMs));
    return out;
  } finally {
    unsubscribe();
  }
}
