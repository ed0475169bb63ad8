// A `fetch` for upstream MCP calls on node:http(s) with a keep-alive agent. Measured in bench/gateway (see
// docs/benchmarks.md): half the CPU of undici's fetch per call, and no listener leak — the SDK passes one
// long-lived AbortSignal to every request, and undici adds a listener to it per request that only GC frees.
// Here the abort listener is removed as soon as the response has ended.
import { setMaxListeners } from "node:events";
import http from "node:http";
import https from "node:https";
import { Readable } from "node:stream";

// An idle kept-alive connection is closed by us before the upstream would close it: otherwise a call sent on it just
// as the upstream's keep-alive timer fires fails with "socket hang up" (Node's default server timer is 5 s). Node's
// agent reads the server's `Keep-Alive: timeout=N` hint and closes a second before it, but only when the agent has
// a `timeout` of its own to lower; without a hint this 4 s is the idle limit. A call in progress is not affected:
// the agent ends only idle sockets on timeout, and nothing here listens for a busy request's 'timeout'.
export const IDLE_SOCKET_MS = 4_000;
const agents = {
  "http:": new http.Agent({ keepAlive: true, maxSockets: 256, timeout: IDLE_SOCKET_MS }),
  "https:": new https.Agent({ keepAlive: true, maxSockets: 256, timeout: IDLE_SOCKET_MS }),
};

function headerRecord(headers: HeadersInit | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  new Headers(headers).forEach((value, key) => (out[key] = value));
  return out;
}

export const nodeHttpFetch: typeof fetch = (input, init) => {
  const url = new URL(input instanceof Request ? input.url : input.toString());
  const method = (init?.method ?? (input instanceof Request ? input.method : "GET")).toUpperCase();
  const signal = init?.signal ?? undefined;
  const body = init?.body;
  if (body !== undefined && body !== null && typeof body !== "string" && !(body instanceof Uint8Array)) {
    return Promise.reject(new TypeError("nodeHttpFetch sends string or byte bodies only"));
  }
  return new Promise<Response>((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason instanceof Error ? signal.reason : new DOMException("This operation was aborted", "AbortError"));
      return;
    }
    const mod = url.protocol === "https:" ? https : http;
    const agent = url.protocol === "https:" ? agents["https:"] : agents["http:"];
    const req = mod.request(url, { method, headers: headerRecord(init?.headers), agent });
    const onAbort = () => {
      const reason = signal?.reason instanceof Error ? signal.reason : new DOMException("This operation was aborted", "AbortError");
      req.destroy(reason);
      reject(reason);
    };
    const release = () => signal?.removeEventListener("abort", onAbort);
    // One listener per request in flight on the SDK's shared signal, each removed when its response ends:
    // as many as the concurrency, which is not a leak, so no warning past 10.
    if (signal) setMaxListeners(0, signal);
    signal?.addEventListener("abort", onAbort, { once: true });
    req.on("error", (err) => {
      release();
      reject(err);
    });
    req.on("response", (res) => {
      res.on("close", release);
      const headers = new Headers();
      for (const [key, value] of Object.entries(res.headers)) {
        if (Array.isArray(value)) for (const v of value) headers.append(key, v);
        else if (value !== undefined) headers.set(key, value);
      }
      const status = res.statusCode ?? 502;
      const empty = method === "HEAD" || status === 204 || status === 304;
      if (empty) res.resume();
      resolve(new Response(empty ? null : (Readable.toWeb(res) as ReadableStream<Uint8Array>), { status, statusText: res.statusMessage ?? "", headers }));
    });
    req.end(body ?? undefined);
  });
};
