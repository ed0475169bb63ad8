// One live MCP client session to an upstream server: stdio process, Streamable HTTP, or legacy HTTP+SSE.
import type { jsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/types.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import {
  PromptListChangedNotificationSchema,
  ResourceListChangedNotificationSchema,
  ToolListChangedNotificationSchema,
  type Prompt,
  type Resource,
  type ResourceTemplate,
  ErrorCode,
  McpError,
  type ClientCapabilities,
  type Tool,
} from "@modelcontextprotocol/sdk/types.js";
import type { TIsolation, TTaskCredentials } from "../../lib/sandbox-schemas";
import type { UpstreamDefinitions } from "../registry/definitions";
import { baseEnv, type LimitHit, type SupervisedProcess, type SupervisorHooks, type Usage } from "../sandbox/supervisor";
import { bearerFetch, type BearerSource } from "./bearer-fetch";
import { nodeHttpFetch } from "./node-http-fetch";
import { ProcessTransport } from "./process-transport";
import { ModernClientTransport, type InputMode } from "./modern/modern-client-transport";
import { probeModernUpstream } from "./modern/probe-modern-upstream";
import { VERSION } from "../version";

export type StdioLaunch = {
  transport: "STDIO";
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd?: string | null;
  /** How the process is sandboxed; absent = none (servers registered before isolation existed). */
  isolation?: TIsolation | undefined;
  /** One process per call, with credentials minted for it. */
  taskCredentials?: TTaskCredentials | null | undefined;
};

/**
 * A package server: the exact package version to install once and run from its install directory, read-only.
 * The launcher turns it into a StdioLaunch at each start (server/packages/package-launch.ts).
 */
export type PackageLaunch = {
  transport: "NPM" | "PYPI";
  package: { name: string; version: string; integrity: string | null; bin: string | null };
  args: string[];
  env: Record<string, string>;
  cwd?: string | null;
  isolation?: TIsolation | undefined;
};

export type UpstreamLaunch = StdioLaunch | PackageLaunch | { transport: "HTTP" | "SSE"; url: string; headers: Record<string, string> };

export const isPackageLaunch = (l: UpstreamLaunch): l is PackageLaunch => l.transport === "NPM" || l.transport === "PYPI";
/** Launches that start a local process (stdio and package servers): they have env, isolation and stderr. */
export const isProcessLaunch = (l: UpstreamLaunch): l is StdioLaunch | PackageLaunch => l.transport === "STDIO" || isPackageLaunch(l);

/** What the gateway is doing to bring an upstream up. */
export type ConnectPhase = "installing" | "starting" | "initializing" | "listing_tools";

/** A package server's install, as the launcher found or made it. */
export type PackageInstallInfo = { version: string; integrity: string | null; installedAt: string; fresh: boolean };

/** Who a process is for: sandbox names, the sandbox user and log lines come from it. */
export type ProcessKey = { serverId: string; slug: string; role: string };

/**
 * Starts stdio processes: resolves `${secret:NAME}` references and applies the isolation profile. The
 * gateway passes one (server/sandbox/launcher.ts); without it a process runs as configured, unsandboxed.
 */
export type ProcessLauncher = {
  prepare(launch: StdioLaunch, key: ProcessKey, hooks: SupervisorHooks): Promise<SupervisedProcess>;
  /** Resolves secret references in HTTP headers. */
  resolve(map: Record<string, string>): Promise<Record<string, string>>;
  /** A package server's install (made now if missing) as the stdio launch that runs it. */
  materialize?(launch: PackageLaunch, key: ProcessKey, onInstalling: () => void): Promise<{ launch: StdioLaunch; installed: PackageInstallInfo }>;
};

export type UpstreamClientEvents = {
  /** The upstream said its tools, resources or prompts changed. */
  onListChanged?: (kind: "tools" | "resources" | "prompts") => void;
  /** The session ended: process exit, HTTP stream error, or close(). */
  onClose?: (reason: string) => void;
  /** A line the stdio process wrote to stderr (kept for the server page's recent errors). */
  onStderr?: (line: string) => void;
  /** The sandboxed process ended because it reached a limit (called before onClose). */
  onLimit?: (hit: LimitHit) => void;
  /** A sample of the process's CPU, memory and tasks. */
  onSample?: (usage: Usage) => void;
  /** The step the connect has reached (installing, starting, initializing). */
  onPhase?: (phase: ConnectPhase) => void;
  /** A package server's install was found or made. */
  onPackage?: (info: PackageInstallInfo) => void;
};

export type ConnectedUpstream = {
  client: Client;
  /** The transport actually used: HTTP falls back to SSE for old servers. */
  transport: "STDIO" | "HTTP" | "SSE";
  /** The generation the upstream speaks: 2026-07-28 when its server/discover said so (HTTP only), else 2025. */
  generation: "2025" | "2026-07-28";
  pid?: number | undefined;
  /** The last sample of a stdio process's use. */
  usage?: (() => Usage | undefined) | undefined;
  /** Once the process has exited: the limit that ended it, if one did. */
  limitHit?: (() => Promise<LimitHit | undefined> | undefined) | undefined;
  close(): Promise<void>;
};

const CLIENT_INFO = { name: "portcullis", version: VERSION };
/** How long the server/discover probe may take before the upstream is treated as a 2025 one. */
const PROBE_TIMEOUT_MS = 5_000;
const DISCOVERY_CAPABILITIES: ClientCapabilities = { sampling: {}, elicitation: {}, roots: { listChanged: true } };

export type ConnectOptions = {
  timeoutMs?: number;
  /** What Portcullis offers the upstream (a transparent session offers what its agent offers). */
  capabilities?: ClientCapabilities;
  /** Installs handlers before initialize (a transparent session relays server-to-client requests). */
  configure?: (client: Client) => void;
  launcher?: ProcessLauncher | undefined;
  key?: ProcessKey | undefined;
  /** Ends a connect under way (the process is stopped): the pool's entry was removed or the gateway is closing. */
  signal?: AbortSignal | undefined;
  /** HTTP and SSE: the bearer each request carries, asked for per request (upstream-auth; issue 22). */
  bearer?: BearerSource | undefined;
  /** Compiles the tools' output schemas (once per schema text, schema-validators.ts); else the SDK's own per client. */
  validators?: jsonSchemaValidator | undefined;
  /**
   * A 2026-07-28 upstream's input_required: "translate" (default) into requests to the Client's handlers and
   * retried; "passthrough" handed back as the result, for a 2026 client behind to answer (stateless relay).
   */
  inputMode?: InputMode | undefined;
  /** A 2026 upstream's tools as known (their x-mcp-header annotations, for the Mcp-Param-* headers of calls). */
  tools?: readonly { name: string; inputSchema?: unknown }[] | undefined;
};

function newClient(events: UpstreamClientEvents, opts: ConnectOptions): Client {
  // Discovery offers every client capability, so servers that register tools only for capable clients show
  // them all; a shared connection cannot ask one agent, so it refuses such requests with a clear error.
  const client = new Client(CLIENT_INFO, { capabilities: opts.capabilities ?? DISCOVERY_CAPABILITIES, ...(opts.validators && { jsonSchemaValidator: opts.validators }) });
  client.fallbackRequestHandler = (request) =>
    Promise.reject(
      new McpError(ErrorCode.MethodNotFound, `${request.method} needs an agent of its own: connect to this server's transparent endpoint /mcp/s/<slug> to use it.`),
    );
  opts.configure?.(client);
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => events.onListChanged?.("tools"));
  client.setNotificationHandler(ResourceListChangedNotificationSchema, () => events.onListChanged?.("resources"));
  client.setNotificationHandler(PromptListChangedNotificationSchema, () => events.onListChanged?.("prompts"));
  return client;
}

