// Runs one code-mode program for a caller (an agent session on /mcp/code, or a person in the console's
// playground): the sandbox runs the code, and each `tools.<server>.<tool>(args)` inside it goes through the
// gateway pipeline with the caller's grant, audited under the caller's request id. `workspace.*` and
// `skills.*` (the prelude) reach the caller's own workspace.
import { redactor } from "../audit/redaction";
import type { ExecResult } from "./executor";
import { openVault } from "./privacy";
import type { CodeModeDeps, InnerCall, ProgramScope } from "./program-scope";
import { programToolCall } from "./program-tool-call";
import { PROGRAM_PRELUDE } from "./workspace";

// Where the rest of the gateway has always imported them.
export type { CodeModeDeps, InnerCall, ProgramScope } from "./program-scope";

export async function runProgram(
  deps: CodeModeDeps,
  scope: ProgramScope,
  code: string,
  opts: { timeoutMs?: number; language?: "js" | "ts"; privacy?: boolean } = {},
): Promise<{ run: ExecResult; calls: InnerCall[]; privacy: boolean }> {
  const calls: InnerCall[] = [];
  // Placeholders are kept per agent session: a console run has none to keep them in.
  const agentSessionId = scope.grant.agentSessionId;
  const vault = (opts.privacy || deps.privacyAlways) && agentSessionId ? await openVault(deps.db, scope.grant.userId, agentSessionId, redactor()) : undefined;

  const program = { deps, scope, calls, vault };
  const run = await deps.executor.execute(PROGRAM_PRELUDE + code, { call: (serverSlug, tool, args) => programToolCall(program, serverSlug, tool, args) }, {
    ...(opts.timeoutMs !== undefined && { wallMs: Math.min(opts.timeoutMs, deps.limits.wallMs) }),
    ...(opts.language && { language: opts.language }),
  });
  if (!vault) return { run, calls, privacy: false };
  const hidden: ExecResult = {
    ...run,
    ...(run.result !== undefined && { result: vault.hide(run.result) }),
    ...(run.error && { error: { ...run.error, message: vault.hideText(run.error.message) } }),
    logs: run.logs.map((l) => vault.hideText(l)),
  };
  await vault.save();
  return { run: hidden, calls, privacy: true };
}
