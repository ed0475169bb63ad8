// MRTR retries across processes: behind a balancer without affinity a client's retry may reach a process that
// does not hold its call. That process checks the requestState (shared key, binding) and forwards the retry over
// the change bus to the holder named in it, which continues the call exactly as for a local retry and sends the
// answer back part by part (head, messages, end); the answer streams to the client as it comes. A holder that
// does not take the retry within `ackMs` is gone (stopped, crashed): the call it held is lost, the client is told
// to start over. Cancelling (the client closing its stream) reaches the call by the bus's `cancel`, as always.
import { randomUUID } from "node:crypto";
import type { ChangeBus, ChangeEvent } from "../../events/change-bus";
import type { MrtrContext } from "./answer-modern-stream";
import { MRTR_HOLD_MS, type Continuations, type Origin } from "./continuations";
import { modernMessage } from "./modern-message";
import { modernRefusalResponse, type ModernMessage } from "./modern-request-refusal";
import type { StateBinding } from "./request-state";
import { continueTaken } from "./serve-modern-request";
import { sseMessages } from "../../http/sse-messages";

/** How long a forwarded retry waits for the holder to take it: a live holder answers within milliseconds. */
export const MRTR_FORWARD_ACK_MS = 5000;

type Out = { accepted: Origin } | { refused: string } | { head: { status: number; stream: boolean } } | { message: Record<string, unknown> } | { end: true };

type Deps = {
  bus: ChangeBus;
  continuations: Continuations;
  reply: NonNullable<MrtrContext["mrtr"]>["reply"];
  serverInfo: () => unknown;
  ackMs?: number;
};

const sse = (m: unknown) => new TextEncoder().encode(`event: message\ndata: ${JSON.stringify(m)}\n\n`);

export function createRetryForwarding(deps: Deps) {
  const ackMs = deps.ackMs ?? MRTR_FORWARD_ACK_MS;

  /** The holder's side: a forwarded retry continued here, its answer sent back. */
  async function serveForwarded(e: Extract<ChangeEvent, { kind: "mrtr-retry" }>) {
    const out = (o: Out) => deps.bus.publish({ kind: "mrtr-out", retryId: e.retryId, out: o });
    const taken = deps.continuations.takeForwarded(e.continuationId);
    if ("refused" in taken) return out({ refused: taken.refused });
    await out({ accepted: taken.origin });
    const message = e.message as ModernMessage;
    const ctx: MrtrContext = {
      request: message,
      origin: taken.origin,
      shape: (m) => modernMessage(m, message, deps.serverInfo),
      mrtr: { continuations: deps.continuations, binding: e.binding as StateBinding, reply: deps.reply },
    };
    // The client is on the other process: its leaving arrives as the bus's cancel, which reaches the call itself.
    const res = await continueTaken(ctx, message, taken, { signal: new AbortController().signal, cancel: () => undefined });
    const stream = (res.headers.get("content-type") ?? "").includes("text/event-stream") && res.body !== null;
    await out({ head: { status: res.status, stream } });
    if (stream) for await (const m of sseMessages(res.body)) await out({ message: m });
    else await out({ message: JSON.parse(await res.text()) as Record<string, unknown> });
    await out({ end: true });
  }

  const unsubscribe = deps.bus.subscribe((e) => {
    if (e.kind === "mrtr-retry" && e.holder === deps.continuations.holder) void serveForwarded(e).catch(() => undefined);
  });

  /** The receiving side: the retry sent to its holder, the answer relayed to the client as it arrives. */
  async function forward(at: { id: string; holder: string }, retry: ModernMessage, binding: StateBinding, signal: AbortSignal): Promise<Response> {
    const retryId = randomUUID();
    const queue: Out[] = [];
    let wake = () => {};
    const stop = deps.bus.subscribe((e) => {
      if (e.kind !== "mrtr-out" || e.retryId !== retryId) return;
      queue.push(e.out as Out);
      wake();
    });
    // One reader at a time: a part is taken off the queue only by the read waiting for it.
    const next = (timeoutMs: number) =>
      new Promise<Out | null>((resolve) => {
        if (queue.length) return resolve(queue.shift()!);
        const settle = (out: Out | null) => {
          wake = () => {};
          clearTimeout(timer);
          resolve(out);
        };
        const timer = setTimeout(() => settle(null), timeoutMs);
        wake = () => settle(queue.shift()!);
      });
    const refuse = (message: string, data?: Record<string, unknown>) => {
      stop();
      return modernRefusalResponse({ status: 400, code: -32602, message: `Invalid params: ${message}`, ...(data && { data }) }, retry.id);
    };
    await deps.bus.publish({ kind: "mrtr-retry", holder: at.holder, continuationId: at.id, retryId, message: retry, binding });
    const first = await next(ackMs);
    if (!first) return refuse("requestState names a call held by a gateway process that is gone; start the request again", { code: "mrtr_holder_gone" });
    if ("refused" in first) return refuse(first.refused);
    if (!("accepted" in first)) return refuse("the holding process answered out of order");
    const origin = first.accepted;
    signal.addEventListener("abort", () => void deps.bus.publish({ kind: "cancel", mcpSessionId: origin.mcpSessionId, requestId: origin.requestId, reason: "the client closed the response stream" }).catch(() => undefined), { once: true });
    // The holder waits on the upstream no longer than a continuation is held; then it is taken for gone.
    const head = await next(MRTR_HOLD_MS);
    if (!head) return refuse("the gateway process holding the call stopped answering; start the request again", { code: "mrtr_holder_gone" });
    if (!("head" in head)) return refuse("the holding process answered out of order");
    if (!head.head.stream) {
      const m = await next(MRTR_HOLD_MS);
      stop();
      return new Response(JSON.stringify(m && "message" in m ? m.message : null), { status: head.head.status, headers: { "content-type": "application/json" } });
    }
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        const m = await next(MRTR_HOLD_MS);
        if (m && "message" in m) return controller.enqueue(sse(m.message));
        stop();
        controller.close();
      },
      cancel: () => stop(),
    });
    return new Response(body, { status: head.head.status, headers: { "content-type": "text/event-stream", "cache-control": "no-cache", "x-accel-buffering": "no" } });
  }

  return { forward, close: unsubscribe };
}
