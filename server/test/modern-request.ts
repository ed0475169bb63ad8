// One raw 2026-07-28 request as a conforming client sends it: the version and capabilities in `_meta`, the routing
// headers (`Mcp-Name` from the params' name, uri or taskId), no session. The answer is the JSON-RPC message with the
// request's id from the SSE stream's `data:` lines (else the first message with an id), or a JSON body as it is (an
// error refused before the body was read carries no id).

export const MODERN_VERSION = "2026-07-28";

export type ModernAnswer = {
  id?: unknown;
  result?: Record<string, unknown>;
  error?: { code: number; message: string; data?: Record<string, unknown> };
};

let nextId = 1;

export async function modernRequest(
  url: URL,
  method: string,
  params: Record<string, unknown>,
  opts: { token: string; capabilities?: Record<string, unknown>; headers?: Record<string, string> },
): Promise<{ status: number; answer: ModernAnswer; id: number }> {
  const id = nextId++;
  const name = params.name ?? params.uri ?? params.taskId;
  const res = await fetch(url, {
    method: "POST",
    headers: {
      authorization: `Bearer ${opts.token}`,
      accept: "application/json, text/event-stream",
      "content-type": "application/json",
      "mcp-protocol-version": MODERN_VERSION,
      "mcp-method": method,
      ...(typeof name === "string" && { "mcp-name": name }),
      ...opts.headers,
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id,
      method,
      params: {
        ...params,
        _meta: {
          "io.modelcontextprotocol/protocolVersion": MODERN_VERSION,
          "io.modelcontextprotocol/clientCapabilities": opts.capabilities ?? {},
          "io.modelcontextprotocol/clientInfo": { name: "raw-2026", version: "1" },
        },
      },
    }),
  });
  const text = await res.text();
  const sse = (res.headers.get("content-type") ?? "").includes("text/event-stream");
  if (!sse) return { status: res.status, answer: JSON.parse(text) as ModernAnswer, id };
  const messages = text.split("\n\n").flatMap((e) => /^data: (.*)$/m.exec(e)?.[1] ?? []).map((d) => JSON.parse(d) as ModernAnswer);
  return { status: res.status, answer: messages.find((m) => m.id === id) ?? messages.find((m) => "id" in m) ?? {}, id };
}
