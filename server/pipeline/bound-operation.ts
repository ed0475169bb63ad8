// Output limit for prompts, resource reads and completions: the same cap and the same cutting as tool results
// (bound-output.ts), applied to the list each answer holds. A cut answer ends with a marker saying what was left
// out (a resource's contents and a prompt's messages get one more item; completion values are marked hasMore)
// and carries `_meta["portcullis/truncated"]`; the audit event is flagged through notes.truncated.
import { fittingItems, fittingPrefix, size, truncationNotice } from "./bound-output";
import type { Operation, OperationKind, OperationResult, OperationStep } from "./operation";

type Item = Record<string, unknown>;
const isItem = (v: unknown): v is Item => typeof v === "object" && v !== null && !Array.isArray(v);

/** Where an answer keeps its list, how an item that does not fit is cut, and what marks the cut. */
type Shape = {
  items: (result: OperationResult) => unknown[] | undefined;
  /** `notice(tail)` is the marker text, `tail` saying how to ask for less. */
  withItems: (result: OperationResult, items: unknown[], notice: (tail: string) => string, op: Operation) => OperationResult;
  cut: (item: unknown, room: number) => unknown;
};

/** A text item cut to its fitting prefix, other fields kept; undefined when nothing of it fits or it has no text. */
function cutText<T extends Item>(item: T, text: unknown, room: number, put: (item: T, text: string) => T): T | undefined {
  if (typeof text !== "string") return undefined;
  const prefix = fittingPrefix(text, room, (t) => put(item, t));
  return prefix ? put(item, prefix) : undefined;
}

const SHAPES: Partial<Record<OperationKind, Shape>> = {
  "resource.read": {
    items: (r) => (Array.isArray(r.contents) ? r.contents : undefined),
    // A blob that does not fit is left out whole: a cut image or archive is no use to anyone.
    cut: (item, room) => (isItem(item) ? cutText(item, item.text, room, (i, text) => ({ ...i, text })) : undefined),
    withItems: (r, contents, notice, op) => ({
      ...r,
      contents: [...contents, { uri: op.target, mimeType: "text/plain", text: notice(". Read a smaller resource (a narrower URI or range) to get less.") }],
    }),
  },
  prompt: {
    items: (r) => (Array.isArray(r.messages) ? r.messages : undefined),
    cut: (m, room) => {
      const content = isItem(m) && isItem(m.content) ? m.content : undefined;
      return content && content.type === "text" ? cutText(m as Item, content.text, room, (i, text) => ({ ...i, content: { ...content, text } })) : undefined;
    },
    withItems: (r, messages, notice) => ({
      ...r,
      messages: [...messages, { role: "user", content: { type: "text", text: notice(". Ask for the prompt with smaller arguments to get less.") } }],
    }),
  },
  completion: {
    items: (r) => (isItem(r.completion) && Array.isArray(r.completion.values) ? r.completion.values : undefined),
    cut: () => undefined,
    // Values are suggestions a client shows as they are: no marker among them, only hasMore.
    withItems: (r, values) => ({ ...r, completion: { ...(r.completion as Item), values, hasMore: true } }),
  },
};

/** Cuts an operation's answer to at most `maxBytes` of JSON; returns it unchanged when it fits or has no list to cut. */
export function boundOperationResult(op: Operation, result: OperationResult, maxBytes: number): { result: OperationResult; truncated: boolean; bytes: number } {
  const bytes = size(result);
  const shape = SHAPES[op.kind];
  const items = shape?.items(result);
  if (bytes <= maxBytes || !shape || !items) return { result, truncated: false, bytes };
  const kept = fittingItems(items, maxBytes, shape.cut);
  const cut = shape.withItems(result, kept, (tail) => truncationNotice(bytes, maxBytes, tail), op);
  return { result: { ...cut, _meta: { ...(isItem(result._meta) ? result._meta : {}), "portcullis/truncated": { originalBytes: bytes, maxBytes } } }, truncated: true, bytes };
}

export function boundOperation(maxBytes: number): OperationStep {
  return (next) => async (op, ctx, notes) => {
    const out = boundOperationResult(op, await next(op, ctx, notes), maxBytes);
    notes.resultBytes = out.bytes;
    if (out.truncated) notes.truncated = true;
    return out.result;
  };
}
