// The SSE answer of the handling behind, turned into a 2026-07-28 answer: notifications streamed as they come,
// and the first terminal message decides the end — the final response (under this request's id), or a request
// the handling sends the client (elicitation, sampling, roots), which 2026 forbids on the stream: it becomes an
// `input_required` result with a signed requestState (MRTR), or -32021 when the client did not declare the
// capability (roots excepted: the upstream is refused and the call goes on). When nothing was streamed before it,
// the terminal message is a plain JSON answer with its status.
import type { Continuation, Continuations, Origin, PendingInput } from "./continuations";
import { modernStatus } from "./modern-answer";
import { META, MODERN_ERROR } from "./modern-protocol";
import type { ModernMessage } from "./modern-request-refusal";
import type { StateBinding } from "./request-state";

type Message = Record<string, unknown>;

export type MrtrContext = {
  request: ModernMessage;
  /** The handling this answer comes from (for a retry: the one it continues). */
  origin: Origin;
  shape: (m: Message) => Message | null;
  /** Absent where nothing behind relays requests (the answer is an error then). */
  mrtr?:
    | {
        continuations: Continuations;
        binding: StateBinding;
        reply(mcpSessionId: string, message: Message): Promise<void>;
        /** A retry whose continuation another process holds: forwarded there, its answer streamed back. */
        forward?: ((at: { id: string; holder: string }, retry: ModernMessage, binding: StateBinding, signal: AbortSignal) => Promise<Response>) | undefined;
      }
    | undefined;
};

/** The client capability a relayed request needs. */
function capabilityOf(method: string): "elicitation" | "sampling" | "roots" | null {
  return method === "elicitation/create" ? "elicitation" : method === "sampling/createMessage" ? "sampling" : method === "roots/list" ? "roots" : null;
}

/** What the client must have declared for `request`, or null when it has: URL-mode elicitation needs `elicitation.url`. */
function missingCapability(capability: "elicitation" | "sampling" | "roots", request: Message, declared: Record<string, unknown>): Record<string, unknown> | null {
  const own = declared[capability];
  if (own === undefined || own === null) return { [capability]: {} };
  const urlMode = capability === "elicitation" && (request.params as { mode?: unknown } | undefined)?.mode === "url";
  if (urlMode && (own as { url?: unknown }).url === undefined) return { elicitation: { url: {} } };
  return null;
}

const isRequest = (m: Message) => typeof m.method === "string" && m.id !== undefined;
const isNotification = (m: Message) => typeof m.method === "string" && m.id === undefined;

/** Reads the rest in the background so the handling behind can finish (and audit) without a reader. */
const drain = (messages: AsyncGenerator<Message>) => void (async () => { for await (const _ of messages); })().catch(() => undefined);

type Terminal = { status: number; message: Message };

async function inputRequired(ctx: MrtrContext, messages: AsyncGenerator<Message>, request: Message): Promise<Terminal | null> {
  const id = ctx.request.id;
  const method = request.method as string;
  const capability = capabilityOf(method);
  const mrtr = ctx.mrtr;
  const refuseUpstream = (message: string) => mrtr?.reply(ctx.origin.mcpSessionId, { jsonrpc: "2.0", id: request.id, error: { code: -32601, message } });
  // A liveness check of the client: answered here (2026 has no ping; the client is there, it is waiting).
  if (method === "ping") {
    await mrtr?.reply(ctx.origin.mcpSessionId, { jsonrpc: "2.0", id: request.id, result: {} });
    return null;
  }
  if (!capability || !mrtr) {
    await refuseUpstream(`${method} cannot reach this client`);
    if (capability) drain(messages);
    return capability ? { status: 200, message: { jsonrpc: "2.0", id, error: { code: -32603, message: `The server asked for ${capability} input, which this endpoint cannot relay to a 2026-07-28 client` } } } : null;
  }
  const missing = missingCapability(capability, request, ctx.request.params._meta[META.clientCapabilities] as Record<string, unknown>);
  if (missing) {
    await refuseUpstream(`The client did not declare ${capability}`);
    // Roots are context, not the call's work: an upstream asks for them on its own (server-everything 350 ms after
    // initialize, landing on whichever call is in flight). A client without roots has none; the call goes on.
    if (capability === "roots") return null;
    drain(messages);
    const error = { code: MODERN_ERROR.missingRequiredClientCapability, message: `Missing required client capability: ${capability}`, data: { requiredCapabilities: missing } };
    return { status: 400, message: { jsonrpc: "2.0", id, error } };
  }
  const key = `${capability}_${String(request.id).replace(/[^A-Za-z0-9_-]/g, "").slice(-12)}`;
  const pending = new Map<string, PendingInput>([[key, { relayId: request.id as string | number, method, params: request.params }]]);
  return hold(ctx, { messages, pending, origin: ctx.origin });
}

