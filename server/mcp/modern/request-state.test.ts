// requestState: what it binds, and every way a forged, altered or misapplied one is refused.
import { describe, expect, it } from "vitest";
import { createRequestStates, requestStateKey, type StateBinding } from "./request-state";

const binding: StateBinding = { agentSessionId: "as1", endpoint: "mcp/s/x", method: "tools/call", name: "t", arguments: { a: 1 } };
const states = createRequestStates(Buffer.alloc(32, 7));
const token = states.issue("c1", "p1", binding, 1_000);

describe("requestState", () => {
  it("opens for the request it was issued for, before it expires", () => {
    expect(states.open(token, binding, 999)).toEqual({ id: "c1", holder: "p1" });
  });
  it("opens in every process whose key comes from the same secrets key, in none whose key does not", () => {
    const secret = Buffer.alloc(32, 1);
    const issued = createRequestStates(requestStateKey(secret)).issue("c9", "p2", binding, 1_000);
    expect(createRequestStates(requestStateKey(Buffer.from(secret))).open(issued, binding, 0)).toEqual({ id: "c9", holder: "p2" });
    expect(createRequestStates(requestStateKey(Buffer.alloc(32, 2))).open(issued, binding, 0)).toEqual({ refused: "requestState failed its integrity check" });
    // Not the secrets key itself: a state signed with the raw key is refused.
    expect(createRequestStates(secret).issue("c9", "p2", binding, 1_000)).not.toBe(issued);
  });
  it.each<[string, unknown, StateBinding, number, RegExp]>([
    ["expired", token, binding, 1_000, /expired/],
    ["another agent session", token, { ...binding, agentSessionId: "as2" }, 0, /another request or agent session/],
    ["another endpoint", token, { ...binding, endpoint: "mcp/s/y" }, 0, /another request/],
    ["another tool", token, { ...binding, name: "u" }, 0, /another request/],
    ["other arguments", token, { ...binding, arguments: { a: 2 } }, 0, /another request/],
    ["another method", token, { ...binding, method: "prompts/get" }, 0, /another request/],
    ["a signature of another key", createRequestStates(Buffer.alloc(32, 8)).issue("c1", "p1", binding, 1_000), binding, 0, /integrity/],
    ["a payload swapped under the signature", `${Buffer.from('{"c":"c2","h":"p1","b":"x","x":9}').toString("base64url")}.${token.split(".")[1]}`, binding, 0, /integrity/],
    ["the signature spelled another way (the spare bits of its last character)", respelled(token), binding, 0, /integrity/],
    ["not a string", 42, binding, 0, /not one this gateway issued/],
    ["three parts", `${token}.x`, binding, 0, /not one this gateway issued/],
    ["oversized", "a".repeat(3000), binding, 0, /not one this gateway issued/],
  ])("refuses %s", (_what, t, b, now, reason) => {
    const opened = states.open(t, b, now);
    expect("refused" in opened && opened.refused).toMatch(reason);
  });
});

/** The same token with its signature's last character's spare (lowest) bit flipped: it decodes to the same bytes. */
function respelled(t: string): string {
  const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  const [payload, signature] = t.split(".") as [string, string];
  const other = `${signature.slice(0, -1)}${ALPHABET[ALPHABET.indexOf(signature.at(-1)!) ^ 1]!}`;
  if (!Buffer.from(other, "base64url").equals(Buffer.from(signature, "base64url"))) throw new Error("not a respelling");
  return `${payload}.${other}`;
}
