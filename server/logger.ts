// Structured JSON logs (pino). Redaction of personal data in log lines arrives with the audit work.
import pino from "pino";

export type Logger = pino.Logger;

export function createLogger(level = "info", bindings: Record<string, unknown> = {}): Logger {
  return pino({ level, base: { service: "portcullis", ...bindings } });
}
