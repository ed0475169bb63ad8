// What a code-mode run is made of: the gateway's parts it uses, whose program it is, and the account of its calls.
import type { RequestContext } from "../context";
import type { AggregateDeps } from "../mcp/build-aggregate-server";
import type { AuditErrorCode } from "../pipeline/tool-error";
import type { SessionGrant } from "../policy/evaluate";
import type { SemanticRanker } from "./embeddings/semantic-ranker";
import type { ExecLimits, Executor } from "./executor";
import type { PrivacyVault } from "./privacy";
import type { RunGate } from "./run-gate";
import type { Workspace } from "./workspace";

export type CodeModeDeps = AggregateDeps & {
  executor: Executor;
  limits: ExecLimits;
  workspace: Workspace;
  /** CODE_MODE_PRIVACY: every run of an agent session hides matched values from the model (privacy.ts). */
  privacyAlways?: boolean | undefined;
  /** Runs per caller per minute and at once (run-gate.ts); absent, runs are not counted. */
  runGate?: RunGate | undefined;
  /** search_tools' semantic ranking (SEARCH_EMBEDDINGS), set up on first use; null or absent: lexical only. */
  semantic?: (() => Promise<SemanticRanker | null>) | undefined;
};

/** Whose program it is: the grant decides what its calls may do. */
export type ProgramScope = { grant: SessionGrant; ctx: RequestContext; bucket: number; sessionKey?: string | undefined; mcpSessionId?: string | undefined; signal: AbortSignal; endpoint?: "code" | "console" };

/** One call the program made, for the playground's list and the caller's own account. */
export type InnerCall = {
  tool: string;
  /** ok: answered; error: the tool answered with an error; refused: the gateway said no; held: waiting for a person. */
  status: "ok" | "error" | "refused" | "held";
  decision: string | null;
  code: AuditErrorCode | null;
  durationMs: number;
  approvalId?: string;
};

/** One run in progress: its calls so far, and its vault when matched values are hidden from the model. */
export type ProgramRun = { deps: CodeModeDeps; scope: ProgramScope; calls: InnerCall[]; vault: PrivacyVault | undefined };