/** Holds the continuation and answers input_required for what it waits for. */
export async function hold(ctx: MrtrContext, c: Continuation): Promise<Terminal> {
  const requestState = await ctx.mrtr!.continuations.hold(c, ctx.mrtr!.binding);
  const inputRequests = Object.fromEntries([...c.pending].map(([k, p]) => [k, { method: p.method, params: p.params }]));
  return { status: 200, message: { jsonrpc: "2.0", id: ctx.request.id, result: { resultType: "input_required", inputRequests, requestState } } };
}

/** The next terminal message; `emit` gets the notifications before it. */
async function terminal(ctx: MrtrContext, messages: AsyncGenerator<Message>, emit: (m: Message) => void): Promise<Terminal> {
  for (;;) {
    const next = await messages.next();
    if (next.done) return { status: 200, message: { jsonrpc: "2.0", id: ctx.request.id, error: { code: -32603, message: "The answer ended before a result" } } };
    const m = next.value;
    if (isNotification(m)) {
      const shaped = ctx.shape(m);
      if (shaped) emit(shaped);
      continue;
    }
    if (isRequest(m)) {
      const t = await inputRequired(ctx, messages, m);
      if (t) return t;
      continue;
    }
    // The response ends the request, not the stream behind it: read that to its end, so its end (sseMessages'
    // onEnd) frees what the handling held: the stateless upstream session's lease, the inner body.
    drain(messages);
    const shaped = ctx.shape({ ...m, id: ctx.request.id }) ?? m;
    return { status: modernStatus(shaped), message: shaped };
  }
}

const sse = (m: Message) => new TextEncoder().encode(`event: message\ndata: ${JSON.stringify(m)}\n\n`);

export async function answerModernStream(ctx: MrtrContext, messages: AsyncGenerator<Message>): Promise<Response> {
  // Until the first notification, the answer can still be plain JSON with its own status (-32021 is a 400).
  let first: Message | undefined;
  let resolveFirst!: () => void;
  const firstSeen = new Promise<void>((r) => (resolveFirst = r));
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let open = true;
  // The client closing the stream cancels the request (2026-07-28): the handling's stream behind is cancelled,
  // and nothing more is written.
  const stream = new ReadableStream<Uint8Array>({
    start: (c) => void (controller = c),
    cancel: () => {
      open = false;
      void messages.return(undefined).catch(() => undefined);
    },
  });
  const write = (m: Message) => open && controller.enqueue(sse(m));
  const end = () => {
    if (!open) return;
    open = false;
    controller.close();
  };
  const done = terminal(ctx, messages, (m) => {
    if (!first) {
      first = m;
      resolveFirst();
    }
    write(m);
  });
  const outcome = await Promise.race([done.then((t) => ({ t })), firstSeen.then(() => null)]);
  if (outcome && !first) return new Response(JSON.stringify(outcome.t.message), { status: outcome.t.status, headers: { "content-type": "application/json" } });
  void done.then(
    (t) => {
      write(t.message);
      end();
    },
    (err: unknown) => {
      if (open) controller.error(err);
      open = false;
    },
  );
  return new Response(stream, { status: 200, headers: { "content-type": "text/event-stream", "cache-control": "no-cache", "x-accel-buffering": "no" } });
}
