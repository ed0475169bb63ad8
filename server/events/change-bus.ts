// Cross-process change notifications over PostgreSQL LISTEN/NOTIFY: a registry change in one gateway
// process reaches every process (including itself) within milliseconds.
import { EventEmitter } from "node:events";
import pg from "pg";
import type { Logger } from "../logger";

const CHANNEL = "portcullis_changes";

export type ChangeEvent =
  | { kind: "registry"; serverId?: string | undefined }
  | { kind: "cancel"; mcpSessionId: string; requestId: string | number };

export type ChangeBus = {
  publish(event: ChangeEvent): Promise<void>;
  subscribe(fn: (event: ChangeEvent) => void): () => void;
  close(): Promise<void>;
};

/** Starts listening in the background; events published before the listener is up still reach it once it is. */
export function createChangeBus(databaseUrl: string, logger: Logger): ChangeBus {
  const emitter = new EventEmitter().setMaxListeners(0);
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
  let listener: pg.Client | undefined;
  let closed = false;

  async function listen() {
    const client = new pg.Client({ connectionString: databaseUrl });
    client.on("notification", (msg) => {
      if (msg.channel !== CHANNEL || !msg.payload) return;
      try {
        emitter.emit("change", JSON.parse(msg.payload) as ChangeEvent);
      } catch (err) {
        logger.warn({ err }, "ignored a malformed change notification");
      }
    });
    client.on("error", (err) => {
      logger.warn({ err }, "change bus connection failed; reconnecting");
      listener = undefined;
      if (!closed) setTimeout(() => void listen().catch(() => undefined), 1000).unref();
    });
    await client.connect();
    await client.query(`LISTEN ${CHANNEL}`);
    listener = client;
    // Anything may have changed while we were not listening.
    emitter.emit("change", { kind: "registry" } satisfies ChangeEvent);
  }
  const ready = listen().catch((err: unknown) => {
    logger.error({ err }, "change bus could not listen; retrying");
    if (!closed) setTimeout(() => void listen().catch(() => undefined), 1000).unref();
  });

  return {
    async publish(event) {
      await pool.query("SELECT pg_notify($1, $2)", [CHANNEL, JSON.stringify(event)]);
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
