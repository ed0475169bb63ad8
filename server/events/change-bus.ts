// Cross-process change notifications over PostgreSQL LISTEN/NOTIFY: a registry change in one gateway
// process reaches every process (including itself) within milliseconds.
import { HOT_PATH_POOLS } from "../db/connection-budget";
import { retryUntilUp } from "../db/retry-until-up";
import { randomUUID } from "node:crypto";
import { EventEmitter } from "node:events";
import pg from "pg";
// pino's type, not ../logger: the logger redacts through audit/, which publishes on this bus.
import type { Logger } from "pino";
import type { DbTx } from "../db/client";

const CHANNEL = "portcullis_changes";
const LISTEN = `LISTEN ${CHANNEL}`;

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
  /**
   * An account was connected for an upstream that authenticates its callers: a process whose connect to it failed
   * (nobody had connected the account it lists the server with) tries again now, not at its next backoff step.
   */
  | { kind: "upstream_account"; serverId: string }
  /** A secret was stored, replaced or deleted: every process reloads the values its redactor scrubs. */
  | { kind: "secrets" }
  /** An approval request was made or changed state: approvers' open consoles refresh their queue. */
  | { kind: "approval"; approvalId: string; status: string }
  /** A virtual server was created, changed or deleted: every process drops its cached view of it. */
  | { kind: "virtual_server"; name: string }
  /** An MRTR retry that reached another process than the one holding its call (forward-retry.ts); checked there. */
  | { kind: "mrtr-retry"; holder: string; continuationId: string; retryId: string; message: unknown; binding: unknown }
  /** The holding process's answer to a forwarded retry, part by part, for the process the client waits on. */
  | { kind: "mrtr-out"; retryId: string; out: unknown }
  /** Asks every listening process to answer `fenced` once it has handled everything committed before it. */
  | { kind: "fence"; fenceId: string }
  /** A process's answer to a fence: it has handed every change committed before the fence to its subscribers. */
  | { kind: "fenced"; fenceId: string; busId: string }
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
  /**
   * Runs `fn` (which publishes a change, usually at its transaction's commit) and resolves once every process
   * listening on the bus has handed it to its subscribers (its caches have dropped what it changed), so the next
   * call anywhere sees the change.
   */
  heardEverywhere<T>(fn: () => Promise<T>): Promise<T>;
  close(): Promise<void>;
};

