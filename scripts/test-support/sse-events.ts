// Reading a Server-Sent Events response in tests: frame by frame, until one matches.
export type SseEvent = { event: string; data: string; comments: string[] };

/** A reader of one SSE response that remembers what it has read but not yet handed out. */
export function sseReader(reader: ReadableStreamDefaultReader<Uint8Array>) {
  const decoder = new TextDecoder();
  let buffer = "";
  const ready: SseEvent[] = [];

  async function more(until: number) {
    const left = until - Date.now();
    if (left <= 0) throw new Error("no matching event in time");
    let timer: NodeJS.Timeout | undefined;
    const chunk = await Promise.race([
      reader.read(),
      new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error("no matching event in time")), left))),
    ]);
    clearTimeout(timer);
    if (chunk.done) throw new Error("the event stream ended");
    buffer += decoder.decode(chunk.value, { stream: true });
    const frames = buffer.split("\n\n");
    buffer = frames.pop() ?? "";
    for (const frame of frames) {
      const lines = frame.split("\n");
      ready.push({
        event: lines.find((l) => l.startsWith("event: "))?.slice(7) ?? "",
        data: lines.find((l) => l.startsWith("data: "))?.slice(6) ?? "",
        comments: lines.filter((l) => l.startsWith(":")),
      });
    }
  }

  return {
    /** Every event up to and including the first that matches `want` (or the time runs out). */
    async until(want: (e: SseEvent) => boolean, timeoutMs = 10_000): Promise<SseEvent[]> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const at = ready.findIndex(want);
        if (at >= 0) return ready.splice(0, at + 1);
        await more(deadline);
      }
    },
  };
}

/** The first event matching `want`. */
export async function nextEvent(reader: ReadableStreamDefaultReader<Uint8Array>, want: (e: SseEvent) => boolean, timeoutMs = 10_000): Promise<SseEvent> {
  return (await sseReader(reader).until(want, timeoutMs)).at(-1)!;
}
