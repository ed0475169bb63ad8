import { describe, expect, it } from "vitest";
import { bridgeAnswer } from "./bridge-answer";
import type { BridgeAnswer, ToolBridge } from "./executor";

const call = (argsJson?: string) => ({ callId: 1, server: "crm", tool: "get", ...(argsJson !== undefined && { argsJson }) });
const answering = (answer: () => Promise<BridgeAnswer>, seen: unknown[] = []): ToolBridge => ({
  call: (_server, _tool, args) => {
    seen.push(args);
    return answer();
  },
});

describe("a tool call's answer, as the program gets it", () => {
  it.each([
    { case: "a value", answer: { ok: true, value: { id: 7 } }, text: { ok: true, value: { id: 7 } } },
    { case: "a refusal with its code", answer: { ok: false, error: { name: "ToolError", message: "no", code: "policy_denied" } }, text: { ok: false, error: { name: "ToolError", message: "no", code: "policy_denied" } } },
    { case: "a value that is not JSON", answer: { ok: true, value: 10n }, text: { ok: false, error: { name: "SerializationError", message: "the tool's answer is not JSON" } } },
    { case: "no answer at all", answer: undefined, text: { ok: false, error: { name: "ToolBridgeError", message: "the gateway gave no answer" } } },
  ])("$case", async ({ answer, text }) => {
    const approvals = new Set<string>();
    expect(JSON.parse(await bridgeAnswer(answering(() => Promise.resolve(answer as BridgeAnswer)), call(), approvals))).toEqual(text);
    expect(approvals.size).toBe(0);
  });

  it("notes the approval the gateway issued, and hands its id on", async () => {
    const approvals = new Set<string>();
    const held = { ok: false as const, error: { name: "ApprovalRequiredError", message: "held", approvalId: "ap_1" } };
    expect(JSON.parse(await bridgeAnswer(answering(() => Promise.resolve(held)), call(), approvals))).toEqual(held);
    expect([...approvals]).toEqual(["ap_1"]);
  });

  it.each([
    { case: "rejects", bridge: answering(() => Promise.reject(new Error("the gateway is shutting down"))), message: "the gateway is shutting down" },
    {
      case: "throws before it answers",
      bridge: {
        call: () => {
          throw new Error("bad call");
        },
      },
      message: "bad call",
    },
  ])("a bridge that $case answers a ToolBridgeError the program can catch", async ({ bridge, message }) => {
    expect(JSON.parse(await bridgeAnswer(bridge, call(), new Set()))).toEqual({ ok: false, error: { name: "ToolBridgeError", message } });
  });

  it("gives the arguments as host data: no __proto__ key reaches the gateway, and text that is not JSON is none", async () => {
    const seen: unknown[] = [];
    const bridge = answering(() => Promise.resolve({ ok: true, value: null }), seen);
    await bridgeAnswer(bridge, call('{"__proto__":{"admin":true},"id":1}'), new Set());
    await bridgeAnswer(bridge, call("{"), new Set());
    await bridgeAnswer(bridge, call(), new Set());
    expect(seen).toEqual([{ id: 1 }, undefined, undefined]);
    expect(Object.getPrototypeOf(seen[0])).toBe(Object.prototype);
  });
});
