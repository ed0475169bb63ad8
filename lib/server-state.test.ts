import { describe, expect, it } from "vitest";
import { serverState } from "./server-state";

describe("serverState", () => {
  it.each([
    ["HEALTHY", null, "Healthy", "connected but offers no tools"],
    ["DEGRADED", null, "Degraded", "connected but offers no tools"],
    ["DOWN", "Connection closed", "Down", "has not connected"],
    ["CONNECTING", null, "Connecting", "is connecting"],
    // A retry after a failure: the same Down the list showed a moment ago, never "connected".
    ["CONNECTING", "Connection closed: Error: Cannot find module 'x'", "Down", "trying again now"],
    ["DISABLED", null, "Disabled", "enable it"],
  ] as const)("%s (lastError %s) reads %s", (status, lastError, label, noTools) => {
    const s = serverState({ status, lastError });
    expect(s.label).toBe(label);
    expect(s.noTools).toContain(noTools);
    expect(s.serving).toBe(status === "HEALTHY" || status === "DEGRADED");
  });
});
