// Prometheus metrics of this process (prom-client). The pipeline's audit step reports every tool call here;
// the gauges read on scrape (upstreams, queue, approvals, audit lag) are per gateway and merged with this
// registry by gateway-metrics.ts, which serves GET /metrics through the gateway instance.
import { collectDefaultMetrics, Counter, Histogram, Registry } from "prom-client";

export const metricsRegistry = new Registry();

const calls = new Counter({
  name: "portcullis_tool_calls_total",
  help: "Tool calls through the gateway pipeline, by endpoint, tool, outcome status and policy decision",
  labelNames: ["endpoint", "tool", "status", "decision"] as const,
  registers: [metricsRegistry],
});

const latency = new Histogram({
  name: "portcullis_tool_call_duration_seconds",
  help: "Time from a tool call entering the pipeline to its answer (audit included), by endpoint and tool",
  labelNames: ["endpoint", "tool"] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
  registers: [metricsRegistry],
});

export type CallObservation = { endpoint: string; tool: string; status: string; decision: string; durationMs: number };

/** One finished tool call (called by the pipeline's audit step). */
export function observeCall(o: CallObservation): void {
  calls.inc({ endpoint: o.endpoint, tool: o.tool, status: o.status, decision: o.decision });
  latency.observe({ endpoint: o.endpoint, tool: o.tool }, o.durationMs / 1000);
}

let defaults = false;
/** Node.js process metrics (CPU, memory, event loop lag, GC, handles) on the same registry, once per process. */
export function ensureDefaultMetrics(): void {
  if (defaults) return;
  defaults = true;
  collectDefaultMetrics({ register: metricsRegistry });
}

const embeddingFailures = new Counter({
  name: "portcullis_search_embedding_failures_total",
  help: "Embedding provider faults during code mode's tool search (search fell back to lexical ranking), by error code",
  labelNames: ["code"] as const,
  registers: [metricsRegistry],
});

/** One embedding provider fault (code mode's search went on with lexical ranking). */
export function countEmbeddingFailure(code: string): void {
  embeddingFailures.inc({ code });
}
