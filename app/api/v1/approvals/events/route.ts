// GET /api/v1/approvals/events – approval changes from every gateway process as Server-Sent Events (approvers)
import { apiRoute } from "@/app/_lib/api";
import { getGateway } from "@/app/_lib/gateway";
import { APPROVAL_EVENTS_PING_MS, APPROVAL_RESYNC_EVENT, approvalEventFrame } from "@/lib/approval-events";

export const dynamic = "force-dynamic";

export const GET = apiRoute("APPROVER", ({ req }) => {
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
      const unsubscribe = getGateway().approvals.subscribe(
        (e) => send(approvalEventFrame(e)),
        () => send(`event: ${APPROVAL_RESYNC_EVENT}\ndata: {}\n\n`),
      );
      const ping = setInterval(() => send(": ping\n\n"), APPROVAL_EVENTS_PING_MS);
      stop = () => {
        if (!open) return;
        open = false;
        clearInterval(ping);
        unsubscribe();
        req.signal.removeEventListener("abort", stop);
        try {
          controller.close();
        } catch {
          /* already closed by the reader */
        }
      };
      req.signal.addEventListener("abort", stop);
      if (req.signal.aborted) stop();
      // Sent at once, so the client knows the stream is up (and a proxy starts passing it through).
      send(": connected\nretry: 3000\n\n");
    },
    cancel() {
      stop();
    },
  });
  return Promise.resolve(
    new Response(stream, {
      headers: {
        "content-type": "text/event-stream; charset=utf-8",
        "cache-control": "no-cache, no-transform",
        "x-accel-buffering": "no",
      },
    }),
  );
});
