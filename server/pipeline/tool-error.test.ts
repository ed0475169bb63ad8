import { describe, expect, it } from "vitest";
import { errorCodeOf, isToolErrorCode, toolError, type ToolErrorCode } from "./tool-error";

describe("tool error codes: one vocabulary", () => {
  it("reads the code of a gateway tool error back", () => {
    expect(errorCodeOf(toolError("authorization_revoked", "The agent session was revoked."))).toBe("authorization_revoked");
  });

  it("does not take a code outside the vocabulary (an upstream's own _meta) for one of the gateway's", () => {
    const upstreamOwn = { isError: true, content: [{ type: "text" as const, text: "no" }], _meta: { "portcullis/error": { code: "tool_unavailable" } } };
    expect(errorCodeOf(upstreamOwn)).toBeUndefined();
    expect(isToolErrorCode("session_revoked")).toBe(false);
    expect(isToolErrorCode("toString")).toBe(false);
  });

  it("knows every code a task can end with", () => {
    for (const code of ["canceled", "authorization_revoked", "interrupted", "internal", "tool_error", "approval_rejected", "approval_withdrawn", "approval_expired"]) {
      expect(isToolErrorCode(code), code).toBe(true);
    }
  });

  it("refuses an unknown code at typecheck", () => {
    // @ts-expect-error: `session_revoked` is not a tool error code (a revoked session's calls end `authorization_revoked`).
    const unknown: ToolErrorCode = "session_revoked";
    expect(isToolErrorCode(unknown)).toBe(false);
  });
});
