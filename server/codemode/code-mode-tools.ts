// What search_tools and execute_code do once the pipeline has let the call through (server/builtin runs them):
// search ranks the tools the session may call; execute runs a program whose every tool call passes the pipeline
// again. execute_code keeps its run gate (runs per caller per minute and at once), counted here, after the
// pipeline's own per-tool and per-session limits.
import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import type { RequestContext } from "../context";
import { sessionAccess } from "../policy/session-access";
import { toolError } from "../pipeline/tool-error";
import type { CallNotes, ToolCall } from "../pipeline/types";
import { CALL_TOOL_RESULT_PREAMBLE } from "./declarations";
import { runProgram, type CodeModeDeps } from "./program-runner";
import { cachedSemanticSet, cachedToolIndex } from "./tool-index-cache";
import { firstSentenceOf } from "./catalog-summary";
import type { SemanticRanker } from "./embeddings/semantic-ranker";
import { unknownServer } from "./browse-catalog";
import { invalidArguments } from "./invalid-arguments";
import type { SearchAnswer, SearchOptions, ToolIndex } from "./tool-search";

const MAX_CODE_CHARS = 100_000;

const ZSearch = z
  .object({
    query: z.string().min(1).max(500),
    detail: z.enum(["name", "summary", "full"]).default("summary"),
    limit: z.number().int().min(1).max(50).default(10),
    server: z.string().min(1).max(200).optional(),
  })
  .strict();

const ZExecute = z
  .object({
    code: z.string().min(1).max(MAX_CODE_CHARS),
    timeoutMs: z.number().int().min(100).optional(),
    language: z.enum(["js", "ts"]).optional(),
    privacy: z.boolean().optional(),
  })
  .strict();

/**
 * search_tools' answer as the model reads it: one line per tool (or its declaration), a near-duplicate's note
 * under its line, and when the best match is weak, where to look instead.
 */
export function searchText(answer: SearchAnswer, detail: "name" | "summary" | "full"): string {
  if (answer.tools.length === 0) return `No tool you may call matches. ${answer.hint ?? "Try other words."}`;
  const lines = answer.tools.map((t) => {
    const line = detail === "name" ? t.call : detail === "summary" ? `${t.call}({${t.args ?? ""}})${t.description ? ` — ${t.description}` : ""}` : (t.declaration ?? t.call);
    return t.note ? `${line}\n  ↳ ${t.note}` : line;
  });
  const preamble = detail === "full" && answer.tools.some((t) => t.declaration?.includes("CallToolResult")) ? `${CALL_TOOL_RESULT_PREAMBLE}\n` : "";
  const text = preamble + lines.join(detail === "full" ? "\n\n" : "\n");
  return answer.weak && answer.hint ? `${text}\n\n${answer.hint}` : text;
}

const asResult = (value: Record<string, unknown>, isError = false): CallToolResult => ({
  content: [{ type: "text", text: JSON.stringify(value) }],
  structuredContent: value,
  ...(isError && { isError: true }),
});

type Grant = NonNullable<ToolCall["grant"]>;

/** search_tools: the tools this session may call, ranked for `query`. */
export async function searchTools(deps: CodeModeDeps, grant: Grant, bucket: number, args: Record<string, unknown>, signal?: AbortSignal): Promise<CallToolResult> {
  const parsed = ZSearch.safeParse(args);
  if (!parsed.success) invalidArguments(parsed.error);
  const { mayUse } = await sessionAccess(deps.policy, grant);
  const { server } = parsed.data;
  // The server filter narrows the tools indexed (a smaller index, cached apart); `server` is passed on as well
  // for an index that weighs it itself. A server the session may not use is refused as browse_catalog does.
  const prefix = server === undefined ? "" : `${server}__`;
  const usable = (await deps.registry.visibleTools(bucket)).filter((t) => mayUse(t.name) && t.name.startsWith(prefix));
  if (server !== undefined && usable.length === 0) return unknownServer();
  const summaries = new Map((await deps.registry.visibleServers(bucket)).map((r) => [r.slug, r.summary ?? (r.defs.instructions ? firstSentenceOf(r.defs.instructions) : null)]));
  const index = cachedToolIndex(usable, { serverSummaries: summaries, exampleRequests: await deps.registry.toolExampleRequests() });
  const opts = { detail: parsed.data.detail, limit: parsed.data.limit, ...(server !== undefined && { server }) };
  const ranker = await deps.semantic?.();
  const answer = ranker ? await fusedSearch(ranker, index, usable, parsed.data.query, opts, signal) : index.search(parsed.data.query, opts);
  return { content: [{ type: "text" as const, text: searchText(answer, parsed.data.detail) }] };
}

/**
 * With an embedding provider (SEARCH_EMBEDDINGS): the lexical ranking fused with the tools' nearness in meaning
 * to the query (embeddings/hybrid-rank.ts), so a tool that shares no word with the query can still come first.
 * A provider or store fault leaves the lexical order (the ranker never rejects on one).
 */
export async function fusedSearch(ranker: SemanticRanker, index: ToolIndex, tools: readonly Tool[], query: string, opts: SearchOptions, signal: AbortSignal | undefined): Promise<SearchAnswer> {
  const set = cachedSemanticSet(ranker, tools);
  const fused = await ranker.rank(query, set, index.rank(query, opts.server === undefined ? {} : { server: opts.server }), signal);
  return index.answer(query, fused.map((r) => r.name), opts);
}

/** execute_code: one program, admitted by the run gate, its tool calls each through the pipeline. */
export async function executeCode(deps: CodeModeDeps, call: ToolCall & { grant: Grant }, ctx: RequestContext, notes: CallNotes, bucket: number): Promise<CallToolResult> {
  const parsed = ZExecute.safeParse(call.arguments);
  if (!parsed.success) invalidArguments(parsed.error);
  const { code, timeoutMs, language, privacy } = parsed.data;
  // Runs are counted per agent session (each of its tool calls is counted again by the pipeline).
  const admitted = deps.runGate && call.sessionKey ? await deps.runGate.admit(call.sessionKey) : undefined;
  if (admitted && "code" in admitted) {
    notes.decision = "deny";
    notes.errorCode = admitted.code;
    notes.reason = admitted.message;
    return toolError(admitted.code, admitted.message, { retryAfterSeconds: admitted.retryAfterSeconds });
  }
  try {
    const scope = { grant: call.grant, ctx, bucket, sessionKey: call.sessionKey, mcpSessionId: call.mcpSessionId, signal: call.signal };
    const { run } = await runProgram(deps, scope, code, {
      ...(timeoutMs !== undefined && { timeoutMs }),
      ...(language && { language }),
      ...(privacy !== undefined && { privacy }),
    });
    const value: Record<string, unknown> = {
      ...(run.result !== undefined && { result: run.result }),
      ...(run.error && { error: run.error }),
      logs: run.logs,
      toolCalls: run.toolCalls,
      ...(run.workspaceOps > 0 && { workspaceOps: run.workspaceOps }),
      durationMs: Math.round(run.durationMs),
      ...(run.truncated && { truncated: true }),
    };
    return asResult(value, run.error !== undefined);
  } finally {
    admitted?.release();
  }
}
