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

/** The bytes around a pending request's id in either form, made once when the request is sent. */
type IdBytes = { tail: Buffer; head: Buffer };

const idBytes = (id: number): IdBytes => ({
  tail: Buffer.from(`,"jsonrpc":"2.0","id":${String(id)}}`),
  head: Buffer.from(`{"jsonrpc":"2.0","id":${String(id)},`),
});

/**
 * Where a response's id sits in the two forms the MCP SDKs write, the TypeScript one's
 * `{"result":…,"jsonrpc":"2.0","id":7}` and the Python one's `{"jsonrpc":"2.0","id":7,"result":…}`; the rest of the
 * line, as bytes not decoded, is the answer's body. In valid JSON these characters can only be the top-level
 * members: the quote after a comma or an opening brace cannot be inside a string.
 */
function split(line: Buffer, id: number, { tail, head }: IdBytes): Split | undefined {
  if (line.length > tail.length && line.subarray(line.length - tail.length).equals(tail)) return { id, form: "ts", body: line.subarray(0, line.length - tail.length) };
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
  private readonly pending = new Map<number, IdBytes>();
  private readonly answers: { form: Form; body: Buffer; result: Record<string, unknown> }[] = [];
  /** How many answers were recalled rather than parsed (tests). */
  recalled = 0;

  /** Notes a tools/list request going out, so its answer is looked for. */
  sent(message: JSONRPCMessage): void {
    if (!("method" in message) || message.method !== "tools/list" || !("id" in message) || !Number.isSafeInteger(message.id)) return;
    const id = message.id as number;
    this.pending.set(id, idBytes(id));
    if (this.pending.size > KEEP_PENDING) this.pending.delete(this.pending.keys().next().value!);
  }

  /**
   * A line's message: an earlier answer's result when the line answers a pending listing with its bytes; else what
   * `parse` makes of the decoded line, remembered when it answers a listing (only exactly a result, in one of the
   * two forms).
   */
  read(line: Buffer, parse: (text: string) => JSONRPCMessage | Error): JSONRPCMessage | Error {
    const s = this.answering(line);
    if (s) this.pending.delete(s.id);
    const known = s && this.answers.find((a) => a.form === s.form && a.body.equals(s.body));
    if (known) {
      this.recalled++;
      return { jsonrpc: "2.0", id: s.id, result: known.result };
    }
    const message = parse(line.toString("utf8"));
    if (s && !(message instanceof Error)) this.remember(s, message);
    return message;
  }

  private answering(line: Buffer): Split | undefined {
    if (!this.pending.size || line.length > MAX_LINE) return undefined;
    for (const [id, bytes] of this.pending) {
      const s = split(line, id, bytes);
      if (s) return s;
    }
    return undefined;
  }

  private remember(s: Split, message: JSONRPCMessage): void {
    const m = message as { id?: unknown; result?: unknown };
    if (m.id !== s.id || !m.result || typeof m.result !== "object" || Object.keys(message).length !== 3) return;
    if (this.answers.length >= KEEP_ANSWERS) this.answers.shift();
    // A copy: the line is a view of the chunk it came in.
    this.answers.push({ form: s.form, body: Buffer.from(s.body), result: deepFreeze(m.result as Record<string, unknown>) });
  }
}
