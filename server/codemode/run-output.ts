// What a code-mode program may print and return: its log lines together, and separately its result's JSON, each
// within maxOutputBytes of UTF-8. The first line past the budget is cut at a character boundary and later ones are
// dropped, with one marker of how much; a result past it is cut with a marker. Runs inside the sandbox worker:
// quickjs-runner.ts carries this function's source there (run-parts.ts), so it stays self-contained (no imports at
// run time, no module-level helpers).

export type OutputBounds = {
  /** Keeps one log line (warn and error lines marked with their level) within the logs' budget. */
  log(level: string, text: string): void;
  /** The program's returned JSON as the outcome carries it; undefined: it returned nothing. */
  result(json: string | undefined): { resultJson?: string; resultCut?: string; truncated?: true };
  /** The lines kept, with a marker of what was dropped, and whether anything was cut. */
  logs(): { logs: string[]; truncated: boolean };
};

export function outputBounds(maxOutputBytes: number): OutputBounds {
  const byteLength = (s: string) => Buffer.byteLength(s, "utf8");
  const cutUtf8 = (s: string, max: number) => {
    const bytes = Buffer.from(s, "utf8");
    let end = Math.min(max, bytes.length);
    while (end > 0 && end < bytes.length && ((bytes[end] ?? 0) & 0xc0) === 0x80) end--;
    return bytes.subarray(0, end).toString("utf8");
  };
  const marker = (n: number) => `…[truncated ${String(n)} bytes]`;
  const lines: string[] = [];
  let logBytes = 0;
  let droppedLogBytes = 0;
  return {
    log(level, text) {
      const line = level === "warn" || level === "error" ? `[${level}] ${text}` : text;
      const size = byteLength(line);
      const room = maxOutputBytes - logBytes;
      if (droppedLogBytes === 0 && size <= room) {
        lines.push(line);
        logBytes += size;
      } else if (droppedLogBytes === 0 && room > 0) {
        const head = cutUtf8(line, room);
        lines.push(head);
        logBytes += byteLength(head);
        droppedLogBytes += size - byteLength(head);
      } else droppedLogBytes += size;
    },
    result(json) {
      if (json === undefined) return {};
      const size = byteLength(json);
      if (size <= maxOutputBytes) return { resultJson: json };
      const head = cutUtf8(json, maxOutputBytes);
      return { resultCut: head + marker(size - byteLength(head)), truncated: true };
    },
    logs: () => ({ logs: droppedLogBytes > 0 ? [...lines, marker(droppedLogBytes)] : [...lines], truncated: droppedLogBytes > 0 }),
  };
}
