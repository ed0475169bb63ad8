// The parent's side of one tool call from a program: its arguments (JSON text from the sandbox) as host data, the
// gateway's answer through the ToolBridge, and that answer as the JSON text the VM's deliver() takes. An approval
// the gateway issued is noted for the run (run-result.ts lets only those through); an answer that is not JSON, or a
// bridge that throws or answers nothing, reaches the program as an error it can catch, never as a failed run.
import type { BridgeAnswer, ToolBridge } from "./executor";
import type { OutgoingCall } from "./quickjs-runner";
import { parseSandboxJson } from "./run-result";

/** The answer text of one call; `approvals` gets the id of an approval the gateway issued for it. */
export async function bridgeAnswer(bridge: ToolBridge, call: OutgoingCall, approvals: Set<string>): Promise<string> {
  let args: unknown;
  try {
    args = call.argsJson === undefined ? undefined : parseSandboxJson(call.argsJson);
  } catch {
    args = undefined;
  }
  try {
    const answer = await bridge.call(call.server, call.tool, args);
    if (answer && !answer.ok && typeof answer.error.approvalId === "string") approvals.add(answer.error.approvalId);
    return answerJson(answer);
  } catch (err) {
    return refusal("ToolBridgeError", err instanceof Error ? err.message : "the tool call failed");
  }
}

const refusal = (name: string, message: string) => JSON.stringify({ ok: false, error: { name, message } });

function answerJson(answer: BridgeAnswer | undefined): string {
  if (!answer || typeof answer !== "object") return refusal("ToolBridgeError", "the gateway gave no answer");
  try {
    if (answer.ok) return JSON.stringify({ ok: true, value: answer.value });
    const { name, message, approvalId, code } = answer.error;
    return JSON.stringify({ ok: false, error: { name, message, ...(approvalId !== undefined && { approvalId }), ...(code !== undefined && { code }) } });
  } catch {
    return refusal("SerializationError", "the tool's answer is not JSON");
  }
}
