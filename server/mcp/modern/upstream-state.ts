// A 2026-07-28 upstream's `input_required` passed through to a 2026 client on /mcp/s (the upstream session runs
// in passthrough mode, server/upstream/modern/modern-client-transport.ts): its inputRequests are checked and go as
// they are (the upstream's keys), its requestState only inside Portcullis's own — signed, bound to the agent
// session, endpoint, method, name and arguments, and counting rounds — so the client cannot alter it, move it to
// another request or session, or keep an upstream asking forever. Nothing is held: the retry is a new request,
// through the same pipeline, carrying the upstream's state back.
import { inputRequestsOf, MAX_UPSTREAM_STATE_CHARS } from "../../upstream/modern/input-requests";
import { MAX_INPUT_ROUNDS } from "../../upstream/modern/modern-client-transport";
import { RpcFailure } from "../../upstream/modern/rpc-failure";
import { createHmac } from "node:crypto";
import { MRTR_HOLD_MS } from "./continuations";
import { MODERN_ERROR } from "./modern-protocol";
import { createRequestStates, type Carried, type RequestStates, type StateBinding } from "./request-state";

/** Marks a wrapped state (only to pick the verifier: the signature decides). */
const WRAPPED = "w.";

/** Room for the largest upstream state, UTF-8 then base64url. */
const MAX_WRAPPED_CHARS = 2048 + Math.ceil((MAX_UPSTREAM_STATE_CHARS * 3 * 4) / 3);

/**
 * The signer of wrapped states, under a key of its own derived from the deployment's requestState key (the same in
 * every process, so any may serve a retry; distinct from the continuations' key, so neither kind of token passes
 * for the other). Read on first use, read again after a failure.
 */
export function createUpstreamStates(requestStateKey: () => Promise<Buffer>): () => Promise<RequestStates> {
  let loaded: Promise<RequestStates> | undefined;
  return () =>
    (loaded ??= requestStateKey().then(
      (key) => createRequestStates(createHmac("sha256", key).update("portcullis/mrtr/upstream-state/v1").digest(), MAX_WRAPPED_CHARS),
      (err: unknown) => {
        loaded = undefined;
        throw err;
      },
    ));
}

/** The retry's carried state, or why it is refused; null when the token is not a wrapped one (a held continuation's). */
export function unwrapState(states: RequestStates, token: unknown, binding: StateBinding, now: number): Carried | { refused: string } | null {
  if (typeof token !== "string" || !token.startsWith(WRAPPED)) return null;
  const opened = states.open(token.slice(WRAPPED.length), binding, now);
  if ("refused" in opened) return opened;
  if (opened.round === undefined) return { refused: "requestState is not one this gateway issued" };
  return { round: opened.round, upstream: opened.upstream };
}

const CAPABILITY: Readonly<Record<string, string>> = { "elicitation/create": "elicitation", "sampling/createMessage": "sampling", "roots/list": "roots" };

type Message = Record<string, unknown> & { id?: unknown; result?: Record<string, unknown> };

/**
 * `message` for the client: an input_required result with its state wrapped (round `round + 1`), or an error when
 * the upstream asked for too many rounds, asked for input the client did not declare, or asked malformed.
 */
export function passInputRequired(message: Message | null, ctx: { states: RequestStates; binding: StateBinding; round: number; capabilities: unknown; now: number }): Message | null {
  const result = message?.result;
  if (!message || result?.resultType !== "input_required") return message;
  const fail = (code: number, text: string, data: unknown) => ({ jsonrpc: "2.0", id: message.id, error: { code, message: text, data } });
  if (ctx.round >= MAX_INPUT_ROUNDS) return fail(-32603, `The upstream asked for input ${String(ctx.round + 1)} times without finishing the request`, { reason: "upstream_input_rounds_exceeded", maxRounds: MAX_INPUT_ROUNDS });
  let requests: ReturnType<typeof inputRequestsOf>;
  try {
    requests = inputRequestsOf(result.inputRequests);
  } catch (err) {
    const e = RpcFailure.from(err);
    return fail(e.code, e.message, e.data);
  }
  const declared = (typeof ctx.capabilities === "object" && ctx.capabilities !== null ? ctx.capabilities : {}) as Record<string, unknown>;
  const missing = [...new Set(requests.map(([, r]) => CAPABILITY[r.method]!).filter((c) => declared[c] === undefined))];
  if (missing.length) {
    return fail(MODERN_ERROR.missingRequiredClientCapability, `Missing required client capability: ${missing.join(", ")}`, { requiredCapabilities: Object.fromEntries(missing.map((c) => [c, {}])) });
  }
  const upstream = typeof result.requestState === "string" ? result.requestState : undefined;
  // No continuation and no holder: nothing is held, any process serves the retry.
  const requestState = WRAPPED + ctx.states.issue("", "", ctx.binding, ctx.now + MRTR_HOLD_MS, { round: ctx.round + 1, upstream });
  return { ...message, result: { ...result, requestState } };
}
