// Whether an error means the database cannot be reached right now (stopped, restarting, refusing connections,
// out of connection slots), as opposed to a fault of the request. A request that meets one is answered "retry
// shortly" (HTTP 503 with Retry-After) rather than 500: a load balancer or client may try again, and it is not a
// bug in the gateway. Looks through `cause` chains and AggregateErrors, as pg, Prisma and fetch nest them.

/** What a request refused for this is told to wait before trying again. */
export const DATABASE_RETRY_AFTER_SECONDS = 2;

const NETWORK_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "EHOSTUNREACH", "ENETUNREACH", "EAI_AGAIN"]);
/** SQLSTATE: connection exceptions (08), admin/crash shutdown and cannot-connect-now (57P01–57P03), too many connections. */
const SQLSTATE = /^(08[0-9A-Z]{3}|57P0[123]|53300)$/;
/** Prisma: can't reach, timed out, server closed the connection, pool timeout. */
const PRISMA_CODES = new Set(["P1001", "P1002", "P1008", "P1017", "P2024"]);
// Texts of errors that carry no code: pg's client after its connection ended, Prisma's driver adapter's closed
// connection ("Error { kind: Closed }"), Prisma's engine when the server went away.
const MESSAGES = [
  /connection terminated/i,
  /can't reach database server/i,
  /timeout exceeded when trying to connect/i,
  /server closed the connection unexpectedly/i,
  /the database system is (starting up|shutting down)/i,
  /client (was closed|has encountered a connection error) and is not queryable/i,
  /Error in PostgreSQL connection: Error \{ kind: Closed\b/,
];

export function isDatabaseUnavailable(err: unknown, depth = 0): boolean {
  if (!err || typeof err !== "object" || depth > 6) return false;
  const e = err as { code?: unknown; errorCode?: unknown; message?: unknown; cause?: unknown; errors?: unknown; meta?: { code?: unknown; driverAdapterError?: unknown } };
  for (const code of [e.code, e.errorCode, e.meta?.code]) {
    if (typeof code !== "string") continue;
    if (NETWORK_CODES.has(code) || SQLSTATE.test(code) || PRISMA_CODES.has(code)) return true;
  }
  if (typeof e.message === "string" && MESSAGES.some((m) => m.test(e.message as string))) return true;
  if (Array.isArray(e.errors) && e.errors.some((x) => isDatabaseUnavailable(x, depth + 1))) return true;
  // Prisma's driver adapter keeps PostgreSQL's own error (its SQLSTATE as `code`/`originalCode`) under meta.
  if (isDatabaseUnavailable(e.meta?.driverAdapterError, depth + 1)) return true;
  return isDatabaseUnavailable(e.cause, depth + 1);
}
