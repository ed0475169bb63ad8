// The first look at every request to /api and /mcp, in our HTTP server before Next.js: a path that cannot be
// decoded, a query with a NUL, or a method the route does not serve is answered here with our documented error
// (JSON-RPC on the MCP endpoints, `{ error: { code, message } }` on REST, `Allow` on a 405). Next.js would
// answer these with a bare 500 or an empty 405.
import { randomUUID } from "node:crypto";
import { isUnstorableString } from "../db/unstorable-text";
import type { ErrorCode } from "../errors";
import { ERROR_STATUS } from "../errors";
import { matchRoute, type Route } from "./route-table";

/** Longer path segments are refused: no name or id of ours comes near, and Next.js fails on them. */
export const MAX_PATH_SEGMENT_CHARS = 1024;

export type EdgeRefusal = { status: number; headers: Record<string, string>; body: string };

const isMcpPath = (p: string) => p === "/mcp" || p.startsWith("/mcp/");
const isGuarded = (p: string) => isMcpPath(p) || p === "/api" || p.startsWith("/api/");

/** The decoded path segments, or why the path cannot be read. */
function decodeSegments(pathname: string): { parts: string[] } | { problem: string } {
  const raw = pathname.split("/").slice(1);
  if (raw.at(-1) === "") raw.pop();
  const parts: string[] = [];
  for (const segment of raw) {
    if (segment.length > MAX_PATH_SEGMENT_CHARS)
      return { problem: `A path segment is longer than ${MAX_PATH_SEGMENT_CHARS} characters.` };
    let decoded: string;
    try {
      decoded = decodeURIComponent(segment);
    } catch {
      return { problem: "The path is not valid percent-encoded UTF-8." };
    }
    if (isUnstorableString(decoded)) return { problem: "The path contains a NUL character or a lone surrogate." };
    parts.push(decoded);
  }
  return { parts };
}

function refusal(
  mcp: boolean,
  code: ErrorCode,
  message: string,
  requestId: string,
  headers: Record<string, string> = {},
): EdgeRefusal {
  const body = mcp ? { jsonrpc: "2.0", error: { code: -32000, message }, id: null } : { error: { code, message } };
  return {
    status: ERROR_STATUS[code],
    headers: { "content-type": "application/json", "x-request-id": requestId, ...headers },
    body: JSON.stringify(body),
  };
}

/** Our answer to a request Next.js must not see, or null to pass it on. */
export function edgeRefusal(
  routes: readonly Route[],
  method: string,
  url: string,
  requestId: string = randomUUID(),
): EdgeRefusal | null {
  const pathname = url.split("?", 1)[0]!;
  if (!isGuarded(pathname)) return null;
  const mcp = isMcpPath(pathname);
  const decoded = decodeSegments(pathname);
  if ("problem" in decoded) return refusal(mcp, "invalid_path", decoded.problem, requestId);
  // A NUL in a query parameter would reach a database lookup (PostgreSQL refuses it: a 500), never a match.
  const query = url.includes("?") ? url.slice(url.indexOf("?") + 1) : "";
  if (query && [...new URLSearchParams(query)].some(([k, v]) => k.includes("\u0000") || v.includes("\u0000"))) {
    return refusal(mcp, "bad_request", "The query string contains a NUL character (%00).", requestId);
  }
  const route = matchRoute(routes, decoded.parts);
  if (route && !(route.methods as string[]).includes(method)) {
    const allow = route.methods.join(", ");
    return refusal(mcp, "method_not_allowed", `${method} is not served at ${route.pattern}; use ${allow}.`, requestId, {
      allow,
    });
  }
  return null;
}
