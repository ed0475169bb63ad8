// What the upstream pool's parts share: its options, events and deps, and the entries it holds, one per
// (server, role). Built once by createUpstreamPool (upstream-pool.ts).
import type { jsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/types.js";
import type { BulkheadPolicy, CircuitBreakerPolicy } from "cockatiel";
import type { Logger } from "../logger";
import type { UpstreamDefinitions } from "../registry/definitions";
import type { LimitHit, Usage } from "../sandbox/supervisor";
import type { ConnectPhase, ConnectedUpstream, PackageInstallInfo, ProcessLauncher, StdioLaunch, UpstreamLaunch } from "./upstream-client";
import type { StderrLog } from "./stderr-log";
import type { CallIdentity, CredentialRef, UpstreamAuthMode, UpstreamCredentials } from "../upstream-auth/upstream-credentials";

export type Role = "active" | "canary";
export type UpstreamStatus = "CONNECTING" | "HEALTHY" | "DEGRADED" | "DOWN";

export type PoolOptions = {
  pingIntervalMs: number;
  /** Ping latency above this marks a server DEGRADED. */
  degradedLatencyMs: number;
  connectTimeoutMs: number;
  breakerFailures: number;
  halfOpenAfterMs: number;
  /** The first wait before reconnecting; it doubles per failed attempt up to maxReconnectDelayMs (±20 %). */
  reconnectDelayMs: number;
  maxReconnectDelayMs: number;
  /** Per-user upstream sessions (per_user, token_exchange) one (server, role) keeps open at most; the least recently used idle one is closed first. */
  maxCredentialSessions: number;
  /** A per-user upstream session unused this long is closed (reopened on the user's next call). */
  credentialSessionIdleMs: number;
};

export const DEFAULT_POOL_OPTIONS: PoolOptions = {
  pingIntervalMs: 15_000,
  degradedLatencyMs: 2_000,
  connectTimeoutMs: 15_000,
  breakerFailures: 5,
  halfOpenAfterMs: 10_000,
  reconnectDelayMs: 500,
  maxReconnectDelayMs: 30_000,
  maxCredentialSessions: 64,
  credentialSessionIdleMs: 5 * 60_000,
};

export type UpstreamSpec = {
  serverId: string;
  slug: string;
  role: Role;
  launch: UpstreamLaunch;
  maxConcurrency: number;
  /** The server's own handshake bound; absent = the pool's connectTimeoutMs. */
  connectTimeoutMs?: number | undefined;
  /** How calls authenticate to the upstream (issue 22); absent = PoolDeps.authModeOf, else `none`. */
  auth?: { mode: UpstreamAuthMode } | undefined;
};

export type PoolEvents = {
  onStatus?: (spec: UpstreamSpec, status: UpstreamStatus, info: { lastError?: string; latencyMs?: number }) => void;
  /** The upstream's definitions changed (list_changed, or a reconnect found new ones). */
  onDefinitions?: (spec: UpstreamSpec, defs: UpstreamDefinitions) => void;
  /** A sandboxed process was ended for reaching a limit (it restarts with backoff). */
  onLimit?: (spec: UpstreamSpec, hit: LimitHit) => void;
  /** A process's use crossed (or fell back under) its breaker threshold. */
  onThreshold?: (spec: UpstreamSpec, over: boolean, usage: Usage) => void;
  /** The step a connect has reached; null once it is connected with its tools listed, or has failed. */
  onPhase?: (spec: UpstreamSpec, phase: ConnectPhase | null) => void;
  /** A package server's install was found or made for a start. */
  onPackage?: (spec: UpstreamSpec, info: PackageInstallInfo) => void;
};

/** Credentials minted for one call of a per-task server, revoked when it ends. */
export type MintedForTask = { env: Record<string, string>; revoke(): Promise<void> };

export type PoolDeps = {
  launcher?: ProcessLauncher | undefined;
  /** Mints a per-task server's credentials (server/sandbox/launcher.ts). */
  mintForTask?: ((launch: StdioLaunch, taskKey: string) => Promise<MintedForTask>) | undefined;
  /** The bearer of servers whose auth mode is not `none` (server/upstream-auth). */
  credentials?: UpstreamCredentials | undefined;
  /** A server's auth mode when its spec carries none (until the server row has its own; see UpstreamSpec.auth). */
  authModeOf?: ((server: { serverId: string; slug: string }) => UpstreamAuthMode | undefined) | undefined;
  /** While the modes are being reloaded after a change: the reload, which a call waits for before it reads a mode. */
  authModesSettling?: (() => Promise<unknown> | undefined) | undefined;
};

export type Entry = {
  spec: UpstreamSpec;
  conn?: ConnectedUpstream | undefined;
  connecting?: Promise<ConnectedUpstream> | undefined;
  status: UpstreamStatus;
  lastError?: string | undefined;
  stderr: StderrLog;
  breaker: CircuitBreakerPolicy;
  bulkhead: BulkheadPolicy;
  reconnectAttempt: number;
  reconnectTimer?: NodeJS.Timeout | undefined;
  removed: boolean;
  restarts: number;
  connectedOnce?: boolean;
  usage?: Usage | undefined;
  limitHits: number;
  lastLimit?: LimitHit | undefined;
  /** The step a connect has reached, as last reported (null: none under way). */
  phase?: ConnectPhase | null | undefined;
  /** Holds the circuit open while the process is over its breaker threshold. */
  thresholdHold?: { dispose(): void } | undefined;
  /** Ends the connect under way when the entry is removed (or the pool closed), instead of waiting it out. */
  abort?: AbortController | undefined;
  /** per_user / token_exchange: one upstream session per credential (its cacheKey), opened on first use. */
  sessions?: Map<string, CredentialSession> | undefined;
};

/** One upstream session of a per_user / token_exchange entry, for one credential (credential-sessions.ts runs them). */
export type CredentialSession = {
  key: string;
  /** The token the session's next request carries: the latest its credential was resolved to. */
  token: string;
  conn?: ConnectedUpstream | undefined;
  connecting?: Promise<ConnectedUpstream> | undefined;
  inUse: number;
  idleTimer?: NodeJS.Timeout | undefined;
  closed: boolean;
};

export const key = (serverId: string, role: Role) => `${serverId}:${role}`;

export type PoolScope = {
  opts: PoolOptions;
  events: PoolEvents;
  deps: PoolDeps;
  /** The pool's own logger (reconnect scheduling logs here, at debug). */
  logger: Logger;
  /** The pool's component logger. */
  log: Logger;
  entries: Map<string, Entry>;
  /** Output-schema validators shared by every connection of the pool, each schema compiled once (schema-validators.ts). */
  validators: jsonSchemaValidator;
};

/** A tools/call's params as the pool forwards them. */
export type CallToolParams = { name: string; arguments: Record<string, unknown>; _meta?: Record<string, unknown> | undefined };
/** How a tools/call runs: its caller's signal, its timeout (reset by progress), and whether it may be retried. */
export type CallToolOptions = {
  signal: AbortSignal;
  timeoutMs: number;
  retryable: boolean;
  onProgress?: ((p: { progress: number; total?: number | undefined; message?: string | undefined }) => void) | undefined;
  /** Who the call is for: a server whose auth mode is not `none` gets its bearer from this (issue 22). */
  identity?: CallIdentity | undefined;
  /** Told which credential the call used (for its audit event), before it goes out. */
  onCredential?: ((ref: CredentialRef) => void) | undefined;
};