async function attach(client: Client, transport: Transport, events: UpstreamClientEvents, timeoutMs: number, ended?: () => Promise<LimitHit | undefined>, signal?: AbortSignal) {
  let closed = false;
  client.onclose = () => {
    if (closed) return;
    closed = true;
    if (!ended) {
      events.onClose?.("connection closed");
      return;
    }
    void ended().then((hit) => {
      if (hit) events.onLimit?.(hit);
      events.onClose?.(hit ? `the process was ended: ${hit.message}` : "connection closed");
    });
  };
  try {
    await client.connect(transport, { timeout: timeoutMs, ...(signal && { signal }) });
  } catch (err) {
    // The SDK says only "Request timed out": say which bound it was and what to change.
    if (err instanceof McpError && err.code === (ErrorCode.RequestTimeout as number)) {
      throw new Error(`no answer to the MCP handshake (initialize) within ${String(timeoutMs)} ms: a server slow to start needs a longer connectTimeoutMs`, { cause: err });
    }
    throw err;
  }
  answersAfterNotifications(transport);
}

/**
 * The SDK runs notification handlers (progress, logging) a microtask after it receives them, but settles a
 * response at once, dropping the request's progress handler. A progress notification that arrives in the same
 * chunk as its response (stdio under load, one read for both lines) would be lost. Responses are handed on a
 * microtask later, after the notifications that came before them.
 */
