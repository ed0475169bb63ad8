// The 2025 generation's GET stream of an MCP session.
import type { ChangeBus } from "../events/change-bus";

/**
 * The GET stream: server-to-client messages from any process — tools/list_changed after registry changes,
 * and what a transparent session's upstream sends outside a request — plus keep-alive.
 */
export function notificationStream(bus: ChangeBus, mcpSessionId: string, signal: AbortSignal): Response {
  const encoder = new TextEncoder();
  let unsubscribe = () => {};
  let keepAlive: NodeJS.Timeout | undefined;
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      const cleanup = () => {
        unsubscribe();
        clearInterval(keepAlive);
      };
      const write = (chunk: string) => {
        try {
          controller.enqueue(encoder.encode(chunk));
        } catch {
          cleanup();
        }
      };
      const send = (msg: unknown) => write(`event: message\ndata: ${JSON.stringify(msg)}\n\n`);
      unsubscribe = bus.subscribe((e) => {
        if (e.kind === "registry") send({ jsonrpc: "2.0", method: "notifications/tools/list_changed" });
        else if (e.kind === "session-out" && e.mcpSessionId === mcpSessionId) send(e.message);
        else if (e.kind === "session-closed" && e.mcpSessionId === mcpSessionId) {
          cleanup();
          try {
            controller.close();
          } catch {
            /* already closed */
          }
        }
      });
      // The status line and headers go out with the first bytes: a client waiting for them must not wait for
      // the first keep-alive.
      write(": connected\n\n");
      keepAlive = setInterval(() => write(": keep-alive\n\n"), 15_000);
      const end = () => {
        cleanup();
        try {
          controller.close();
        } catch {
          /* already closed */
        }
      };
      // Aborted before the stream began (the process started draining as the request came in): an abort
      // listener would never fire, and the stream would stay open.
      if (signal.aborted) end();
      else signal.addEventListener("abort", end, { once: true });
    },
    cancel() {
      unsubscribe();
      clearInterval(keepAlive);
    },
  });
  return new Response(stream, { status: 200, headers: { "content-type": "text/event-stream", "cache-control": "no-cache, no-transform", connection: "keep-alive" } });
}
