// What runProgram (quickjs-runner.ts) is built from besides itself: the VM's bootstrap source and the three host-side
// jobs of a run (what may be printed and returned, which tool calls leave, how a failure is named). The sandbox
// worker is started from a source string (D29), so every part is self-contained and is carried there as its own
// source text: runProgram receives the parts as a parameter, never by a module-level name a bundler may rename.
import { RUN_BOOTSTRAP } from "./run-bootstrap";
import { callGate } from "./run-calls";
import { errorNames } from "./run-errors";
import { outputBounds } from "./run-output";

export const RUN_PARTS = { bootstrap: RUN_BOOTSTRAP, outputBounds, callGate, errorNames };
export type RunParts = typeof RUN_PARTS;

/** RUN_PARTS as a JavaScript object expression, for the worker's source. */
export function runPartsSource(): string {
  const entries = Object.entries(RUN_PARTS).map(([key, part]) => `${key}: ${typeof part === "string" ? JSON.stringify(part) : `(${part.toString()})`}`);
  return `{ ${entries.join(", ")} }`;
}
