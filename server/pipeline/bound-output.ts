// Output limit: a result over the cap is cut, with a marker telling the model what was left out and how
// to ask for less. The audit event is flagged through notes.truncated.
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { CallNotes, Middleware, ResolvedTool } from "./types";

const PAGING_ARGS = ["limit", "offset", "cursor", "page", "page_size", "pageSize", "max_results", "maxResults", "start", "count"];

function size(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value), "utf8");
}

/**
 * The longest prefix of `text` whose text item is at most `room` bytes of JSON. Measured as JSON, not as
 * UTF-8: newlines, quotes and control characters grow when escaped (a CSV export by a few per cent).
 */
function fittingPrefix(text: string, room: number): string {
  const fits = (n: number) => size({ type: "text", text: text.slice(0, n) }) <= room;
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

/** Cuts `result` to at most `maxBytes` of JSON; returns it unchanged when it fits. */
export function boundResult(result: CallToolResult, maxBytes: number, tool: ResolvedTool): { result: CallToolResult; truncated: boolean; bytes: number } {
  const bytes = size(result);
  if (bytes <= maxBytes) return { result, truncated: false, bytes };
  const budget = Math.max(0, maxBytes - 600); // room for the marker
  const content: CallToolResult["content"] = [];
  let used = 0;
  for (const item of result.content ?? []) {
    const itemBytes = size(item);
    if (used + itemBytes <= budget) {
      content.push(item);
      used += itemBytes;
      continue;
    }
    if (item.type === "text") {
      const text = fittingPrefix(item.text, budget - used);
      if (text) content.push({ type: "text", text });
    }
    break;
  }
  const shownKb = Math.round(maxBytes / 1024);
  const totalKb = Math.round(bytes / 1024);
  content.push({
    type: "text",
    text: `[Portcullis: output truncated — about ${shownKb} KB of ${totalKb} KB shown, ${totalKb - shownKb} KB left out${
      result.structuredContent ? "; structured content omitted" : ""
    }. ${pagingHint(tool)}]`,
  });
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
