// An upstream's request relayed to the agent while its session closes, or while its send fails: the relayed call
// ends with that error, and no promise is left to reject unhandled (which once failed a whole CI run).
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { JSONRPCRequest } from "@modelcontextprotocol/sdk/types.js";
import type { ChangeBus, ChangeEvent } from "../../events/change-bus";
import { createLogger } from "../../logger";
import { agentRelay } from "./agent-relay";
import type { LiveSession } from "./live-session";
import { PendingReplies } from "./pending-replies";

/** A bus whose publish the test settles by hand: the request is "being sent" until then. */
function heldBus() {
  const sends: { event: ChangeEvent; resolve: () => void; reject: (e: Error) => void }[] = [];
  const bus: ChangeBus = {
    publish: (event) => new Promise<void>((resolve, reject) => sends.push({ event, resolve, reject })),
    subscribe: () => () => undefined,
    heardEverywhere: (fn) => fn(),
    close: async () => undefined,
  };
  return { bus, sends };
}

const session = { mcpSessionId: "session-1", inFlight: [] } as unknown as LiveSession;
const rootsList: JSONRPCRequest = { jsonrpc: "2.0", id: 7, method: "roots/list" };
/** One turn of the event loop: Node reports a rejection nobody handled at the end of the turn it happened in. */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe("agentRelay.ask", () => {
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => unhandled.push(reason);
  beforeEach(() => {
    unhandled.length = 0;
    process.on("unhandledRejection", onUnhandled);
  });
  afterEach(() => {
    process.off("unhandledRejection", onUnhandled);
  });

  function relay() {
    const { bus, sends } = heldBus();
    const replies = new PendingReplies();
    const r = agentRelay({ bus, log: createLogger("silent"), replies, relayTimeoutMs: 60_000, live: new Map() });
    return { r, replies, sends };
  }

  it("the session closes while the request is being sent: the call ends with -32000, nothing is left unhandled", async () => {
    const { r, replies, sends } = relay();
    const asked = r.ask(session, rootsList, new AbortController().signal);
    const outcome = asked.then(
      () => "answered",
      (e: { code?: number }) => e.code,
    );
    expect(sends).toHaveLength(1);
    replies.dropSession(session.mcpSessionId);
    await nextTurn();
    sends[0]!.resolve();
    expect(await outcome).toBe(-32000);
    await nextTurn();
    expect(unhandled).toEqual([]);
  });

  it("the send fails: the call ends with the send's error at once, and the wait is gone", async () => {
    const { r, replies, sends } = relay();
    const asked = r.ask(session, rootsList, new AbortController().signal);
    const outcome = asked.then(
      () => "answered",
      (e: Error) => e.message,
    );
    sends[0]!.reject(new Error("the bus is closed"));
    expect(await outcome).toBe("the bus is closed");
    const id = (sends[0]!.event as { message: { id: string } }).message.id;
    // Nobody waits for that id any more: a late reply finds no waiter.
    expect(replies.settle(session.mcpSessionId, { jsonrpc: "2.0", id, result: {} })).toBe(false);
    replies.dropSession(session.mcpSessionId);
    await nextTurn();
    expect(unhandled).toEqual([]);
  });

  it("the agent's reply answers the call", async () => {
    const { r, replies, sends } = relay();
    const asked = r.ask(session, rootsList, new AbortController().signal);
    sends[0]!.resolve();
    const id = (sends[0]!.event as { message: { id: string } }).message.id;
    expect(replies.settle(session.mcpSessionId, { jsonrpc: "2.0", id, result: { roots: [] } })).toBe(true);
    expect(await asked).toEqual({ roots: [] });
  });
});
