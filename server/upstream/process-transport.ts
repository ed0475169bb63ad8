// MCP over a child process's stdin/stdout, like the SDK's StdioClientTransport, but with the exact
// environment given (nothing inherited from the gateway), and the exit code and signal reported: a sandboxed
// server ended by a limit must be told apart from one that crashed.
import { spawn, type ChildProcess } from "node:child_process";
import type { Writable } from "node:stream";
import { serializeMessage } from "@modelcontextprotocol/sdk/shared/stdio.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { RepeatedListings } from "./repeated-listings";

export type ProcessExit = { code: number | null; signal: NodeJS.Signals | null };

export type ProcessTransportOptions = {
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd?: string | undefined;
  /** Open file descriptors handed to the child as fd 3, 4, … (the sandbox's seccomp filter). */
  extraFds?: number[] | undefined;
  onStderr?: (line: string) => void;
  onSpawn?: (pid: number) => void;
  onExit?: (exit: ProcessExit) => void;
};

export class ProcessTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private child: ChildProcess | undefined;
  private readonly lines = new LineBuffer();
  /** Reads each line; a listing answered with the same bytes as before is not parsed again (repeated-listings.ts). */
  readonly listings = new RepeatedListings();
  private exited: Promise<void> | undefined;

  constructor(private readonly opts: ProcessTransportOptions) {}

  get pid(): number | undefined {
    return this.child?.pid;
  }

  start(): Promise<void> {
    if (this.child) throw new Error("ProcessTransport already started");
    return new Promise((resolve, reject) => {
      // detached: a session of its own, so a terminal's Ctrl-C (SIGINT to the gateway's whole process group) does
      // not end the server under the gateway; close() stops it in order. It still ends with the gateway: stdin
      // reaches EOF, and a sandbox's setpriv/bwrap die with their parent.
      const child = spawn(this.opts.command, this.opts.args, { env: this.opts.env as NodeJS.ProcessEnv, cwd: this.opts.cwd, stdio: ["pipe", "pipe", "pipe", ...(this.opts.extraFds ?? [])], shell: false, detached: true });
      this.child = child;
      this.exited = new Promise((done) => child.once("close", () => done()));
      child.once("error", (err) => {
        reject(err);
        this.onerror?.(err);
      });
      child.once("spawn", () => {
        if (child.pid !== undefined) this.opts.onSpawn?.(child.pid);
        resolve();
      });
      child.once("close", (code, signal) => {
        this.opts.onExit?.({ code, signal });
        this.child = undefined;
        this.onclose?.();
      });
      child.stdin?.on("error", (err) => this.onerror?.(err));
      child.stdout?.on("data", (chunk: Buffer) => {
        for (const line of this.lines.pushBytes(chunk)) {
          const message = this.listings.read(line, jsonRpcLine);
          if (message instanceof Error) this.onerror?.(message);
          else this.onmessage?.(message);
        }
      });
      let partial = "";
      child.stderr?.on("data", (chunk: Buffer) => {
        const lines = (partial + chunk.toString("utf8")).split("\n");
        partial = (lines.pop() ?? "").slice(-4000);
        for (const line of lines) if (line.trim()) this.opts.onStderr?.(line.slice(0, 2000));
      });
      // A last line without a newline (often a crash's final words) is a line too; "end" comes before "close".
      child.stderr?.once("end", () => {
        if (partial.trim()) this.opts.onStderr?.(partial.slice(0, 2000));
        partial = "";
      });
    });
  }

  send(message: JSONRPCMessage): Promise<void> {
    const child = this.child;
    if (!child?.stdin) return Promise.reject(new Error("Not connected"));
    const stdin = child.stdin;
    this.listings.sent(message);
    this.corkUntilTickEnds(stdin);
    return new Promise((resolve) => {
      if (stdin.write(serializeMessage(message))) resolve();
      else stdin.once("drain", resolve);
    });
  }

  private corked = false;

  /**
   * The messages sent in one turn of the event loop leave in one write: calls released together (one claims
   * batch answers many) would otherwise cost a system call and a wake-up of the server each (D168).
   * process.nextTick runs after the current microtasks, before any I/O, so nothing waits longer.
   */
  private corkUntilTickEnds(stdin: Writable): void {
    if (this.corked) return;
    this.corked = true;
    stdin.cork();
    process.nextTick(() => {
      this.corked = false;
      stdin.uncork();
    });
  }

  /** Ends stdin, then SIGTERM after 2 s, then SIGKILL after 2 s more. */
  async close(): Promise<void> {
    const child = this.child;
    const exited = this.exited;
    if (!child || !exited) return;
    const wait = (ms: number) => Promise.race([exited.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), ms).unref())]);
    child.stdin?.end();
    if (await wait(2000)) return;
    child.kill("SIGTERM");
    if (await wait(2000)) return;
    child.kill("SIGKILL");
    await wait(2000);
  }
}

/** Newline-delimited lines out of a byte stream; a line split across chunks waits for its end. */
export class LineBuffer {
  private rest: Buffer | undefined;

  push(chunk: Buffer): string[] {
    return this.pushBytes(chunk).map((line) => line.toString("utf8"));
  }

  /** The lines ended by this chunk, as views of the bytes (not decoded), without their CR LF or LF. */
  pushBytes(chunk: Buffer): Buffer[] {
    const data = this.rest ? Buffer.concat([this.rest, chunk]) : chunk;
    const lines: Buffer[] = [];
    let from = 0;
    for (let nl = data.indexOf(10, from); nl >= 0; nl = data.indexOf(10, from)) {
      lines.push(data.subarray(from, nl > from && data[nl - 1] === 13 ? nl - 1 : nl));
      from = nl + 1;
    }
    this.rest = from < data.length ? data.subarray(from) : undefined;
    return lines;
  }
}

/**
 * One line of the server's stdout as a JSON-RPC message, or why it is not one. Only the envelope is checked
 * here: the SDK's Protocol sorts each message by its shape (request, notification, response) and reports one it
 * cannot place, and each result is parsed against its method's schema. The SDK's ReadBuffer ran the whole
 * JSON-RPC schema over every message first, a second zod pass over every answer.
 */
function jsonRpcLine(line: string): JSONRPCMessage | Error {
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch (err) {
    return err instanceof Error ? err : new Error(String(err));
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed) || (parsed as { jsonrpc?: unknown }).jsonrpc !== "2.0")
    return new Error(`not a JSON-RPC 2.0 message: ${line.slice(0, 200)}`);
  return parsed as JSONRPCMessage;
}
