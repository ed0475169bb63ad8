import { describe, expect, it } from "vitest";
import { furthest, outcomeOf, phaseSteps, phasesOf, type Outcome, type Phase } from "./register-phases";

const states = (packaged: boolean, reached: Phase | null, outcome: Outcome) =>
  phaseSteps(phasesOf(packaged), reached, outcome).map((s) => `${s.phase}:${s.state}`);

describe("phaseSteps", () => {
  it.each<[boolean, Phase | null, Outcome, string[]]>([
    [
      true,
      null,
      "running",
      ["installing:current", "starting:pending", "initializing:pending", "listing_tools:pending"],
    ],
    [
      true,
      "initializing",
      "running",
      ["installing:done", "starting:done", "initializing:current", "listing_tools:pending"],
    ],
    [true, "starting", "down", ["installing:done", "starting:failed", "initializing:pending", "listing_tools:pending"]],
    [true, null, "down", ["installing:failed", "starting:pending", "initializing:pending", "listing_tools:pending"]],
    [true, "installing", "up", ["installing:done", "starting:done", "initializing:done", "listing_tools:done"]],
    [false, null, "running", ["starting:current", "initializing:pending", "listing_tools:pending"]],
    [false, "listing_tools", "down", ["starting:done", "initializing:done", "listing_tools:failed"]],
    // A stdio server never installs; a stray phase it did not have counts as its first step.
    [false, "installing", "running", ["starting:current", "initializing:pending", "listing_tools:pending"]],
  ])("packaged=%s reached=%s %s", (packaged, reached, outcome, expected) => {
    expect(states(packaged, reached, outcome)).toEqual(expected);
  });
});

describe("furthest", () => {
  it.each<[Phase | null, Phase | null, Phase | null]>([
    [null, null, null],
    [null, "starting", "starting"],
    ["initializing", null, "initializing"],
    ["listing_tools", "starting", "listing_tools"],
    ["installing", "initializing", "initializing"],
  ])("%s, %s → %s", (a, b, expected) => {
    expect(furthest(a, b)).toBe(expected);
  });
});

describe("outcomeOf", () => {
  it.each<[Parameters<typeof outcomeOf>[0], boolean, Outcome]>([
    [undefined, false, "running"],
    [undefined, true, "running"],
    [{ status: "HEALTHY", phase: null, lastError: null }, false, "running"],
    [{ status: "HEALTHY", phase: null, lastError: null }, true, "up"],
    [{ status: "DEGRADED", phase: null, lastError: null }, true, "up"],
    [{ status: "DISABLED", phase: null, lastError: null }, true, "up"],
    [{ status: "CONNECTING", phase: "installing", lastError: null }, true, "running"],
    [{ status: "CONNECTING", phase: null, lastError: null }, true, "running"],
    [{ status: "DOWN", phase: null, lastError: "spawn npx ENOENT" }, true, "down"],
    // Retrying after a failure: the failure is the outcome, not the new attempt's phase.
    [{ status: "CONNECTING", phase: "starting", lastError: "timed out" }, true, "down"],
    [{ status: "DOWN", phase: null, lastError: "timed out" }, false, "running"],
  ])("%j done=%s → %s", (server, done, expected) => {
    expect(outcomeOf(server, done)).toBe(expected);
  });
});
