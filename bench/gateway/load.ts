// The load driver: SDK clients over Streamable HTTP, one per concurrent worker, each with its own MCP
// session opened before any timing. A phase makes a fixed number of tools/call (or stops at its deadline).
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { summarize, type Summary } from "./stats";

export type Endpoint = { url: string; tool: string; headers: Record<string, string> };

export async function openClients(endpoint: Endpoint, count: number, batch = 8): Promise<Client[]> {
  const clients: Client[] = [];
  for (let i = 0; i < count; i += batch) {
    const opened = await Promise.all(
      Array.from({ length: Math.min(batch, count - i) }, async () => {
        const client = new Client({ name: "bench-gateway", version: "1.0.0" });
        const transport = new StreamableHTTPClientTransport(new URL(endpoint.url), {
          requestInit: { headers: endpoint.headers },
        });
        await client.connect(transport, { timeout: 120_000 });
        return client;
      }),
    );
    clients.push(...opened);
  }
  const { tools } = await clients[0]!.listTools();
  if (!tools.some((t) => t.name === endpoint.tool)) {
    throw new Error(`${endpoint.url} does not list ${endpoint.tool} (it lists ${tools.map((t) => t.name).join(", ")})`);
  }
  return clients;
}

export async function closeClients(clients: Client[]): Promise<void> {
  await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
}

/** One run of calls: the raw latencies (ms) in completion order. */
export type Batch = {
  requested: number;
  samples: Float64Array;
  errors: number;
  firstError?: string | undefined;
  wallMs: number;
};

export type PhaseResult = {
  requested: number;
  completed: number;
  errors: number;
  firstError?: string | undefined;
  wallMs: number;
  timedOut: boolean;
  throughput: number;
  latency: Summary;
};

/** `calls` tools/call spread over `concurrency` workers (worker i uses clients[i]); stops at `maxMs`. */
export async function runCalls(
  clients: Client[],
  tool: string,
  opts: { concurrency: number; calls: number; maxMs: number; text: string },
): Promise<Batch> {
  const { concurrency, calls, text } = opts;
  if (clients.length < concurrency) throw new Error(`need ${concurrency} clients, have ${clients.length}`);
  const latencies = new Float64Array(calls);
  let issued = 0;
  let completed = 0;
  let errors = 0;
  let firstError: string | undefined;
  const started = performance.now();
  const deadline = started + opts.maxMs;

  const worker = async (client: Client) => {
    while (issued < calls && performance.now() < deadline) {
      issued++;
      const t = performance.now();
      try {
        const res = await client.callTool({ name: tool, arguments: { text } });
        const ms = performance.now() - t;
        const first = (res.content as { type: string; text?: string }[] | undefined)?.[0];
        if (res.isError || first?.text !== text) {
          errors++;
          firstError ??= `unexpected result: ${JSON.stringify(res).slice(0, 300)}`;
        }
        latencies[completed++] = ms;
      } catch (err) {
        errors++;
        firstError ??= err instanceof Error ? err.message : String(err);
        latencies[completed++] = performance.now() - t;
      }
    }
  };
  await Promise.all(clients.slice(0, concurrency).map(worker));
  return {
    requested: calls,
    samples: latencies.subarray(0, completed),
    errors,
    firstError,
    wallMs: performance.now() - started,
  };
}

/** Several batches of one target as one phase: latencies pooled, throughput over their summed wall time. */
export function combine(batches: Batch[]): PhaseResult {
  const completed = batches.reduce((n, b) => n + b.samples.length, 0);
  const requested = batches.reduce((n, b) => n + b.requested, 0);
  const wallMs = batches.reduce((n, b) => n + b.wallMs, 0);
  const all = new Float64Array(completed);
  let at = 0;
  for (const b of batches) {
    all.set(b.samples, at);
    at += b.samples.length;
  }
  return {
    requested,
    completed,
    errors: batches.reduce((n, b) => n + b.errors, 0),
    firstError: batches.find((b) => b.firstError)?.firstError,
    wallMs,
    timedOut: completed < requested,
    throughput: (completed / wallMs) * 1000,
    latency: summarize(all, completed),
  };
}
