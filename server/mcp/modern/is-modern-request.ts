// Which generation a request to an MCP endpoint speaks, decided from what it carries, so both share one URL:
// a 2025 client initializes (no MCP-Protocol-Version header then) and names its session's version after; a
// 2026 client names a version this gateway does not know as a 2025 one, or puts its version in _meta. A body
// whose _meta and header disagree is taken as modern, so the header check refuses it (-32020) rather than the
// 2025 path serving it.
import { SUPPORTED_PROTOCOL_VERSIONS } from "@modelcontextprotocol/sdk/types.js";
import { META } from "./modern-protocol";

type Headers = { get(name: string): string | null };

/** A GET or DELETE (no body): modern when its protocol version header is not a 2025 one. */
export function isModernHeader(headers: Headers): boolean {
  const version = headers.get("mcp-protocol-version");
  return version !== null && !SUPPORTED_PROTOCOL_VERSIONS.includes(version);
}

/** A POST whose body was parsed: a single message, modern by its header or by its _meta. */
export function isModernRequest(headers: Headers, body: unknown): boolean {
  if (isModernHeader(headers)) return true;
  if (typeof body !== "object" || body === null || Array.isArray(body)) return false;
  const meta = (body as { params?: { _meta?: Record<string, unknown> } }).params?._meta;
  return typeof meta === "object" && meta !== null && META.protocolVersion in meta;
}