function answersAfterNotifications(transport: Transport): void {
  const deliver = transport.onmessage;
  if (!deliver) return;
  transport.onmessage = (message, extra) => {
    if ("id" in message && !("method" in message)) void Promise.resolve().then(() => deliver(message, extra));
    else deliver(message, extra);
  };
}

/**
 * A Streamable HTTP upstream of the 2026-07-28 generation, probed by `server/discover` (docs: stdio upstreams are
 * not probed — a 2025 stdio server may exit on a first message other than initialize, and a v2 stdio server
 * serves the 2025 handshake anyway); null when the upstream is not one (it then gets the 2025 handshake).
 */
async function connectModern(url: URL, headers: Record<string, string>, fetchFn: typeof fetch, events: UpstreamClientEvents, opts: ConnectOptions, timeoutMs: number): Promise<ConnectedUpstream | null> {
  // Bounded on its own: an upstream that does not answer the probe in time gets the 2025 handshake (its full bound).
  const bound = AbortSignal.timeout(Math.min(PROBE_TIMEOUT_MS, timeoutMs));
  const signal = opts.signal ? AbortSignal.any([bound, opts.signal]) : bound;
  const capabilities = (opts.capabilities ?? DISCOVERY_CAPABILITIES) as Record<string, unknown>;
  let discovered;
  try {
    discovered = await probeModernUpstream({ url, fetch: fetchFn, headers, envelope: { capabilities, clientInfo: CLIENT_INFO } }, signal);
  } catch (err) {
    if (opts.signal?.aborted) throw err;
    return null;
  }
  if (!discovered) return null;
  const client = newClient(events, opts);
  await attach(client, new ModernClientTransport({ url, fetch: fetchFn, headers, discovered, mode: opts.inputMode ?? "translate", tools: opts.tools }), events, timeoutMs, undefined, opts.signal);
  return { client, transport: "HTTP", generation: "2026-07-28", close: () => client.close() };
}

