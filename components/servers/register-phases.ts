// The steps a new server goes through before its tools are known, as the register dialog shows them. The
// gateway reports only the step it is on now (the DTO's `phase`); the dialog remembers the furthest one seen,
// so a step that went by between two polls still shows as done, and a failure is pinned to the step it hit.
import type { TServer } from "@/lib/schemas";
import { serverState } from "@/lib/server-state";

export type Phase = NonNullable<TServer["phase"]>;
export type StepState = "done" | "current" | "failed" | "pending";
export type Step = { phase: Phase; label: string; state: StepState };
/** running: still on its way; up: connected with its tools listed; down: it failed. */
export type Outcome = "running" | "up" | "down";

export const PHASE_LABEL: Record<Phase, string> = {
  installing: "Installing the package",
  starting: "Starting the server",
  initializing: "Initializing the MCP session",
  listing_tools: "Listing tools",
};
const ORDER: readonly Phase[] = ["installing", "starting", "initializing", "listing_tools"];

/** The steps of a server: only package servers install. */
export function phasesOf(packaged: boolean): Phase[] {
  return packaged ? [...ORDER] : ORDER.filter((p) => p !== "installing");
}

/** The later of two phases; null counts as not begun. */
export function furthest(a: Phase | null, b: Phase | null): Phase | null {
  if (a === null) return b;
  if (b === null) return a;
  return ORDER.indexOf(a) >= ORDER.indexOf(b) ? a : b;
}

/**
 * Each step's state from the furthest phase seen and the outcome. Not begun: the first step is current (the
 * request is on its way). Failed with no phase seen: the first step failed.
 */
export function phaseSteps(phases: readonly Phase[], reached: Phase | null, outcome: Outcome): Step[] {
  const at = reached === null ? 0 : Math.max(0, phases.indexOf(reached));
  return phases.map((phase, i) => {
    const state: StepState =
      outcome === "up" || i < at ? "done" : i > at ? "pending" : outcome === "down" ? "failed" : "current";
    return { phase, label: PHASE_LABEL[phase], state };
  });
}

/**
 * Where a registration stands, read from the server as last fetched while the create request may still run. A
 * failure stands even while the gateway tries again (as everywhere, lib/server-state.ts).
 */
export function outcomeOf(
  server: Pick<TServer, "status" | "phase" | "lastError"> | undefined,
  requestDone: boolean,
): Outcome {
  if (!server || !requestDone) return "running";
  const { tone } = serverState(server);
  if (tone === "down") return "down";
  return server.phase !== null || tone === "connecting" ? "running" : "up";
}
