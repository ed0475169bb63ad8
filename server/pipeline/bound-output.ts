// Output limit: a result over the cap is cut, with a marker telling the model what was left out and how
// to ask for less. The audit event is flagged through notes.truncated.
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { CallNotes, Middleware, ResolvedTool } from "./types";

const PAGING_ARGS = ["limit", "offset", "cursor", "page", "page_size", "pageSize", "max_results", "maxResults", "start", "count"];

export function size(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value), "utf8");
}

/**
 * The longest prefix of `text` whose item (`wrap`, by default a text content item) is at most `room` bytes of
 * JSON. Measured as JSON, not as UTF-8: newlines, quotes and control characters grow when escaped (a CSV export
 * by a few per cent).
 */
export function fittingPrefix(text: string, room: number, wrap: (text: string) => unknown = (t) => ({ type: "text", text: t })): string {
  const fits = (n: number) => size(wrap(text.slice(0, n))) <= room;
  if (!fits(0)) return "";
  // Every character takes at least one byte, so the answer is below `room` characters.
  let lo = 0;
  let hi = Math.min(text.length, room);
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (fits(mid)) lo = mid;
    else hi = mid - 1;
  }
  const last = text.charCodeAt(lo - 1);
  if (last >= 0xd800 && last <= 0xdbff) lo--; // never split a surrogate pair
  return text.slice(0, lo);
}

function pagingHint(tool: ResolvedTool): string {
  const props = Object.keys((tool.inputSchema.properties as Record<string, unknown> | undefined) ?? {});
  const paging = props.filter((p) => PAGING_ARGS.includes(p));
  return paging.length
    ? `Call ${tool.gatewayName} again with ${paging.map((p) => `\`${p}\``).join(" / ")} to get the rest in smaller pages.`
    : `Narrow the request (fewer items, a more specific filter) to get a smaller answer.`;
}

/**
 * The items that fit an answer of `maxBytes` (less room for the marker): the longest prefix of whole items, then
 * the first that does not fit cut by `cut` (undefined: left out). Shared by tool results, resource contents,
 * prompt messages and completion values.
 */
export function fittingItems<T>(items: readonly T[], maxBytes: number, cut: (item: T, room: number) => T | undefined): T[] {
  const budget = Math.max(0, maxBytes - 600); // room for the marker
  const kept: T[] = [];
  let used = 0;
  for (const item of items) {
    const itemBytes = size(item);
    if (used + itemBytes <= budget) {
      kept.push(item);
      used += itemBytes;
      continue;
    }
    const part = cut(item, budget - used);
    if (part !== undefined) kept.push(part);
    break;
  }
  return kept;
}

/** The marker a cut answer ends with: how much was shown of how much, then `tail` (what else was left out, how to ask for less). */
export function truncationNotice(bytes: number, maxBytes: number, tail: string): string {
  const shownKb = Math.round(maxBytes / 1024);
  const totalKb = Math.round(bytes / 1024);
  return `[Portcullis: output truncated — about ${shownKb} KB of ${totalKb} KB shown, ${totalKb - shownKb} KB left out${tail}]`;
}

/** Cuts `result` to at most `maxBytes` of JSON; returns it unchanged when it fits. */
export function boundResult(result: CallToolResult, maxBytes: number, tool: ResolvedTool): { result: CallToolResult; truncated: boolean; bytes: number } {
  const bytes = size(result);
  if (bytes <= maxBytes) return { result, truncated: false, bytes };
  const content = fittingItems(result.content ?? [], maxBytes, (item, room) => {
    if (item.type !== "text") return undefined;
    const text = fittingPrefix(item.text, room);
    return text ? { type: "text" as const, text } : undefined;
  });
  content.push({ type: "text", text: truncationNotice(bytes, maxBytes, `${result.structuredContent ? "; structured content omitted" : ""}. ${pagingHint(tool)}`) });
  const bounded: CallToolResult = { content, ...(result.isError ? { isError: true } : {}), _meta: { ...result._meta, "portcullis/truncated": { originalBytes: bytes, maxBytes } } };
  return { result: bounded, truncated: true, bytes };
}

/** boundResult, with the size and any cut recorded in the call's audit notes. */
export function boundNoted(result: CallToolResult, maxBytes: number, tool: ResolvedTool, notes: CallNotes): CallToolResult {
  const out = boundResult(result, maxBytes, tool);
  notes.resultBytes = out.bytes;
  if (out.truncated) notes.truncated = true;
  return out.result;
}

export function boundOutput(maxBytes: number): Middleware {
  return (next) => async (call, ctx, notes) => boundNoted(await next(call, ctx, notes), maxBytes, call.tool, notes);
}
