// The start server's side of a graceful stop (SIGTERM from Kubernetes, a rolling restart): stop accepting, let
// the requests in flight finish up to a grace period, then cut what is left. Long-lived MCP notification streams
// (GET on an MCP endpoint) are ended at once and not waited for: the client opens its stream again, on another
// replica behind the balancer, and resumes from its Last-Event-ID (stream events are kept in PostgreSQL). So are
// the console's event feeds (a GET answered with text/event-stream: approvals, tasks): their clients reconnect and
// refetch. A connection carries no new request after its current answer (Connection: close), so clients move
// elsewhere.
import type http from "node:http";

export type RequestDrain = {
  /** Marks `res` as a long-lived stream: `end` stops it when the drain begins, and the drain does not wait for it. */
  stream(res: http.ServerResponse, end: () => void): void;
  /** Requests being answered now, streams left out. */
  readonly inFlight: number;
  /**
   * Stops accepting, ends the streams, and resolves once no request is in flight or `graceMs` has passed;
   * then every connection left is closed. `left`: the requests cut at the end of the grace period.
   */
  drain(graceMs: number): Promise<{ left: number }>;
};

export function trackRequests(server: http.Server): RequestDrain {
  const answering = new Set<http.ServerResponse>();
  const streams = new Map<http.ServerResponse, () => void>();
  let draining = false;
  let idle: (() => void) | undefined;
  const settled = () => answering.size === 0 && idle?.();
  server.on("request", (_req: http.IncomingMessage, res: http.ServerResponse) => {
    answering.add(res);
    if (draining) res.shouldKeepAlive = false;
    res.once("close", () => {
      answering.delete(res);
      streams.delete(res);
      settled();
    });
  });
  return {
    stream(res, end) {
      answering.delete(res);
      if (draining) return end();
      streams.set(res, end);
    },
    get inFlight() {
      return answering.size;
    },
    async drain(graceMs) {
      draining = true;
      server.close();
      server.closeIdleConnections();
      // Answers still to come close their connection after them.
      for (const res of answering) if (!res.headersSent) res.shouldKeepAlive = false;
      for (const end of streams.values()) end();
      streams.clear();
      // An event feed never finishes on its own: waiting for it would hold the stop for the whole grace period.
      for (const res of answering) if (isEventFeed(res)) res.destroy();
      if (answering.size > 0) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, graceMs);
          idle = () => {
            clearTimeout(timer);
            resolve();
          };
        });
      }
      const left = answering.size;
      server.closeAllConnections();
      return { left };
    },
  };
}

/** A GET being answered as Server-Sent Events: a feed that lasts until its client goes (a POST's SSE answer ends). */
function isEventFeed(res: http.ServerResponse): boolean {
  return res.req.method === "GET" && String(res.getHeader("content-type") ?? "").startsWith("text/event-stream");
}
