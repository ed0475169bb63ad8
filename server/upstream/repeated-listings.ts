// Every checked call reads the upstream's tools/list (issue 23's call-time check), and a real server's listing is
// tens of kilobytes of JSON that is nearly always the same as the last one: parsing it again cost about 0.3 ms of
// the gateway's CPU per call for a 63 KB listing (docs/benchmarks.md, twenty-second pass). A stdio server writes
// the same listing as the same line, but for its id, so an answer whose bytes match an earlier answer's is given
// that answer's (frozen) result instead of being decoded and parsed again. A changed listing differs in its bytes
// and is parsed; the check itself is unchanged, since the result is the one the upstream's text says (D187).
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";

/** Answers remembered per connection, and the ids of its tools/list requests waiting for an answer. */
const KEEP_ANSWERS = 4;
const KEEP_PENDING = 64;
/** Longer lines are parsed every time: the bytes kept per remembered answer are bounded. */
const MAX_LINE = 4 * 1024 * 1024;

/** The two forms the MCP SDKs write an answer in, as the bytes around its id. */
type Form = "ts" | "py";
type Split = { id: number; form: Form; body: Buffer };

/**
 * Where a response's id sits in the two forms the MCP SDKs write, the TypeScript one's
 * `{"result":…,"jsonrpc":"2.0","id":7}` and the Python one's `{"jsonrpc":"2.0","id":7,"result":…}`; the rest of the
 * line, as bytes not decoded, is the answer's body. In valid JSON these characters can only be the top-level
 * members: the quote after a comma or an opening brace cannot be inside a string.
 */
function split(line: Buffer, id: number): Split | undefined {
  const tail = Buffer.from(`,"jsonrpc":"2.0","id":${String(id)}}`);
  if (line.length > tail.length && line.subarray(line.length - tail.length).equals(tail)) return { id, form: "ts", body: line.subarray(0, line.length - tail.length) };
  const head = Buffer.from(`{"jsonrpc":"2.0","id":${String(id)},`);
  if (line.length > head.length && line.subarray(0, head.length).equals(head)) return { id, form: "py", body: line.subarray(head.length) };
  return undefined;
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

export class RepeatedListings {
  private readonly pending = new Set<number>();
  private readonly answers: { form: Form; body: Buffer; result: Record<string, unknown> }[] = [];
  /** How many answers were recalled rather than parsed (tests). */
  recalled = 0;

  /** Notes a tools/list request going out, so its answer is looked for. */
  sent(message: JSONRPCMessage): void {
    if (!("method" in message) || message.method !== "tools/list" || !("id" in message) || !Number.isSafeInteger(message.id)) return;
    this.pending.add(message.id as number);
    if (this.pending.size > KEEP_PENDING) this.pending.delete(this.pending.values().next().value!);
  }

  private splitPending(line: Buffer): Split | undefined {
    if (!this.pending.size || line.length > MAX_LINE) return undefined;
    for (const id of this.pending) {
      const s = split(line, id);
      if (s) return s;
    }
    return undefined;
  }

  /** The message of a line that answers a listing with an earlier answer's bytes; undefined: parse the line. */
  recall(line: Buffer): JSONRPCMessage | undefined {
    const s = this.splitPending(line);
    const known = s && this.answers.find((a) => a.form === s.form && a.body.equals(s.body));
    if (!s || !known) return undefined;
    this.pending.delete(s.id);
    this.recalled++;
    return { jsonrpc: "2.0", id: s.id, result: known.result };
  }

  /** Remembers a parsed line that answers a listing (only exactly a result, in one of the two forms). */
  learn(line: Buffer, message: JSONRPCMessage): void {
    const s = this.splitPending(line);
    if (!s) return;
    this.pending.delete(s.id);
    const m = message as { id?: unknown; result?: unknown };
    if (m.id !== s.id || !m.result || typeof m.result !== "object" || Object.keys(message).length !== 3) return;
    if (this.answers.length >= KEEP_ANSWERS) this.answers.shift();
    // A copy: the line is a view of the chunk it came in.
    this.answers.push({ form: s.form, body: Buffer.from(s.body), result: deepFreeze(m.result as Record<string, unknown>) });
  }
}
