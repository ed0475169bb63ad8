// The code-mode sandbox contract: run one agent program against a tool bridge, get back values, never throws for
// what the program does. Kept engine-neutral so another sandbox (a V8 isolate, a process) can implement it later.
import type { ToolErrorCode } from "../pipeline/tool-error";

/** Hard limits of one run. */
export type ExecLimits = {
  /** Wall-clock budget of the program, tool calls included. */
  wallMs: number;
  /** Heap of the VM (the whole runtime). */
  memoryBytes: number;
  /** Native stack the VM may use (deep recursion ends with StackOverflowError). */
  maxStackBytes: number;
  /** Tool calls per run; the next one rejects with ToolCallLimitError. */
  maxToolCalls: number;
  /** UTF-8 bytes of the returned JSON, and separately of all log lines together. */
  maxOutputBytes: number;
};

export const DEFAULT_EXEC_LIMITS: ExecLimits = Object.freeze({
  wallMs: 30_000,
  memoryBytes: 64 * 1024 * 1024,
  maxStackBytes: 512 * 1024,
  maxToolCalls: 100,
  maxOutputBytes: 20 * 1024,
});

/** `code`: the gateway's refusal code, when the gateway refused the call (the program can branch on it). */
export type BridgeError = { name: string; message: string; approvalId?: string; code?: ToolErrorCode };

export type BridgeAnswer = { ok: true; value: unknown } | { ok: false; error: BridgeError };

/** How a program's `await tools.<server>.<tool>(args)` reaches the gateway. */
export type ToolBridge = { call(server: string, tool: string, args: unknown): Promise<BridgeAnswer> };

export type ExecError = { name: string; message: string; approvalId?: string };

export type ExecResult = {
  /** The program's return value after a JSON round trip (absent for undefined); a string with a marker when cut. */
  result?: unknown;
  error?: ExecError;
  logs: string[];
  /** Tool calls that reached the bridge (at most maxToolCalls). */
  toolCalls: number;
  /** workspace.* and skills.* calls that reached the bridge (at most maxToolCalls, counted apart). */
  workspaceOps: number;
  /** From execute() to the end of the run, queueing and type stripping included. */
  durationMs: number;
  /** The result or the logs were cut to maxOutputBytes. */
  truncated: boolean;
  /** From execute() to the program's first instruction, when the program started. */
  startupMs?: number;
};

export type ExecOptions = Partial<ExecLimits> & { language?: "js" | "ts" };

export type Executor = {
  execute(code: string, tools: ToolBridge, opts?: ExecOptions): Promise<ExecResult>;
  close(): Promise<void>;
};

/** Errors named by the sandbox itself (a program can throw anything else). */
export const SANDBOX_ERRORS = {
  timeout: "TimeoutError",
  memory: "MemoryError",
  stack: "StackOverflowError",
  toolCalls: "ToolCallLimitError",
  serialization: "SerializationError",
  sandbox: "SandboxError",
} as const;

export function resolveLimits(base: ExecLimits, override: Partial<ExecLimits> = {}): ExecLimits {
  const pick = (key: keyof ExecLimits, min: number) => {
    const value = override[key];
    return typeof value === "number" && Number.isFinite(value) ? Math.max(min, Math.floor(value)) : base[key];
  };
  return {
    wallMs: pick("wallMs", 1),
    memoryBytes: pick("memoryBytes", 1024 * 1024),
    maxStackBytes: pick("maxStackBytes", 16 * 1024),
    maxToolCalls: pick("maxToolCalls", 0),
    maxOutputBytes: pick("maxOutputBytes", 64),
  };
}
