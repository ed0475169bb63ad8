// The gateway's own tools (task tools, approval tools, search_tools, execute_code) are the tools of a registry
// server like any other, so admins set their tier, rate limit, enabled flag and rules on the usual pages. It is
// served in process: no launch, no pool connection, no upstream version discovery.
import { GatewayError } from "../errors";

export const BUILTIN_SLUG = "portcullis";
const PREFIX = `${BUILTIN_SLUG}__`;

/** What a built-in version's `launch` holds: nothing to start. */
export const BUILTIN_LAUNCH = { transport: "BUILTIN" } as const;

export const isBuiltinLaunch = (launch: unknown): boolean => (launch as { transport?: unknown } | null)?.transport === "BUILTIN";

/** `portcullis__<tool>`: the registry (and audit, Tools page) name of a built-in tool an endpoint exposes bare. */
export const builtinGatewayName = (tool: string): string => `${PREFIX}${tool}`;

export const isBuiltinGatewayName = (gatewayName: string): boolean => gatewayName.startsWith(PREFIX);

export const isBuiltinTool = (tool: { serverSlug: string }): boolean => tool.serverSlug === BUILTIN_SLUG;

/** Registering a server under the built-in server's slug is refused. */
export function assertSlugNotReserved(slug: string): void {
  if (slug === BUILTIN_SLUG) throw new GatewayError("slug_reserved", `The slug "${BUILTIN_SLUG}" is reserved for the gateway's own tools; choose another.`);
}

/** Fields of a server an admin may change on the built-in server: the rest (launch, versions, enabling) is the gateway's. */
const BUILTIN_PATCHABLE = new Set(["name", "rateLimitPerMinute", "timeoutMs"]);

/** Refuses what cannot be done to the built-in server: removing it (`patch` absent), or changing its launch, versions or state. */
export function assertBuiltinChange(server: { transport: string; slug: string }, patch?: Record<string, unknown>): void {
  if (server.transport !== "BUILTIN") return;
  const refused = patch ? Object.keys(patch).filter((k) => patch[k] !== undefined && !BUILTIN_PATCHABLE.has(k)) : ["(removal)"];
  if (refused.length === 0) return;
  throw new GatewayError(
    "builtin_server",
    patch
      ? `The built-in server ${server.slug} runs inside the gateway: only its name, rate limit and timeout can be changed (not ${refused.join(", ")}). Its tools' tier, rate limit, enabled flag and rules are set per tool.`
      : `The built-in server ${server.slug} holds the gateway's own tools and cannot be removed; disable single tools instead.`,
  );
}
