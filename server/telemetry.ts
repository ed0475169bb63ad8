// OpenTelemetry traces, when an OTLP endpoint is configured (OTEL_EXPORTER_OTLP_ENDPOINT, the standard variable):
// one span per tool call through the pipeline, with the request id, tool, endpoint, session, decision and
// outcome, exported over OTLP/HTTP in batches. Without an endpoint the API's no-op tracer is used, at no cost.
// The provider is not registered globally: the gateway's own tracer is the only producer.
import { ROOT_CONTEXT, SpanStatusCode, trace, type Context, type Span, type Tracer } from "@opentelemetry/api";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { BatchSpanProcessor, TracerProvider } from "@opentelemetry/sdk-trace";
import { VERSION } from "./version";

let tracerNow: Tracer = trace.getTracer("portcullis");
let provider: TracerProvider | undefined;

/** The tracer of this process (no-op until startTracing). */
export const tracer = (): Tracer => tracerNow;

/**
 * Starts exporting to `endpoint` (the collector's base URL; traces go to `<endpoint>/v1/traces`). Once per process;
 * `stop` flushes what is buffered.
 */
export function startTracing(endpoint: string, opts: { serviceName?: string; headers?: Record<string, string> } = {}): { stop(): Promise<void> } {
  if (!provider) {
    const exporter = new OTLPTraceExporter({ url: `${endpoint.replace(/\/+$/, "")}/v1/traces`, ...(opts.headers && { headers: opts.headers }) });
    provider = new TracerProvider({
      resource: resourceFromAttributes({ "service.name": opts.serviceName ?? "portcullis", "service.version": VERSION }),
      spanProcessors: [new BatchSpanProcessor({ exporter, scheduledDelayMillis: 1000 })],
    });
    tracerNow = provider.getTracer("portcullis", VERSION);
  }
  const p = provider;
  return {
    async stop() {
      if (provider !== p) return;
      provider = undefined;
      tracerNow = trace.getTracer("portcullis");
      await p.shutdown();
    },
  };
}

/** Ends a tool call's span with its outcome. */
export function endCallSpan(span: Span, o: { status: string; decision: string; errorCode: string | null; durationMs: number; taskId?: string | undefined; approvalId?: string | undefined }): void {
  span.setAttributes({
    "portcullis.status": o.status,
    "portcullis.decision": o.decision,
    "portcullis.duration_ms": o.durationMs,
    ...(o.errorCode && { "portcullis.error_code": o.errorCode }),
    ...(o.taskId && { "portcullis.task_id": o.taskId }),
    ...(o.approvalId && { "portcullis.approval_id": o.approvalId }),
  });
  if (o.status === "error" || o.status === "denied") span.setStatus({ code: SpanStatusCode.ERROR, message: o.errorCode ?? o.status });
  span.end();
}

// W3C Trace Context: version 00, 16-byte trace id and 8-byte parent id (not all zero), flags.
const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

/**
 * The caller's trace as the parent of a call's span: `traceparent` in the request's `_meta` (MCP's convention
 * for trace context, SEP-414), so the gateway's span joins the agent's trace. Anything malformed is ignored.
 */
export function parentContextOf(meta: Record<string, unknown> | undefined): Context | undefined {
  const m = typeof meta?.traceparent === "string" ? TRACEPARENT.exec(meta.traceparent) : null;
  if (!m || /^0+$/.test(m[1]!) || /^0+$/.test(m[2]!)) return undefined;
  return trace.setSpanContext(ROOT_CONTEXT, { traceId: m[1]!, spanId: m[2]!, traceFlags: parseInt(m[3]!, 16) & 1, isRemote: true });
}
