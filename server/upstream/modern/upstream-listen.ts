// A 2026-07-28 upstream tells of list changes and resource updates only on a `subscriptions/listen` stream (there
// is no session to push on). ModernClientTransport holds one open while its connection lives, asking for what the
// upstream offers and the URIs the Client subscribed to, and hands each notification to the Client as a 2025
// session would have sent it: the pool then re-lists and the registry reviews, as for a 2025 upstream.
import { answerMessages, routingHeaders, withEnvelope, type Envelope, type Message } from "./modern-wire";

export type UpstreamListenOptions = {
  url: URL;
  fetch: typeof fetch;
  headers: Record<string, string>;
  /** The upstream's discovered capabilities: only what it offers is asked for. */
  capabilities: Record<string, unknown>;
  envelope: () => Envelope;
  deliver: (m: Message) => void;
};

const offers = (capabilities: Record<string, unknown>, area: string, flag: string) => {
  const a = capabilities[area];
  return typeof a === "object" && a !== null && (a as Record<string, unknown>)[flag] === true;
};

const REOPEN_AFTER_MS = 1000;

/** The listen request's filter, or null when the upstream offers nothing to listen for. */
function filter(capabilities: Record<string, unknown>, uris: readonly string[]): Message | null {
  const notifications: Message = {
    ...(offers(capabilities, "tools", "listChanged") && { toolsListChanged: true }),
    ...(offers(capabilities, "prompts", "listChanged") && { promptsListChanged: true }),
    ...(offers(capabilities, "resources", "listChanged") && { resourcesListChanged: true }),
  };
  if (offers(capabilities, "resources", "subscribe") && uris.length > 0) notifications.resourceSubscriptions = [...uris];
  return Object.keys(notifications).length ? { notifications } : null;
}

/** One listen stream at a time; `reopen` replaces it (e.g. with another set of URIs), `close` ends it. */
export class UpstreamListen {
  private control: AbortController | null = null;
  private readonly uris = new Set<string>();
  private seq = 0;

  constructor(private readonly o: UpstreamListenOptions) {}

  subscribe(uri: string) {
    this.uris.add(uri);
    this.reopen();
  }

  unsubscribe(uri: string) {
    if (this.uris.delete(uri)) this.reopen();
  }

  reopen() {
    this.control?.abort();
    const params = filter(this.o.capabilities, [...this.uris]);
    if (!params) return void (this.control = null);
    const control = new AbortController();
    this.control = control;
    void this.run(params, control.signal).catch(() => undefined);
  }

  close() {
    this.control?.abort();
    this.control = null;
  }

  /** The stream, until it ends or is replaced; a stream the upstream ends after its acknowledgement is opened again. */
  private async run(filterParams: Message, signal: AbortSignal): Promise<void> {
    const id = `portcullis-listen-${String(++this.seq)}`;
    const params = withEnvelope(filterParams, this.o.envelope());
    const res = await this.o.fetch(this.o.url, {
      method: "POST",
      headers: { ...this.o.headers, ...routingHeaders("subscriptions/listen", params) },
      body: JSON.stringify({ jsonrpc: "2.0", id, method: "subscriptions/listen", params }),
      signal,
    });
    let acknowledged = false;
    for await (const m of answerMessages(res)) {
      if (typeof m.method !== "string" || m.id !== undefined) continue;
      if (m.method === "notifications/subscriptions/acknowledged") {
        acknowledged = true;
        continue;
      }
      this.o.deliver({ jsonrpc: "2.0", method: m.method, ...(m.params !== undefined && { params: withoutSubscriptionId(m.params as Message) }) });
    }
    // Opened again a second later (an upstream that ends every stream at once is not asked in a tight loop).
    if (acknowledged && !signal.aborted && this.control?.signal === signal) {
      const again = setTimeout(() => this.control?.signal === signal && !signal.aborted && this.reopen(), REOPEN_AFTER_MS);
      again.unref();
      signal.addEventListener("abort", () => clearTimeout(again), { once: true });
    }
  }
}

/** The listen stream's tag (SEP-2575): meaningless to the Client behind. */
const SUBSCRIPTION_ID = "io.modelcontextprotocol/subscriptionId";

function withoutSubscriptionId(params: Message): Message {
  const meta = params._meta as Message | undefined;
  if (!meta || !(SUBSCRIPTION_ID in meta)) return params;
  const { [SUBSCRIPTION_ID]: _id, ...rest } = meta;
  const { _meta: _m, ...p } = params;
  return Object.keys(rest).length ? { ...p, _meta: rest } : p;
}
