// A JSON-RPC error as an HTTP answer, for refusals made before any MCP message is handled.
export function jsonRpcError(status: number, code: number, message: string, headers: Record<string, string> = {}, data?: unknown): Response {
  return new Response(JSON.stringify({ jsonrpc: "2.0", error: { code, message, ...(data !== undefined && { data }) }, id: null }), {
    status,
    headers: { "content-type": "application/json", ...headers },
  });
}
