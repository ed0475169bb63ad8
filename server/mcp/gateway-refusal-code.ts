// The JSON-RPC code of a gateway refusal, in a module of its own: the HTTP answer (handle-mcp-request.ts) and the
// refusals raised inside a call (connect-elicitation.ts, transparent/capacity-refusal.ts) share it, and importing it
// from handle-mcp-request made the call path import its own endpoint back (an import cycle).

/** The JSON-RPC code of a gateway refusal (such as upstream_capacity); `data.code` says which. */
export const GATEWAY_REFUSAL_RPC_CODE = -32000;
