// The 2026-07-28 generation of MCP ("modern": stateless, per-request _meta, routing headers) as this gateway
// speaks it beside the 2025 generation on the same URLs. Its names and codes, in one place.

/** Protocol versions of the stateless generation this gateway serves. */
export const MODERN_PROTOCOL_VERSIONS: readonly string[] = ["2026-07-28"];

/** The 2025 version the endpoints' SDK Servers (1.32) are driven at when they serve a modern request. */
export const INNER_PROTOCOL_VERSION = "2025-11-25";

/** Request and result `_meta` keys of the stateless generation. */
export const META = {
  protocolVersion: "io.modelcontextprotocol/protocolVersion",
  clientCapabilities: "io.modelcontextprotocol/clientCapabilities",
  clientInfo: "io.modelcontextprotocol/clientInfo",
  serverInfo: "io.modelcontextprotocol/serverInfo",
  logLevel: "io.modelcontextprotocol/logLevel",
} as const;

/** JSON-RPC error codes the 2026-07-28 specification allocates (-32020 to -32099). */
export const MODERN_ERROR = {
  headerMismatch: -32020,
  missingRequiredClientCapability: -32021,
  unsupportedProtocolVersion: -32022,
} as const;

/**
 * The methods a modern request may name (an MRTR retry names the method it continues). Everything else —
 * initialize, ping, logging/setLevel, resources/subscribe, an unknown name — is
 * 404 with -32601, as the transport requires.
 */
export const MODERN_METHODS: ReadonlySet<string> = new Set([
  "server/discover",
  "tools/list",
  "tools/call",
  "resources/list",
  "resources/read",
  "resources/templates/list",
  "prompts/list",
  "prompts/get",
  "completion/complete",
  "subscriptions/listen",
  // The tasks extension (tasks-extension.ts); tasks/result and tasks/list are 2025-11-25 only.
  "tasks/get",
  "tasks/update",
  "tasks/cancel",
]);

/** Methods whose results carry caching hints (CacheableResult). */
export const CACHEABLE_METHODS: ReadonlySet<string> = new Set(["server/discover", "tools/list", "prompts/list", "resources/list", "resources/templates/list", "resources/read"]);

/** The body field `Mcp-Name` mirrors, by method. */
export const NAME_FIELD: Readonly<Record<string, "name" | "uri" | "taskId">> = {
  "tools/call": "name",
  "prompts/get": "name",
  "resources/read": "uri",
  "tasks/get": "taskId",
  "tasks/update": "taskId",
  "tasks/cancel": "taskId",
};
