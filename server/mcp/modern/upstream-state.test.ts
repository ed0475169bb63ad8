import { beforeAll, describe, expect, it } from "vitest";
import type { StateBinding } from "./request-state";
import { randomBytes } from "node:crypto";
import { createUpstreamStates, passInputRequired, unwrapState } from "./upstream-state";

const signer = () => createUpstreamStates(() => Promise.resolve(randomBytes(32)))();

const binding: StateBinding = { agentSessionId: "s1", endpoint: "mcp/s/x", method: "tools/call", name: "greet", arguments: {} };
const asking = (extra: Record<string, unknown> = {}) => ({
  jsonrpc: "2.0",
  id: 1,
  result: { resultType: "input_required", inputRequests: { name: { method: "elicitation/create", params: { message: "?" } } }, requestState: "upstream-state", ...extra },
});

describe("a 2026 upstream's input_required passed to a 2026 client", () => {
  let states: Awaited<ReturnType<typeof signer>>;
  let ctx: Parameters<typeof passInputRequired>[1];
  beforeAll(async () => {
    states = await signer();
    ctx = { states, binding, round: 0, capabilities: { elicitation: {} }, now: 1_000 };
  });

  it("the upstream's state goes out wrapped, signed and bound, and comes back only to the same request", async () => {
    const out = passInputRequired(asking(), ctx)!;
    const token = (out.result as { requestState: string }).requestState;
    expect(token).not.toContain("upstream-state");
    expect(unwrapState(states, token, binding, 2_000)).toEqual({ round: 1, upstream: "upstream-state" });
    expect(unwrapState(states, token, { ...binding, arguments: { x: 1 } }, 2_000)).toEqual({ refused: expect.stringMatching(/another request/) as unknown });
    expect(unwrapState(states, token, { ...binding, agentSessionId: "s2" }, 2_000)).toEqual({ refused: expect.stringMatching(/another request or agent session/) as unknown });
    expect(unwrapState(await signer(), token, binding, 2_000)).toEqual({ refused: expect.stringMatching(/integrity/) as unknown });
    expect(unwrapState(states, token, binding, 10 * 60_000)).toEqual({ refused: expect.stringMatching(/expired/) as unknown });
  });

  it("a token that is not a wrapped one is left to the continuations (null); a garbage one is refused", () => {
    expect(unwrapState(states, "abc.def", binding, 2_000)).toBeNull();
    expect(unwrapState(states, 42, binding, 2_000)).toBeNull();
    expect(unwrapState(states, "w.abc.def", binding, 2_000)).toEqual({ refused: expect.stringMatching(/integrity/) as unknown });
    expect(unwrapState(states, `w.${"a".repeat(100_000)}`, binding, 2_000)).toEqual({ refused: expect.stringMatching(/not one this gateway issued/) as unknown });
  });

  it("without an upstream state the round is still counted; past 8 rounds the client gets an error", () => {
    const out = passInputRequired(asking({ requestState: undefined }), ctx)!;
    expect(unwrapState(states, (out.result as { requestState: string }).requestState, binding, 2_000)).toEqual({ round: 1 });
    expect(passInputRequired(asking(), { ...ctx, round: 8 })).toMatchObject({ error: { code: -32603, data: { reason: "upstream_input_rounds_exceeded" } } });
  });

  it("input the client did not declare is -32021; malformed input requests an error; complete results pass untouched", () => {
    expect(passInputRequired(asking(), { ...ctx, capabilities: { sampling: {} } })).toMatchObject({ error: { code: -32021, data: { requiredCapabilities: { elicitation: {} } } } });
    expect(passInputRequired(asking({ inputRequests: { x: { method: "tools/call" } } }), ctx)).toMatchObject({ error: { data: { reason: "upstream_input_requests_invalid" } } });
    const complete = { jsonrpc: "2.0", id: 1, result: { resultType: "complete", content: [] } };
    expect(passInputRequired(complete, ctx)).toBe(complete);
    expect(passInputRequired(null, ctx)).toBeNull();
  });
});
