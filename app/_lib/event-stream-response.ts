// A Server-Sent Events response fed by a subscription: opened with a `: connected` comment (so the client knows
// the stream is up and a proxy starts passing it through), kept alive by `: ping` comments, and unsubscribed when
// the reader goes away. The one SSE builder of the console's live feeds (approvals, tasks).
export type SendFrame = (frame: string) => void;

export function eventStreamResponse(
  signal: AbortSignal,
  subscribe: (send: SendFrame) => () => void,
  pingMs: number,
): Response {
  const encoder = new TextEncoder();
  let stop = () => {};
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      let open = true;
      const send = (text: string) => {
        if (!open) return;
        try {
          controller.enqueue(encoder.encode(text));
        } catch {
          stop(); // the reader went away between its abort and our write
        }
      };
      const unsubscribe = subscribe(send);
      const ping = setInterval(() => send(": ping\n\n"), pingMs);
      stop = () => {
        if (!open) return;
        open = false;
        clearInterval(ping);
        unsubscribe();
        signal.removeEventListener("abort", stop);
        try {
          controller.close();
        } catch {
          /* already closed by the reader */
        }
      };
      signal.addEventListener("abort", stop);
      if (signal.aborted) stop();
      send(": connected\nretry: 3000\n\n");
    },
    cancel() {
      stop();
    },
  });
  return new Response(stream, {
    headers: {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache, no-transform",
      "x-accel-buffering": "no",
    },
  });
}

/** `event: resync`: the gateway's change feed reconnected and changes may have been missed. */
export const resyncFrame = (event: string) => `event: ${event}\ndata: {}\n\n`;
