// The routing headers of a modern request checked against its body, before anything routes, limits or audits
// by either: a balancer or a policy in front may act on the headers while the gateway acts on the body, so the
// two must say the same thing or the request is refused (400, HeaderMismatch -32020). Past this check the
// body is the only source of truth; nothing reads these headers again.
import { decodeHeaderValue } from "./decode-header-value";
import { META, MODERN_ERROR, NAME_FIELD } from "./modern-protocol";

export type HeaderSource = { headers: { get(name: string): string | null }; headerNames(): string[] };
export type ModernRefusal = { status: number; code: number; message: string; data?: unknown };

const mismatch = (message: string): ModernRefusal => ({ status: 400, code: MODERN_ERROR.headerMismatch, message: `Header mismatch: ${message}` });

/** The request's routing headers that fail; null when all of them agree with `message`. */
export function routingHeaderRefusal(req: HeaderSource, message: { method: string; params?: Record<string, unknown> | undefined }): ModernRefusal | null {
  const metaVersion = (message.params?._meta as Record<string, unknown> | undefined)?.[META.protocolVersion];
  const version = req.headers.get("mcp-protocol-version");
  if (version === null) return mismatch("the MCP-Protocol-Version header is required");
  // Without a version in _meta there is nothing to compare: the _meta check refuses the request (-32602).
  if (typeof metaVersion === "string" && version !== metaVersion) return mismatch(`MCP-Protocol-Version header "${version}" does not match _meta protocolVersion "${metaVersion}"`);
  const method = req.headers.get("mcp-method");
  if (method === null) return mismatch("the Mcp-Method header is required");
  if (method !== message.method) return mismatch(`Mcp-Method header "${method}" does not match the body's method "${message.method}"`);
  const field = NAME_FIELD[message.method];
  if (field) {
    const raw = req.headers.get("mcp-name");
    if (raw === null) return mismatch(`the Mcp-Name header is required for ${message.method}`);
    const name = decodeHeaderValue(raw);
    if (!name.ok) return mismatch(`the Mcp-Name header ${name.reason}`);
    const body = message.params?.[field];
    if (name.value !== body) return mismatch(`Mcp-Name header does not match the body's params.${field}`);
  }
  // Every Mcp-Param-* header must at least be well-formed; their values are checked against the tool's
  // x-mcp-header annotations where the tool is known (paramHeaderRefusal).
  for (const header of req.headerNames()) {
    if (!header.startsWith("mcp-param-")) continue;
    const value = decodeHeaderValue(req.headers.get(header) ?? "");
    if (!value.ok) return mismatch(`the ${header} header ${value.reason}`);
  }
  return null;
}
