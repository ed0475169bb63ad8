// The JSON-RPC messages of an SSE body, one by one as they arrive (events without data — priming events,
// comments — are skipped). Returning early (a held MRTR continuation given up) cancels the body; `onEnd` runs
// once the body has ended either way.
export async function* sseMessages(body: ReadableStream<Uint8Array>, onEnd: () => void = () => undefined): AsyncGenerator<Record<string, unknown>> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      let end: number;
      while ((end = buffer.search(/\r?\n\r?\n/)) >= 0) {
        const event = buffer.slice(0, end);
        buffer = buffer.slice(end).replace(/^\r?\n\r?\n/, "");
        const data = event
          .split(/\r?\n/)
          .filter((l) => l.startsWith("data:"))
          .map((l) => l.slice(5).replace(/^ /, ""))
          .join("\n");
        if (data) yield JSON.parse(data) as Record<string, unknown>;
      }
    }
  } finally {
    await reader.cancel().catch(() => undefined);
    onEnd();
  }
}
