// DNS rebinding protection of the MCP endpoints (both generations).
import type { McpRequest } from "./mcp-request";

const hostnameOf = (hostHeader: string): string => {
  try {
    return new URL(`http://${hostHeader}`).hostname.toLowerCase();
  } catch {
    return "";
  }
};
const isIpLiteral = (hostname: string) => /^\d{1,3}(\.\d{1,3}){3}$/.test(hostname) || hostname.startsWith("[");

/**
 * DNS rebinding: a web page must not reach the gateway through a host name of its own that resolves to us.
 * The Host must be an IP literal, localhost, or an allowed name (PUBLIC_URL, MCP_ALLOWED_HOSTS); a request
 * with an Origin header must come from the origin it is addressed to (agents and SDK clients send none).
 */
export function rebindingRefusal(req: Pick<McpRequest, "headers" | "url">, allowedHosts: readonly string[]): string | null {
  const host = req.headers.get("host") ?? new URL(req.url).host;
  const hostname = hostnameOf(host);
  if (!(isIpLiteral(hostname) || hostname === "localhost" || allowedHosts.includes(hostname))) {
    return `Forbidden: host "${hostname}" is not served here (set PUBLIC_URL or MCP_ALLOWED_HOSTS to allow it)`;
  }
  const origin = req.headers.get("origin");
  if (origin && hostnameOf(origin.replace(/^[a-z]+:\/\//i, "").split("/")[0] ?? "") !== hostname) {
    return "Forbidden: the Origin header does not match this server";
  }
  return null;
}
