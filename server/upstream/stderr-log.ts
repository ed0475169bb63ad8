// What an upstream's processes wrote to stderr, bounded: the current process and the last one that exited, each
// a ring of at most `maxLines` lines and `maxBytes` bytes (the oldest lines go first). A crash loop therefore
// keeps the crash that matters (the last exited process) next to the attempt under way, never more.

export type StderrLimits = { maxLines: number; maxBytes: number };
export const DEFAULT_STDERR_LIMITS: StderrLimits = { maxLines: 500, maxBytes: 256 * 1024 };

export type StderrProcess = {
  startedAt: string;
  /** Set when the process ended (exit, crash, failed connect, or closed by the gateway). */
  endedAt: string | null;
  endReason: string | null;
  lines: string[];
  /** Lines pushed out by the limits (the oldest first). */
  droppedLines: number;
};

type Ring = StderrProcess & { bytes: number };

export class StderrLog {
  private current: Ring | undefined;
  private previous: Ring | undefined;

  constructor(private readonly limits: StderrLimits = DEFAULT_STDERR_LIMITS) {}

  /** A new process starts: the current one (if any) becomes the last exited. */
  begin(now = new Date()): void {
    if (this.current) {
      this.end("replaced by a new process", now);
      this.previous = this.current;
    }
    this.current = { startedAt: now.toISOString(), endedAt: null, endReason: null, lines: [], droppedLines: 0, bytes: 0 };
  }

  push(line: string): void {
    if (!this.current) this.begin();
    const ring = this.current as Ring;
    ring.lines.push(line);
    ring.bytes += Buffer.byteLength(line) + 1;
    while (ring.lines.length > 1 && (ring.lines.length > this.limits.maxLines || ring.bytes > this.limits.maxBytes)) {
      ring.bytes -= Buffer.byteLength(ring.lines.shift() as string) + 1;
      ring.droppedLines++;
    }
  }

  /** The current process ended; the first reason given stays. */
  end(reason: string, now = new Date()): void {
    if (!this.current || this.current.endedAt) return;
    this.current.endedAt = now.toISOString();
    this.current.endReason = reason;
  }

  /** Copies of the current and the last exited process's lines. */
  snapshot(): { current: StderrProcess | null; previous: StderrProcess | null } {
    return { current: copy(this.current), previous: copy(this.previous) };
  }

  /** The lines that explain the latest failure: the current process's, or the last exited one's if it wrote none. */
  recent(): readonly string[] {
    if (this.current?.lines.length) return this.current.lines;
    return this.previous?.lines ?? [];
  }
}

function copy(r: Ring | undefined): StderrProcess | null {
  if (!r) return null;
  return { startedAt: r.startedAt, endedAt: r.endedAt, endReason: r.endReason, lines: [...r.lines], droppedLines: r.droppedLines };
}