/** Connects and initializes. HTTP tries Streamable HTTP first and falls back to HTTP+SSE on a 4xx. */
export async function connectUpstream(
  launch: UpstreamLaunch,
  events: UpstreamClientEvents = {},
  opts: ConnectOptions = {},
): Promise<ConnectedUpstream> {
  const timeoutMs = opts.timeoutMs ?? 15_000;
  if (isPackageLaunch(launch)) {
    // The install has its own bound (PACKAGE_INSTALL_TIMEOUT_MS): the connect timeout starts after it.
    if (!opts.launcher?.materialize) throw new Error("package servers need the gateway's launcher (none was given)");
    const key = opts.key ?? { serverId: launch.package.name, slug: "upstream", role: "active" };
    const { launch: stdio, installed } = await opts.launcher.materialize(launch, key, () => events.onPhase?.("installing"));
    events.onPackage?.(installed);
    return connectUpstream(stdio, events, opts);
  }
  if (launch.transport === "STDIO") {
    events.onPhase?.("starting");
    const key = opts.key ?? { serverId: launch.command, slug: "upstream", role: "active" };
    const hooks: SupervisorHooks = { ...(events.onSample && { onSample: events.onSample }) };
    opts.signal?.throwIfAborted();
    const supervised = opts.launcher ? await opts.launcher.prepare(launch, key, hooks) : undefined;
    const spawnSpec = supervised?.spawn ?? { command: launch.command, args: launch.args, env: { ...baseEnv(false), ...launch.env }, ...(launch.cwd ? { cwd: launch.cwd } : {}) };
    let exit: Promise<LimitHit | undefined> | undefined;
    // Once per process: stops the sampling and removes the sandbox's cgroup, socket and files.
    const ended = (e: { code: number | null; signal: NodeJS.Signals | null }) => (exit ??= supervised ? supervised.exited(e) : Promise.resolve(undefined));
    const transport = new ProcessTransport({
      ...spawnSpec,
      onStderr: (line) => events.onStderr?.(line),
      onSpawn: (pid) => supervised?.afterSpawn(pid),
      onExit: (e) => void ended(e),
    });
    const client = newClient(events, opts);
    try {
      // Aborted while the sandbox was prepared: nothing is spawned (attach would start the process).
      opts.signal?.throwIfAborted();
      events.onPhase?.("initializing");
      await attach(client, transport, events, timeoutMs, () => exit ?? Promise.resolve(undefined), opts.signal);
    } catch (err) {
      await transport.close().catch(() => undefined);
      // A process that died during initialize may have died of a limit: say which.
      const hit = await ended({ code: null, signal: null });
      if (hit) throw new Error(`the process was ended: ${hit.message}`, { cause: err });
      throw err;
    }
    return { client, transport: "STDIO", generation: "2025", pid: transport.pid, usage: () => supervised?.usage(), limitHit: () => exit, close: () => client.close() };
  }

  events.onPhase?.("initializing");
  const url = new URL(launch.url);
  const requestInit = { headers: opts.launcher ? await opts.launcher.resolve(launch.headers) : launch.headers };
  const withBearer = opts.bearer ? { fetch: bearerFetch(nodeHttpFetch, opts.bearer) } : {};
  if (launch.transport === "HTTP") {
    const modern = await connectModern(url, requestInit.headers, withBearer.fetch ?? nodeHttpFetch, events, opts, timeoutMs);
    if (modern) return modern;
    const client = newClient(events, opts);
    try {
      await attach(client, new StreamableHTTPClientTransport(url, { requestInit, fetch: nodeHttpFetch, ...withBearer }), events, timeoutMs);
      return { client, transport: "HTTP", generation: "2025", close: () => client.close() };
    } catch (err) {
      const status = (err as { code?: unknown }).code;
      const legacy = typeof status === "number" && status >= 400 && status < 500;
      if (!legacy) throw err;
      await client.close().catch(() => undefined);
    }
  }
  const client = newClient(events, opts);
  await attach(client, new SSEClientTransport(url, { requestInit, ...withBearer }), events, timeoutMs);
  return { client, transport: "SSE", generation: "2025", close: () => client.close() };
}

async function listAll<T>(page: (cursor?: string) => Promise<{ items: T[]; nextCursor?: string | undefined }>): Promise<T[]> {
  const out: T[] = [];
  let cursor: string | undefined;
  for (let i = 0; i < 100; i++) {
    const res = await page(cursor);
    out.push(...res.items);
    if (!res.nextCursor) return out;
    cursor = res.nextCursor;
  }
  throw new Error("upstream pagination did not end after 100 pages");
}

/** Lists everything the upstream offers, following pagination. Missing capabilities give empty lists. */
export async function discoverDefinitions(client: Client, timeoutMs = 15_000): Promise<UpstreamDefinitions> {
  const caps = client.getServerCapabilities() ?? {};
  const o = { timeout: timeoutMs };
  const params = (cursor?: string) => (cursor ? { cursor } : {});
  const [tools, resources, resourceTemplates, prompts] = await Promise.all([
    caps.tools ? listAll<Tool>(async (c) => {
      const r = await client.listTools(params(c), o);
      return { items: r.tools, nextCursor: r.nextCursor };
    }) : [],
    caps.resources ? listAll<Resource>(async (c) => {
      const r = await client.listResources(params(c), o);
      return { items: r.resources, nextCursor: r.nextCursor };
    }) : [],
    caps.resources ? listAll<ResourceTemplate>(async (c) => {
      const r = await client.listResourceTemplates(params(c), o);
      return { items: r.resourceTemplates, nextCursor: r.nextCursor };
    }) : [],
    caps.prompts ? listAll<Prompt>(async (c) => {
      const r = await client.listPrompts(params(c), o);
      return { items: r.prompts, nextCursor: r.nextCursor };
    }) : [],
  ]);
  const info = client.getServerVersion();
  const instructions = client.getInstructions();
  return {
    serverInfo: { name: info?.name ?? "unknown", version: info?.version ?? "0.0.0", ...(info?.title ? { title: info.title } : {}) },
    ...(instructions ? { instructions } : {}),
    capabilities: caps,
    tools,
    resources,
    resourceTemplates,
    prompts,
  };
}
