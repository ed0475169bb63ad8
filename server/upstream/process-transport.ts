// MCP over a child process's stdin/stdout, like the SDK's StdioClientTransport, but with the exact
// environment given (nothing inherited from the gateway), and the exit code and signal reported: a sandboxed
// server ended by a limit must be told apart from one that crashed.
import { spawn, type ChildProcess } from "node:child_process";
import type { Writable } from "node:stream";
import { ReadBuffer, serializeMessage } from "@modelcontextprotocol/sdk/shared/stdio.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";

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
  private readonly buffer = new ReadBuffer();
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
        this.buffer.append(chunk);
        for (;;) {
          let message: JSONRPCMessage | null;
          try {
            message = this.buffer.readMessage();
          } catch (err) {
            this.onerror?.(err as Error);
            continue;
          }
          if (message === null) break;
          this.onmessage?.(message);
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
