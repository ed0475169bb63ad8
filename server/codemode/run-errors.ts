// How a code-mode program's failure is named to the agent. An error stands for the limit it hit when the run was
// stopped by one (TimeoutError, MemoryError, StackOverflowError, each saying the limit); an error the program threw
// comes as the VM described it (name, message, and the approval it waits on, if any); a failure of the host
// itself is a SandboxError. Runs inside the sandbox worker: quickjs-runner.ts carries this function's source there
// (run-parts.ts), so it stays self-contained (no imports at run time, no module-level helpers).
import type { ExecError, ExecLimits } from "./executor";

/** Why the run was stopped, if it was: past its wall clock, or past its memory. */
export type RunStop = { timedOut: boolean; overMemory: boolean };

export type ErrorNames = {
  /** The error the agent sees: a limit's own error when the run hit one, else `e` as it is. */
  named(e: ExecError, stop: RunStop): ExecError;
  /** What the VM's finish("error", json) described; a generic error when the text is not such a description. */
  thrown(json: string | undefined): ExecError;
  /** A failure of the host (the worker, QuickJS itself). */
  hostFault(err: unknown): ExecError;
};

export function errorNames(limits: Pick<ExecLimits, "wallMs" | "memoryBytes" | "maxStackBytes">): ErrorNames {
  const mib = (n: number) => `${String(Math.round((n / 1024 / 1024) * 10) / 10)} MiB`;
  const kib = (n: number) => `${String(Math.round(n / 1024))} KiB`;
  return {
    named(e, stop) {
      if (stop.timedOut) return { name: "TimeoutError", message: `the program ran longer than ${String(limits.wallMs)} ms` };
      const text = `${e.name}: ${e.message}`;
      if (stop.overMemory || /out of memory/i.test(text)) return { name: "MemoryError", message: `the program used more than ${mib(limits.memoryBytes)} of memory` };
      if (/stack overflow|call stack size/i.test(text)) return { name: "StackOverflowError", message: `the program exceeded its ${kib(limits.maxStackBytes)} stack (recursion too deep)` };
      return e;
    },
    thrown(json) {
      try {
        const parsed = JSON.parse(json ?? "null") as { name?: unknown; message?: unknown; approvalId?: unknown } | null;
        if (parsed && typeof parsed.name === "string" && typeof parsed.message === "string") {
          return { name: parsed.name, message: parsed.message, ...(typeof parsed.approvalId === "string" && { approvalId: parsed.approvalId }) };
        }
      } catch {
        // not a description: the generic error below
      }
      return { name: "Error", message: "the program failed" };
    },
    hostFault(err) {
      const message = err instanceof Error ? err.message : typeof err === "string" ? err : "unknown failure";
      return { name: "SandboxError", message };
    },
  };
}
