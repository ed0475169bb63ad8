// One message the endpoint's 2025-generation handling sent, as a 2026-07-28 client must receive it: results
// marked complete, with the server's identity and caching hints; a server/discover built from the initialize
// answer it was served as; the codes this revision renumbered; nothing this revision forbids on the stream.
import { CACHEABLE_METHODS, META } from "./modern-protocol";
import { servedVersions, type ModernMessage } from "./modern-request-refusal";
import { TASKS_EXTENSION } from "./tasks-extension";

type Message = { id?: unknown; method?: string; result?: Record<string, unknown>; error?: { code: number } & Record<string, unknown> } & Record<string, unknown>;

/** Resource not found: -32002 in 2025, Invalid Params in 2026-07-28. */
const RESOURCE_NOT_FOUND_2025 = -32002;

/**
 * Every list and read here is filtered per agent session (least privilege), so caches must not be shared
 * across callers. Freshness: a client that listens (subscriptions/listen) is told when a list changes for it;
 * one that does not re-lists after a minute at most. A stale list costs little — every call is authorized
 * again when made — and definitions change only when an admin approves a version or edits grants.
 */
export const LIST_TTL_MS = 60_000;
const CACHE_HINTS = { ttlMs: LIST_TTL_MS, cacheScope: "private" } as const;

/**
 * 2025 capabilities as a 2026 client may use them here: no logging/setLevel or 2025 tasks; list changes of
 * tools, prompts and resources on a subscriptions/listen stream (the gateway computes them per agent session,
 * whatever the upstream announces); resource updates (`subscribe`) where the handling behind offers them.
 */
function modernCapabilities(capabilities: Record<string, unknown> = {}): Record<string, unknown> {
  const { logging: _logging, tasks: _tasks, completions, ...rest } = capabilities;
  const out: Record<string, unknown> = { ...(completions !== undefined && { completions }) };
  for (const [k, v] of Object.entries(rest)) {
    if (typeof v !== "object" || v === null) continue;
    const { listChanged: _l, subscribe, ...kept } = v as Record<string, unknown>;
    const listed = k === "tools" || k === "prompts" || k === "resources";
    out[k] = { ...kept, ...(listed && { listChanged: true }), ...(k === "resources" && subscribe === true && { subscribe: true }) };
  }
  // The tasks extension replaces 2025's `tasks` capability (dropped above).
  return { ...out, extensions: { [TASKS_EXTENSION]: {} } };
}

function discoverResult(init: Record<string, unknown>): Record<string, unknown> {
  return {
    supportedVersions: servedVersions(),
    capabilities: modernCapabilities(init.capabilities as Record<string, unknown> | undefined),
    ...(typeof init.instructions === "string" && { instructions: init.instructions }),
    _meta: { [META.serverInfo]: init.serverInfo },
  };
}

const SEVERITY = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"];

/** A log message at or above the level the request set in _meta (none set: no log messages at all). */
function atLeast(params: unknown, wanted: unknown): boolean {
  if (typeof wanted !== "string" || !SEVERITY.includes(wanted)) return false;
  const level = (params as { level?: unknown } | undefined)?.level;
  return SEVERITY.indexOf(typeof level === "string" ? level : "emergency") >= SEVERITY.indexOf(wanted);
}

/** The message for a 2026 client, or null when it must not be sent to one. */
export function modernMessage(message: Message, request: ModernMessage, serverInfo: () => unknown): Message | null {
  if (message.method !== undefined) {
    // Requests to the client are MRTR's (a later part); log messages only when the request set a level.
    if (message.id !== undefined) return null;
    if (message.method === "notifications/message" && !atLeast(message.params, request.params._meta[META.logLevel])) return null;
    return message;
  }
  if (message.error) {
    const notFound = request.method === "resources/read" && (message.error.code === RESOURCE_NOT_FOUND_2025 || message.error.code === -32602);
    if (!notFound) return message;
    // 2026-07-28: Invalid Params, naming the resource in the error's data.
    const data = { ...(message.error.data as object | undefined), ...(typeof request.params.uri === "string" && { uri: request.params.uri }) };
    return { ...message, error: { ...message.error, code: -32602, data } };
  }
  if (!message.result) return message;
  const discover = request.method === "server/discover";
  const result = discover ? discoverResult(message.result) : message.result;
  const meta = (result._meta ?? {}) as Record<string, unknown>;
  // A tools/call that became a task (dispatch-tool-call.ts made the CreateTaskResult); every other result is complete.
  const task = request.method === "tools/call" && result.resultType === "task" && typeof result.taskId === "string";
  const { content: _content, ...taskResult } = result;
  return {
    ...message,
    result: {
      ...(task ? taskResult : result),
      // An upstream of the 2026 generation may ask for input (passed through, upstream-state.ts).
      resultType: task ? "task" : result.resultType === "input_required" ? "input_required" : "complete",
      ...(CACHEABLE_METHODS.has(request.method) && CACHE_HINTS),
      _meta: { ...meta, [META.serverInfo]: meta[META.serverInfo] ?? serverInfo() },
    },
  };
}
