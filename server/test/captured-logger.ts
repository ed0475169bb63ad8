// A logger whose JSON lines a test reads back: every line parsed, in the order written.
import { Writable } from "node:stream";
import { createLogger, type Logger } from "../logger";

export function capturedLogger(level = "info"): { logger: Logger; lines: Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString("utf8").split("\n").filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  return { logger: createLogger(level, {}, sink), lines };
}
