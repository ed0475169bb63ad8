// What the MCP handler reads of an HTTP request, and the answer its hot path gives. A Web Request is one (the
// app/ routes hand theirs over); the start server's node adapter makes one over Node's IncomingMessage and
// builds a Web Request only when the SDK's transport needs it (everything but a plain tools/call), so the hot
// path makes no Headers, Request or Response objects (D102).

export type McpRequest = {
  readonly method: string;
  readonly url: string;
  readonly headers: { get(name: string): string | null };
  /** The names of the headers sent, lower-case (for header families such as Mcp-Param-*). */
  headerNames(): string[];
  readonly signal: AbortSignal;
  text(): Promise<string>;
  /** The request as a Web Request, for the SDK's transport: made on first use, once. */
  web(): Request;
};

/** A JSON answer of the hot path, written as it is (no Response made for it). */
export type JsonAnswer = { readonly status: number; readonly json: string };

export const isJsonAnswer = (a: Response | JsonAnswer): a is JsonAnswer => !(a instanceof Response);

export function mcpRequestOf(req: Request): McpRequest {
  return { method: req.method, url: req.url, headers: req.headers, headerNames: () => [...req.headers.keys()], signal: req.signal, text: () => req.text(), web: () => req };
}

/** A JsonAnswer as a Response, for the callers that speak Web Responses (the app/ routes). */
export function asResponse(a: Response | JsonAnswer): Response {
  return isJsonAnswer(a) ? new Response(a.json, { status: a.status, headers: { "content-type": "application/json" } }) : a;
}
