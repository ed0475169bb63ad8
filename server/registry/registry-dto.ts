import { knownRequestsFor } from "../codemode/search/known-requests";
import { ZIsolation, ZTaskCredentials, type TIsolation, type TProcessStats, type TTaskCredentials } from "../../lib/sandbox-schemas";
import type { TServer, TToolSummary } from "../../lib/schemas";
import type { ServerVersion, Tool, UpstreamServer } from "../db/client";
import type { UpstreamLaunch } from "../upstream/upstream-client";
import { ZServerPhase } from "../../lib/schemas";
import { NO_CALLS, type CallStats } from "./call-stats";

type ServerRow = UpstreamServer & { activeVersion?: ServerVersion | null; canaryVersion?: ServerVersion | null; _count?: { tools: number; versions?: number } };

const strMap = (v: unknown): Record<string, string> => (v && typeof v === "object" ? (v as Record<string, string>) : {});

/** The stored isolation; a row from before isolation existed ("{}") runs unsandboxed, and says so. */
export function isolationOf(v: unknown): TIsolation {
  const parsed = ZIsolation.safeParse(v);
  return parsed.success ? parsed.data : ZIsolation.parse({ profile: "none" });
}

export function taskCredentialsOf(v: unknown): TTaskCredentials | null {
  const parsed = ZTaskCredentials.safeParse(v);
  return parsed.success ? parsed.data : null;
}

type LaunchRow = Pick<UpstreamServer, "transport" | "command" | "args" | "env" | "cwd" | "url" | "headers"> &
  Partial<Pick<UpstreamServer, "packageName" | "packageVersion" | "packageIntegrity" | "packageBin">> & { isolation?: unknown; taskCredentials?: unknown };

export function launchOf(s: LaunchRow): UpstreamLaunch {
  if (s.transport === "NPM" || s.transport === "PYPI") {
    return {
      transport: s.transport,
      package: { name: s.packageName ?? "", version: s.packageVersion ?? "", integrity: s.packageIntegrity ?? null, bin: s.packageBin ?? null },
      args: s.args,
      env: strMap(s.env),
      cwd: s.cwd,
      isolation: isolationOf(s.isolation),
    };
  }
  return s.transport === "STDIO"
    ? {
        transport: "STDIO",
        command: s.command ?? "",
        args: s.args,
        env: strMap(s.env),
        cwd: s.cwd,
        isolation: isolationOf(s.isolation),
        taskCredentials: taskCredentialsOf(s.taskCredentials),
      }
    : // The built-in server has no launch; nothing starts it (builtin/builtin-server.ts), so HTTP's shape is inert.
      { transport: s.transport as "HTTP" | "SSE", url: s.url ?? "", headers: strMap(s.headers) };
}

export function toServerDto(s: ServerRow, calls: CallStats = NO_CALLS, process: TProcessStats | null = null): TServer {
  return {
    id: s.id,
    slug: s.slug,
    name: s.name,
    summary: s.summary,
    transport: s.transport.toLowerCase() as TServer["transport"],
    command: s.command,
    args: s.args,
    envKeys: Object.keys(strMap(s.env)),
    cwd: s.cwd,
    url: s.url,
    headerKeys: Object.keys(strMap(s.headers)),
    isolation: s.transport === "HTTP" || s.transport === "SSE" || s.transport === "BUILTIN" ? null : isolationOf(s.isolation),
    taskCredentials: s.transport === "STDIO" ? taskCredentialsOf(s.taskCredentials) : null,
    process,
    enabled: s.enabled,
    status: s.enabled ? s.status : "DISABLED",
    lastError: s.lastError,
    latencyMs: s.latencyMs,
    timeoutMs: s.timeoutMs,
    connectTimeoutMs: s.connectTimeoutMs,
    package: packageOf(s),
    // Cleared when a connect ends either way; a down or disabled server is doing nothing.
    phase: s.enabled && s.status !== "DOWN" ? (ZServerPhase.safeParse(s.phase).data ?? null) : null,
    maxConcurrency: s.maxConcurrency,
    rateLimitPerMinute: s.rateLimitPerMinute,
    activeVersion: s.activeVersion?.version ?? null,
    canaryVersion: s.canaryVersion?.version ?? null,
    canaryPercent: s.canaryPercent,
    definitionReview: s.definitionReview === "require_approval" ? "require_approval" : "trust_on_first_use",
    changedDefinitionCalls: s.changedDefinitionCalls === "serve_compatible" ? "serve_compatible" : "refuse",
    pendingReviews: s._count?.versions ?? 0,
    toolCount: s._count?.tools ?? 0,
    calls,
    createdAt: s.createdAt.toISOString(),
  };
}

function packageOf(s: ServerRow): TServer["package"] {
  if (s.transport !== "NPM" && s.transport !== "PYPI") return null;
  return {
    ecosystem: s.transport === "NPM" ? "npm" : "pypi",
    name: s.packageName ?? "",
    range: s.packageRange ?? "latest",
    version: s.packageVersion,
    integrity: s.packageIntegrity,
    installedAt: s.packageInstalledAt?.toISOString() ?? null,
    bin: s.packageBin,
    args: s.args,
  };
}

export function toToolDto(t: Tool, serverSlug: string): TToolSummary {
  return {
    name: t.gatewayName,
    tool: t.name,
    server: serverSlug,
    title: t.title,
    description: t.description,
    inputSchema: t.inputSchema as Record<string, unknown>,
    outputSchema: (t.outputSchema as Record<string, unknown> | null) ?? null,
    annotations: (t.annotations as Record<string, unknown> | null) ?? null,
    enabled: t.enabled,
    strict: t.strict,
    riskTier: t.riskTier,
    timeoutMs: t.timeoutMs,
    rateLimitPerMinute: t.rateLimitPerMinute,
    async: t.async,
    requiredApprovals: t.requiredApprovals,
    exampleRequests: t.exampleRequests,
    shippedExampleRequests: [...knownRequestsFor({ tool: t.name, description: t.description })],
    lintFindings: t.lintFindings as TToolSummary["lintFindings"],
    removed: t.removedAt !== null,
  };
}
