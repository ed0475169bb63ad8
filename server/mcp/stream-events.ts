// Streamable HTTP resumability across processes. Every event written on a POST's SSE stream is stored in
// PostgreSQL first (the SDK transport's EventStore); the stream opens with a priming event (an id, no data)
// and a retry hint. A client that lost the stream sends GET with Last-Event-ID to any gateway process, which
// replays what followed and keeps following the stream until its answer has been sent.
import type { EventStore } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import type { Db } from "../db/client";

/** How long stored events can be resumed. */
export const STREAM_EVENT_TTL_MS = 60 * 60_000;
/** How long a resumed stream follows a request that is still running. */
const FOLLOW_FOR_MS = 5 * 60_000;
const POLL_MS = 200;
/** The retry hint (ms) sent in the priming event. */
export const SSE_RETRY_MS = 1_000;

let storedSinceSweep = 0;

/**
 * jsonb refuses `\u0000` and lone surrogate escapes, which JSON.stringify writes for NUL and lone surrogates in
 * a message (an id "\u0000", a tool's echo of its arguments): such a message is stored as its JSON text inside
 * `{ "$json": … }`, where those escapes are plain characters. Storing it must not fail: the answer of a request
 * that cannot be stored is never sent, and its stream never ends.
 */
const WRAPPED = "$json";
const storable = (json: string) => (/\\u0000|\\ud[89a-f]/i.test(json) ? JSON.stringify({ [WRAPPED]: json }) : json);
const unwrap = (stored: unknown): unknown =>
  typeof stored === "object" && stored !== null && typeof (stored as Record<string, unknown>)[WRAPPED] === "string" && Object.keys(stored).length === 1
    ? (JSON.parse((stored as Record<string, string>)[WRAPPED]!) as unknown)
    : stored;

export function createStreamEventStore(db: Db, mcpSessionId: string): EventStore {
  return {
    async storeEvent(streamId, message) {
      // The stored copy (served only to a client that resumes) is made storable: an answer echoing a NUL or a
      // lone surrogate would otherwise fail its store, and the SDK would never send it.
      const [row] = await db.$queryRaw<{ id: bigint }[]>`
        INSERT INTO mcp_stream_events ("mcpSessionId", "streamId", message) VALUES (${mcpSessionId}, ${streamId}, ${storable(JSON.stringify(message))}::jsonb) RETURNING id`;
      if (++storedSinceSweep >= 1000) {
        storedSinceSweep = 0;
        void db.mcpStreamEvent.deleteMany({ where: { createdAt: { lt: new Date(Date.now() - STREAM_EVENT_TTL_MS) } } }).catch(() => undefined);
      }
      return String(row!.id);
    },
    // Replay is served by resumeStream below (it must follow events other processes are still writing).
    replayEventsAfter() {
      return Promise.reject(new Error("replay is served by resumeStream"));
    },
  };
}

const isAnswer = (m: unknown) => typeof m === "object" && m !== null && "id" in m && ("result" in m || "error" in m);
const isPriming = (m: unknown) => typeof m === "object" && m !== null && Object.keys(m).length === 0;

/**
 * The SSE response for GET with Last-Event-ID: the events stored after it on the same stream of the same
 * session, then new ones as they are stored, until the stream's answer has gone out. Null when the id is not
 * an event of this session (the caller answers 404).
 */
export async function resumeStream(db: Db, mcpSessionId: string, lastEventId: string, signal: AbortSignal): Promise<Response | null> {
  if (!/^\d{1,18}$/.test(lastEventId)) return null;
  const from = await db.mcpStreamEvent.findUnique({ where: { id: BigInt(lastEventId) }, select: { streamId: true, mcpSessionId: true } });
  if (!from || from.mcpSessionId !== mcpSessionId) return null;
  const encoder = new TextEncoder();
  let cursor = BigInt(lastEventId);
  const until = Date.now() + FOLLOW_FOR_MS;
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      // Headers go out with the first bytes: a comment sends them now, not when the first event is found.
      controller.enqueue(encoder.encode(": resumed\n\n"));
    },
    async pull(controller) {
      while (!signal.aborted && Date.now() < until) {
        const rows = await db.mcpStreamEvent.findMany({ where: { streamId: from.streamId, id: { gt: cursor } }, orderBy: { id: "asc" }, take: 100 });
        for (const row of rows) {
          cursor = row.id;
          const message = unwrap(row.message);
          if (isPriming(message)) continue;
          controller.enqueue(encoder.encode(`id: ${String(row.id)}\nevent: message\ndata: ${JSON.stringify(message)}\n\n`));
          if (isAnswer(message)) {
            controller.close();
            return;
          }
        }
        if (rows.length) return; // let the consumer read before the next poll
        await new Promise((r) => setTimeout(r, POLL_MS));
      }
      controller.close();
    },
  });
  return new Response(stream, { status: 200, headers: { "content-type": "text/event-stream", "cache-control": "no-cache, no-transform", connection: "keep-alive" } });
}
