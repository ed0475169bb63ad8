// What an entry reports: its status (to the pool's onStatus), the step its connect has reached (onPhase), and
// why its process failed, from its stderr.
import { sandboxHint } from "../sandbox/sandbox-hint";
import { withErrorLines } from "./pick-error-lines";
import type { Entry, PoolScope, UpstreamStatus } from "./pool-scope";
import { isProcessLaunch, type ConnectPhase } from "./upstream-client";

export function setStatus({ events }: PoolScope, e: Entry, status: UpstreamStatus, info: { lastError?: string; latencyMs?: number } = {}) {
  // A removed entry's last attempt may still settle; the server row belongs to its successor by then.
  if (e.removed) return;
  const changed = e.status !== status || (info.lastError !== undefined && info.lastError !== e.lastError);
  e.status = status;
  if (info.lastError !== undefined) e.lastError = info.lastError;
  if (changed || info.latencyMs !== undefined) events.onStatus?.(e.spec, status, info);
}

/** Why a process failed, from its stderr: the error lines, and what the sandbox has to do with it. */
export function failure(e: Entry, message: string): string {
  const lines = e.stderr.recent();
  const iso = isProcessLaunch(e.spec.launch) ? e.spec.launch.isolation : undefined;
  const hint = sandboxHint(lines, { isolation: iso });
  return hint ? `${withErrorLines(message, lines)} — ${hint}` : withErrorLines(message, lines);
}

export function reportPhase({ events }: PoolScope, e: Entry, phase: ConnectPhase | null) {
  if (e.removed || e.phase === phase) return;
  e.phase = phase;
  events.onPhase?.(e.spec, phase);
}
