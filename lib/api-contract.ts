// Every REST operation, described once; the OpenAPI document is generated from this table.
import type { z } from "zod";
import type { TRole } from "./roles";
import {
  ZApiTokenList,
  ZApiToken,
  ZCreateApiToken,
  ZCreatedApiToken,
  ZCreatedUser,
  ZCreateUser,
  ZCreateServer,
  ZServer,
  ZServerList,
  ZServerWithTools,
  ZServerOfferings,
  ZServerVersionList,
  ZToolList,
  ZToolSummary,
  ZUpdateServer,
  ZUpdateTool,
  ZToolCallRequest,
  ZToolCallResult,
  ZHealth,
  ZMe,
  ZUpdateUser,
  ZUser,
  ZUserPage,
} from "./schemas";

export type Operation = {
  method: "get" | "post" | "patch" | "put" | "delete";
  path: string;
  summary: string;
  tag: string;
  /** Minimum role; null for public operations. */
  role: TRole | null;
  body?: z.ZodType;
  query?: Record<string, { description: string; type: "string" | "integer" }>;
  response: { status: number; schema: z.ZodType };
  errors: number[];
};

const page = { limit: { description: "Page size (1–200, default 50)", type: "integer" }, cursor: { description: "nextCursor of the previous page", type: "string" } } as const;

export const OPERATIONS: Operation[] = [
  { method: "get", path: "/api/health", summary: "Version and database status", tag: "health", role: null, response: { status: 200, schema: ZHealth }, errors: [503] },
  { method: "get", path: "/api/v1/me", summary: "The caller", tag: "auth", role: "USER", response: { status: 200, schema: ZMe }, errors: [401] },
  { method: "get", path: "/api/v1/users", summary: "List users", tag: "users", role: "ADMIN", query: page, response: { status: 200, schema: ZUserPage }, errors: [401, 403, 422] },
  { method: "post", path: "/api/v1/users", summary: "Create a user (a generated password is returned once)", tag: "users", role: "ADMIN", body: ZCreateUser, response: { status: 201, schema: ZCreatedUser }, errors: [400, 401, 403, 409, 422] },
  { method: "get", path: "/api/v1/users/{id}", summary: "One user", tag: "users", role: "ADMIN", response: { status: 200, schema: ZUser }, errors: [401, 403, 404] },
  { method: "patch", path: "/api/v1/users/{id}", summary: "Change a user's name, role, password or disabled flag", tag: "users", role: "ADMIN", body: ZUpdateUser, response: { status: 200, schema: ZUser }, errors: [400, 401, 403, 404, 409, 422] },
  { method: "get", path: "/api/v1/tokens", summary: "The caller's personal API tokens", tag: "tokens", role: "USER", response: { status: 200, schema: ZApiTokenList }, errors: [401] },
  { method: "post", path: "/api/v1/tokens", summary: "Mint a personal API token (shown once)", tag: "tokens", role: "USER", body: ZCreateApiToken, response: { status: 201, schema: ZCreatedApiToken }, errors: [400, 401, 422] },
  { method: "get", path: "/api/v1/servers", summary: "List upstream MCP servers", tag: "servers", role: "ADMIN", response: { status: 200, schema: ZServerList }, errors: [401, 403] },
  { method: "post", path: "/api/v1/servers", summary: "Register an upstream server; answers with the tools discovered", tag: "servers", role: "ADMIN", body: ZCreateServer, response: { status: 201, schema: ZServerWithTools }, errors: [400, 401, 403, 409, 422] },
  { method: "get", path: "/api/v1/servers/{slug}", summary: "A server and its tools", tag: "servers", role: "ADMIN", response: { status: 200, schema: ZServerWithTools }, errors: [401, 403, 404] },
  { method: "patch", path: "/api/v1/servers/{slug}", summary: "Change a server: enable/disable, launch settings (optionally as a canary), rate limit, canary share, promote, roll back, restart", tag: "servers", role: "ADMIN", body: ZUpdateServer, response: { status: 200, schema: ZServerWithTools }, errors: [400, 401, 403, 404, 409, 422] },
  { method: "delete", path: "/api/v1/servers/{slug}", summary: "Remove a server; its tools disappear at once", tag: "servers", role: "ADMIN", response: { status: 200, schema: ZServer }, errors: [401, 403, 404] },
  { method: "get", path: "/api/v1/servers/{slug}/versions", summary: "A server's versions with their diffs, newest first", tag: "servers", role: "ADMIN", response: { status: 200, schema: ZServerVersionList }, errors: [401, 403, 404] },
  { method: "get", path: "/api/v1/servers/{slug}/offerings", summary: "The resources, resource templates and prompts of the serving version, and the MCP endpoints that reach them", tag: "servers", role: "ADMIN", response: { status: 200, schema: ZServerOfferings }, errors: [401, 403, 404] },
  { method: "get", path: "/api/v1/tools", summary: "Every tool with settings, lint findings and near-duplicate pairs", tag: "tools", role: "ADMIN", response: { status: 200, schema: ZToolList }, errors: [401, 403] },
  { method: "get", path: "/api/v1/tools/{name}", summary: "One tool (gateway name <server>__<tool>) with its schemas, lint findings, risk tier and settings", tag: "tools", role: "ADMIN", response: { status: 200, schema: ZToolSummary }, errors: [401, 403, 404] },
  { method: "patch", path: "/api/v1/tools/{name}", summary: "Change a tool (gateway name <server>__<tool>): enabled, strict, timeoutMs, rateLimitPerMinute, riskTier", tag: "tools", role: "ADMIN", body: ZUpdateTool, response: { status: 200, schema: ZToolSummary }, errors: [400, 401, 403, 404, 422] },
  { method: "post", path: "/api/v1/tools/{name}/call", summary: "Call a tool from the console through the full gateway pipeline (audited)", tag: "tools", role: "ADMIN", body: ZToolCallRequest, response: { status: 200, schema: ZToolCallResult }, errors: [400, 401, 403, 404, 422] },
  { method: "delete", path: "/api/v1/tokens/{id}", summary: "Revoke a personal API token", tag: "tokens", role: "USER", response: { status: 200, schema: ZApiToken }, errors: [401, 403, 404] },
];
