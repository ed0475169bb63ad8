// Which of a code-mode program's tool calls leave the sandbox. The VM queues its calls and the host drains them
// as one JSON text, flat: [callId, server, tool, argsJson | null, …]. A call past maxToolCalls, or with more than
// maxArgsChars of argument text (the gateway parses arguments on its event loop), is refused here and never sent.
// workspace.* and skills.* (the reserved "$" servers of prelude-servers.ts) are counted apart from tool calls. Runs
// inside the sandbox worker: quickjs-runner.ts carries this function's source there (run-parts.ts), so it stays
// self-contained (no imports at run time, no module-level helpers).

/** A tool call leaving the sandbox: its arguments as JSON text (absent when the program passed none). */
export type OutgoingCall = { callId: number; server: string; tool: string; argsJson?: string };

/** A refused call's answer, as the VM's deliver() takes it. */
export type Refusal = { callId: number; answer: string };

export type CallGate = {
  /** The drained text: the calls to send and the refusals to hand back at once. */
  take(drained: string): { calls: OutgoingCall[]; refusals: Refusal[] };
  /** Tool calls let through so far. */
  toolCalls(): number;
};

export function callGate(maxToolCalls: number, maxArgsChars: number): CallGate {
  let toolCalls = 0;
  let workspaceOps = 0;
  return {
    take(drained) {
      const calls: OutgoingCall[] = [];
      const refusals: Refusal[] = [];
      if (drained === "") return { calls, refusals };
      const flat: unknown = JSON.parse(drained);
      if (!Array.isArray(flat)) return { calls, refusals };
      const refuse = (callId: number, name: string, message: string) => refusals.push({ callId, answer: JSON.stringify({ ok: false, error: { name, message } }) });
      for (let i = 0; i + 3 < flat.length; i += 4) {
        const [callId, server, tool, argsJson] = flat.slice(i, i + 4) as unknown[];
        if (typeof callId !== "number" || typeof server !== "string" || typeof tool !== "string") continue;
        const workspaceOp = server.startsWith("$");
        if ((workspaceOp ? workspaceOps : toolCalls) >= maxToolCalls) {
          refuse(callId, "ToolCallLimitError", `the program made more than ${String(maxToolCalls)} ${workspaceOp ? "workspace operations" : "tool calls"}`);
          continue;
        }
        if (typeof argsJson === "string" && argsJson.length > maxArgsChars) {
          refuse(callId, "ToolArgumentsTooLarge", `tools.${server}.${tool} was given ${String(argsJson.length)} characters of arguments (at most ${String(maxArgsChars)})`);
          continue;
        }
        if (workspaceOp) workspaceOps++;
        else toolCalls++;
        calls.push({ callId, server, tool, ...(typeof argsJson === "string" && { argsJson }) });
      }
      return { calls, refusals };
    },
    toolCalls: () => toolCalls,
  };
}