/** The application_name of every bus's listening connection: pg_stat_activity names the processes to wait for. */
const LISTENER_NAME = "portcullis-bus ";
/** How long a change waits for a process that does not confirm it (stalled); it is then logged. */
const FENCE_TIMEOUT_MS = 5000;

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
/** `listenUrl`: where the LISTEN connection goes (a real session; DATABASE_DIRECT_URL behind a transaction pooler). */
export function createChangeBus(databaseUrl: string, logger: Logger, listenUrl: string = databaseUrl): ChangeBus {
  const busId = randomUUID();
  const emitter = new EventEmitter().setMaxListeners(0);
  const reassemble = createReassembler();
  const pool = new pg.Pool({ connectionString: databaseUrl, max: HOT_PATH_POOLS.busPublish });
  // An idle connection the server ends (PostgreSQL restarting or stopping) must not crash the process.
  pool.on("error", () => undefined);
  let listener: pg.Client | undefined;
  let closed = false;

  async function listen() {
    const client = new pg.Client({ connectionString: listenUrl, application_name: `${LISTENER_NAME}${busId}` });
    client.on("notification", (msg) => {
      if (msg.channel !== CHANNEL || !msg.payload) return;
      try {
        const payload = reassemble(msg.payload);
        if (payload === undefined) return;
        const event = JSON.parse(payload) as ChangeEvent;
        emitter.emit("change", event);
        // Notifications arrive in commit order and subscribers run synchronously: everything committed before
        // this fence has been handled here.
        if (event.kind === "fence") {
          publish({ kind: "fenced", fenceId: event.fenceId, busId }).catch((err: unknown) => logger.warn({ err }, "could not answer a change-bus fence"));
        }
      } catch (err) {
        logger.warn({ err }, "ignored a malformed change notification");
      }
    });
    client.on("error", (err) => {
      logger.warn({ err }, "change bus connection failed; reconnecting");
      if (listener === client) listener = undefined;
      emitter.emit("change", { kind: "listening", listening: false } satisfies ChangeEvent);
      relisten();
    });
    try {
      await client.connect();
      await client.query(LISTEN);
    } catch (err) {
      await client.end().catch(() => undefined);
      throw err;
    }
    if (closed) return void (await client.end().catch(() => undefined));
    listener = client;
    relistening.reset();
    // Anything may have changed while we were not listening.
    emitter.emit("change", { kind: "listening", listening: true } satisfies ChangeEvent);
    emitter.emit("change", { kind: "registry" } satisfies ChangeEvent);
  }
  // Listening again after the connection is lost, until it works (retry-until-up.ts).
  const relistening = retryUntilUp(listen, { closed: () => closed, onFailure: (err, attempt) => logger.warn({ err, attempt }, "change bus could not listen yet; retrying") });
  const relisten = relistening.schedule;
  const ready = listen().catch((err: unknown) => {
    logger.error({ err }, "change bus could not listen; retrying");
    relisten();
  });

  async function publish(event: ChangeEvent) {
    const parts = splitPayload(JSON.stringify(event));
    // One statement, one transaction: PostgreSQL delivers its notifications together and in order.
    await pool.query(`SELECT ${parts.map((_, i) => `pg_notify($1, $${String(i + 2)})`).join(", ")}`, [CHANNEL, ...parts]);
  }

  /**
   * The buses listening on this database now, by id: a process that stopped drops out with its connection, and
   * one whose connection has not run LISTEN yet is left out (its caches serve nothing until it has).
   */
  async function listeners(): Promise<Set<string>> {
    const { rows } = await pool.query<{ id: string }>(
      "SELECT substr(application_name, $1::int) AS id FROM pg_stat_activity WHERE datname = current_database() AND starts_with(application_name, $2) AND query = $3",
      [LISTENER_NAME.length + 1, LISTENER_NAME, LISTEN],
    );
    return new Set(rows.map((r) => r.id));
  }

  const subscribe = (fn: (event: ChangeEvent) => void) => {
    emitter.on("change", fn);
    return () => void emitter.off("change", fn);
  };

  return {
    publish,
    subscribe,
    async heardEverywhere(fn) {
      const out = await fn();
      // A fence after fn's commit, answered by each listener: PostgreSQL delivers to every listener in commit
      // order, so an answer means that process has handled fn's change. Who must answer is read after the
      // commit: a process listening at the commit is named (unless it stopped since: a lost listener's caches
      // serve nothing); one that starts listening later begins with empty caches.
      const fenceId = randomUUID();
      const answered = new Set<string>();
      let wake = () => {};
      const unsubscribe = subscribe((e) => {
        if (e.kind !== "fenced" || e.fenceId !== fenceId) return;
        answered.add(e.busId);
        wake();
      });
      try {
        let waiting = await listeners();
        await publish({ kind: "fence", fenceId });
        const until = Date.now() + FENCE_TIMEOUT_MS;
        const pending = () => [...waiting].filter((id) => !answered.has(id));
        while (pending().length && Date.now() < until) {
          const woken = await new Promise<boolean>((resolve) => {
            const timer = setTimeout(() => resolve(false), 250);
            wake = () => {
              clearTimeout(timer);
              resolve(true);
            };
          });
          // A process that stopped never answers: after a quiet spell, wait only for those still listening.
          if (!woken) {
            const live = await listeners();
            waiting = new Set([...waiting].filter((id) => live.has(id)));
          }
        }
        if (pending().length) logger.warn({ buses: pending() }, "gateway processes did not confirm a change within the fence timeout; their caches may serve the old state until their TTL");
        return out;
      } finally {
        unsubscribe();
      }
    },
    async close() {
      closed = true;
      relistening.cancel();
      await ready;
      await listener?.end().catch(() => undefined);
      await pool.end();
    },
  };
}
