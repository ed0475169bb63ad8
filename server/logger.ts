// Structured JSON logs (pino). Every line goes through the process's redactor (server/audit/redaction.ts)
// first — the same patterns, field names and known secrets as the audit log — so a log line never carries
// what the audit log would not.
import pino from "pino";
import { redactor } from "./audit/redaction";
import { sourceMappedStack } from "./source-mapped-stack";

export type Logger = pino.Logger;

function serializeError(err: Error): pino.SerializedError {
  const out = pino.stdSerializers.err(err);
  // a value that is not an Error comes back as it was
  const stack: unknown = (out as { stack?: unknown } | null | undefined)?.stack;
  if (typeof stack === "string") out.stack = sourceMappedStack(stack);
  return out;
}

/** `destination`: where lines go (stdout by default; tests capture them). */
export function createLogger(level = "info", bindings: Record<string, unknown> = {}, destination?: pino.DestinationStream): Logger {
  const options: pino.LoggerOptions = {
    level,
    base: { service: "portcullis", ...bindings },
    formatters: { log: (obj) => redactor().value(obj) as Record<string, unknown> },
    // pino's own, with the stack's bundled frames named by their source files (server/source-mapped-stack.ts)
    serializers: { err: serializeError },
    hooks: {
      logMethod(args, method) {
        const redacted = args.map((a) => (typeof a === "string" ? redactor().text(a) : a)) as Parameters<typeof method>;
        method.apply(this, redacted);
      },
    },
  };
  return destination ? pino(options, destination) : pino(options);
}

/**
 * A logger whose lines are written before the call returns: for a process whose children write to the same
 * terminal (`portcullis start` running `next build`), where an asynchronous write came out after their output.
 */
export function createSyncLogger(level = "info"): Logger {
  return createLogger(level, {}, pino.destination({ dest: 1, sync: true }));
}
