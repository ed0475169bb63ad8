// What an upstream's `input_required` asks for, checked before anything acts on it: it comes from outside.
import { RpcFailure } from "./rpc-failure";

/** Longest upstream requestState carried (to the upstream again, or wrapped to a client): bounds memory and tokens. */
export const MAX_UPSTREAM_STATE_CHARS = 16_384;
/** Most input requests one round may carry. */
export const MAX_INPUT_REQUESTS = 16;

const INPUT_METHODS = new Set(["elicitation/create", "sampling/createMessage", "roots/list"]);
const KEY = /^[\x21-\x7e]{1,128}$/;

/** The upstream's requestState: absent, or a string within bounds; anything else fails the request. */
export function upstreamRequestState(state: unknown): string | undefined {
  if (state === undefined) return undefined;
  if (typeof state !== "string") throw new RpcFailure(-32603, "The upstream's requestState is not a string", { reason: "upstream_request_state_invalid" });
  if (state.length > MAX_UPSTREAM_STATE_CHARS) {
    throw new RpcFailure(-32603, `The upstream's requestState is longer than ${String(MAX_UPSTREAM_STATE_CHARS)} characters`, { reason: "upstream_request_state_too_large" });
  }
  return state;
}

/** The input requests by key (none when absent): at most MAX_INPUT_REQUESTS, each a known method with object params. */
export function inputRequestsOf(inputRequests: unknown): [string, { method: string; params: Record<string, unknown> }][] {
  // Only a requestState (no inputRequests): the retry carries it back with no responses.
  if (inputRequests === undefined) return [];
  const invalid = (why: string) => new RpcFailure(-32603, `The upstream asked for input the gateway cannot relay: ${why}`, { reason: "upstream_input_requests_invalid" });
  if (typeof inputRequests !== "object" || inputRequests === null || Array.isArray(inputRequests)) throw invalid("inputRequests is not an object");
  const entries = Object.entries(inputRequests as Record<string, unknown>);
  if (entries.length > MAX_INPUT_REQUESTS) throw invalid(`more than ${String(MAX_INPUT_REQUESTS)} input requests`);
  return entries.map(([key, r]) => {
    const { method, params } = (typeof r === "object" && r !== null ? r : {}) as { method?: unknown; params?: unknown };
    if (!KEY.test(key)) throw invalid("a key is not 1 to 128 visible ASCII characters");
    if (typeof method !== "string" || !INPUT_METHODS.has(method)) throw invalid(`${JSON.stringify(String(method)).slice(0, 80)} is not elicitation, sampling or roots`);
    if (params !== undefined && (typeof params !== "object" || params === null || Array.isArray(params))) throw invalid(`the params of ${key} are not an object`);
    return [key, { method, params: (params ?? {}) as Record<string, unknown> }];
  });
}
