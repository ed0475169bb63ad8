// The only reader of process.env: every setting is parsed and checked here once.
import { existsSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { forbiddenRange, normalizeAllowedHost, type OutboundPolicy } from "./net/outbound-url";
import { parseSecretsKey, SECRETS_KEY_HINT } from "./secrets/secret-crypto";
import { ssoConfigOf, type SsoConfig } from "./auth/sso-config";
import { oauthConfigOf, ZOAuthEnv, type OAuthConfig } from "./oauth/oauth-config";
import { CLIENT_METADATA_CACHE_ENTRIES } from "./oauth/client-metadata-cache";
import type { ClientMetadataSettings } from "./oauth/client-metadata-document";
import { authorizationServerConfigOf, ZOAuthServerEnv, type AuthorizationServerConfig } from "./oauth/as/authorization-server-config";

const bool = z
  .enum(["1", "0", "true", "false", "yes", "no", ""])
  .transform((v) => v === "1" || v === "true" || v === "yes");

const ZEnv = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("production"),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default("0.0.0.0"),
  DATA_DIR: z.string().default("./.data"),
  DATABASE_URL: z.string().url().optional(),
  DATABASE_DIRECT_URL: z.string().url().optional(),
  DATABASE_POOL_MAX: z.coerce.number().int().min(1).max(500).default(10),
  DATABASE_POOL_MODE: z.enum(["session", "transaction"]).default("session"),
  EMBEDDED_PG_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  PUBLIC_URL: z.string().url().optional(),
  NEXTAUTH_SECRET: z.string().min(16).optional(),
  ADMIN_EMAIL: z.string().email().optional(),
  ADMIN_PASSWORD: z.string().min(8).optional(),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  LOGIN_MAX_FAILURES: z.coerce.number().int().min(1).default(5),
  LOGIN_WINDOW_SECONDS: z.coerce.number().int().min(1).default(900),
  PORTCULLIS_NO_DEMO: bool.default(false),
  RATE_LIMIT_SESSION_PER_MINUTE: z.coerce.number().int().min(1).default(600),
  RATE_LIMIT_TOOL_PER_MINUTE: z.coerce.number().int().min(1).default(6000),
  MCP_ALLOWED_HOSTS: z.string().default(""),
  TASK_THRESHOLD_MS: z.coerce.number().int().min(0).default(1000),
  TASK_CONCURRENCY: z.coerce.number().int().min(1).max(1000).default(8),
  TASK_RESULT_MAX_BYTES: z.coerce.number().int().min(1024).default(1024 * 1024),
  TASK_RETENTION_DAYS: z.coerce.number().min(0).default(7),
  TASK_DEDUPE_WINDOW_SECONDS: z.coerce.number().min(0).default(30),
  TASK_SWEEP_INTERVAL_MS: z.coerce.number().int().min(50).default(5000),
  SHUTDOWN_GRACE_MS: z.coerce.number().int().min(0).max(3_600_000).default(20_000),
  AUDIT_RETENTION_DAYS: z.coerce.number().min(0).default(90),
  AUDIT_OUTCOME: z.enum(["after_answer", "with_answer"]).default("after_answer"),
  METRICS_TOKEN: z.string().trim().min(16, "must be at least 16 characters").optional(),
  OTEL_EXPORTER_OTLP_ENDPOINT: z.url({ protocol: /^https?$/ }).optional(),
  OTEL_EXPORTER_OTLP_HEADERS: z.string().optional(),
  APPROVAL_TTL_SECONDS: z.coerce.number().int().min(1).default(24 * 3600),
  APPROVAL_USE_WINDOW_SECONDS: z.coerce.number().int().min(1).default(3600),
  APPROVAL_WEBHOOK_URL: z.url({ protocol: /^https?$/ }).optional(),
  APPROVAL_WEBHOOK_SECRET: z.string().min(16, "must be at least 16 characters").optional(),
  CODE_MODE_WALL_MS: z.coerce.number().int().min(100).max(600_000).default(30_000),
  CODE_MODE_MEMORY_MB: z.coerce.number().int().min(8).max(4096).default(64),
  CODE_MODE_MAX_TOOL_CALLS: z.coerce.number().int().min(1).max(10_000).default(100),
  CODE_MODE_MAX_OUTPUT_BYTES: z.coerce.number().int().min(1024).max(10 * 1024 * 1024).default(20 * 1024),
  CODE_MODE_WORKERS: z.coerce.number().int().min(1).max(64).default(2),
  CODE_MODE_PRIVACY: bool.default(false),
  CODE_MODE_RUNS_PER_MINUTE: z.coerce.number().int().min(1).default(60),
  CODE_MODE_CONCURRENT_RUNS: z.coerce.number().int().min(1).max(1000).default(2),
  /** Programs that may wait for a worker; unset: 16 per worker. */
  CODE_MODE_MAX_QUEUE: z.coerce.number().int().min(0).max(100_000).optional(),
  SANDBOX_UID_BASE: z.coerce.number().int().min(1000).max(4_000_000_000).default(200_000),
  SANDBOX_SAMPLE_MS: z.coerce.number().int().min(50).max(60_000).default(500),
  SANDBOX_HIDE_PATHS: z.string().default(""),
  SANDBOX_RUNTIME_DIR: z.string().optional(),
  OUTBOUND_ALLOWED_HOSTS: z.string().default(""),
  // OAuth client ID metadata documents (an HTTPS URL as client_id): fetch limits and cache lifetimes.
  CLIENT_METADATA_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(5_000),
  CLIENT_METADATA_MAX_BYTES: z.coerce.number().int().min(512).max(1024 * 1024).default(5 * 1024),
  CLIENT_METADATA_CACHE_SECONDS: z.coerce.number().int().min(0).default(300),
  CLIENT_METADATA_CACHE_MIN_SECONDS: z.coerce.number().int().min(0).default(60),
  CLIENT_METADATA_CACHE_MAX_SECONDS: z.coerce.number().int().min(0).default(24 * 3600),
  CLIENT_METADATA_FAILURE_CACHE_SECONDS: z.coerce.number().int().min(0).default(30),
  // Upstream processes of /mcp/s sessions (one per MCP session; a stdio server's process is ~40-60 MB):
  // sized for a 2-core, 4 GB host (32 × ~50 MB ≈ 1.6 GB at most, beside PostgreSQL and the gateway).
  TRANSPARENT_MAX_PER_SESSION: z.coerce.number().int().min(1).default(4),
  TRANSPARENT_MAX_PER_USER: z.coerce.number().int().min(1).default(8),
  TRANSPARENT_MAX_PER_SERVER: z.coerce.number().int().min(1).default(16),
  TRANSPARENT_MAX_PER_PROCESS: z.coerce.number().int().min(1).default(32),
  TRANSPARENT_IDLE_SECONDS: z.coerce.number().int().min(1).default(600),
  TRANSPARENT_PRESSURE_IDLE_SECONDS: z.coerce.number().int().min(0).default(30),
  TRANSPARENT_PRESSURE_FRACTION: z.coerce.number().min(0).max(1).default(0.5),
  PACKAGES_DIR: z.string().optional(),
  NPM_REGISTRY: z.url({ protocol: /^https?$/ }).default("https://registry.npmjs.org"),
  PACKAGE_INSTALL_TIMEOUT_MS: z.coerce.number().int().min(1000).max(3_600_000).default(180_000),
  PACKAGE_INSTALL_MAX_MB: z.coerce.number().int().min(1).max(100_000).default(500),
  SECRETS_KEY: z.string().refine((v) => parseSecretsKey(v) !== null, SECRETS_KEY_HINT).optional(),
  // Code mode's semantic tool search (off: lexical only, no network); checked together in searchEmbeddings().
  SEARCH_EMBEDDINGS: z.enum(["off", "openai", "onnx"]).default("off"),
  SEARCH_EMBEDDINGS_URL: z.url({ protocol: /^https?$/ }).optional(),
  SEARCH_EMBEDDINGS_MODEL: z.string().trim().min(1).optional(),
  SEARCH_EMBEDDINGS_API_KEY: z.string().min(1).optional(),
  SEARCH_EMBEDDINGS_DIMENSIONS: z.coerce.number().int().min(1).max(65_536).optional(),
  SEARCH_EMBEDDINGS_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
  SEARCH_EMBEDDINGS_BATCH: z.coerce.number().int().min(1).max(2048).default(64),
  SEARCH_EMBEDDINGS_ONNX_MODEL: z.string().optional(),
  SEARCH_EMBEDDINGS_ONNX_TOKENIZER: z.string().optional(),
  SEARCH_EMBEDDINGS_WEIGHT: z.coerce.number().min(0).max(1).default(0.5),
  ...ZOAuthEnv.shape,
  ...ZOAuthServerEnv.shape,
  SSO_NAME: z.string().optional(),
  SSO_ISSUER: z.string().optional(),
  SSO_CLIENT_ID: z.string().optional(),
  SSO_CLIENT_SECRET: z.string().optional(),
  SSO_GROUPS_CLAIM: z.string().optional(),
  SSO_ROLE_MAP: z.string().optional(),
  SSO_ALLOWED_DOMAINS: z.string().optional(),
  PASSWORD_SIGNIN: z.enum(["on", "off"]).default("on"),
}).refine((e) => !e.APPROVAL_WEBHOOK_URL || e.APPROVAL_WEBHOOK_SECRET, { message: "APPROVAL_WEBHOOK_URL needs APPROVAL_WEBHOOK_SECRET (the HMAC signing key)", path: ["APPROVAL_WEBHOOK_SECRET"] });

export type Config = {
  env: "development" | "production" | "test";
  /** How long a stopping process (SIGTERM) lets requests and tasks in flight finish before it cuts them. */
  shutdownGraceMs: number;
  port: number;
  host: string;
  dataDir: string;
  /** Set when an external PostgreSQL is used; otherwise an embedded server is started. */
  databaseUrl: string | undefined;
  /** A direct PostgreSQL URL for what needs a session (LISTEN, session locks, migrations) when DATABASE_URL is a pooler. */
  databaseDirectUrl: string | undefined;
  /** The served gateway's query pool (server/db/connection-budget.ts has the rest of the budget). */
  databasePoolMax: number;
  /** `transaction`: DATABASE_URL is a transaction pooler (PgBouncer pool_mode=transaction). */
  databasePoolMode: "session" | "transaction";
  /** Unset: the port chosen on first start (kept in DATA_DIR/pg-port), else a free one. */
  embeddedPgPort: number | undefined;
  publicUrl: string;
  authSecret: string | undefined;
  adminEmail: string | undefined;
  adminPassword: string | undefined;
  logLevel: string;
  login: { maxFailures: number; windowSeconds: number };
  noDemo: boolean;
  /** Code mode (`/mcp/code`): limits of one program run, and the worker threads that run programs. */
  codeMode: {
    wallMs: number;
    memoryBytes: number;
    maxToolCalls: number;
    maxOutputBytes: number;
    workers: number;
    privacyAlways: boolean;
    /** execute_code runs per caller per minute (shared across processes) and at once (per process). */
    runsPerMinute: number;
    concurrentRuns: number;
    maxQueue: number;
  };
  sandbox: {
    /** Sandboxed servers run as uidBase + 0..49999 (stable per server). */
    uidBase: number;
    sampleMs: number;
    /** Extra host paths hidden from sandboxes (besides DATA_DIR, /root, /home, /run). */
    hidePaths: string[];
    /** Per-process directories of sandboxes (network socket, hosts file). */
    runtimeDir: string | undefined;
  };
  rateLimits: { perSessionPerMinute: number; perToolPerMinute: number };
  /**
   * Upstream processes of /mcp/s sessions: at most so many per agent session, user, server and gateway process;
   * an idle one is closed after idleMs, falling linearly to pressureIdleMs as a count goes from
   * pressureFraction of its limit to the limit.
   */
  transparent: { perSession: number; perUser: number; perServer: number; perProcess: number; idleMs: number; pressureIdleMs: number; pressureFraction: number };
  /**
   * Host names the MCP endpoints answer to besides IP literals and localhost (DNS-rebinding protection): the
   * PUBLIC_URL's host plus MCP_ALLOWED_HOSTS (comma-separated).
   */
  mcpAllowedHosts: string[];
  /** Enterprise mode (OAUTH_ISSUER set): agents' JWT access tokens from an external OpenID provider. */
  oauth: OAuthConfig | null;
  /** The embedded authorization server (PUBLIC_URL set, OAUTH_ISSUER not, OAUTH_SERVER not off). */
  oauthServer: AuthorizationServerConfig | null;
  /** Durable tasks: switch-over threshold, workers per process, result cap, retention, dedupe window, sweep. */
  tasks: { thresholdMs: number; concurrency: number; resultMaxBytes: number; retentionDays: number; dedupeWindowMs: number; sweepIntervalMs: number };
  /** Audit events older than this are deleted by an hourly job (0 = keep forever). */
  auditRetentionDays: number;
  /** after_answer: a call's record is committed while it runs and its outcome after the answer; with_answer: one event, committed before the answer. */
  auditOutcome: "after_answer" | "with_answer";
  /** A Prometheus scraper's bearer token for /metrics (admins' own credentials work without it). */
  metricsToken: string | null;
  /** OpenTelemetry: where traces go (OTLP/HTTP), and headers for the collector (`k=v,k=v`); none = no tracing. */
  otlp: { endpoint: string | null; headers: Record<string, string> };
  /** Human approval: how long a request waits, how long an advance grant stays usable, the approvers' webhook. */
  approvals: { ttlMs: number; useWindowMs: number; webhookUrl: string | null; webhookSecret: string | null };
  /** The AES-256 key of stored secrets (SECRETS_KEY); unset: DATA_DIR/secrets.key, created on first use. */
  secretsKey: Buffer | undefined;
  /** Hosts that webhooks may reach although they resolve to loopback or private addresses (OUTBOUND_ALLOWED_HOSTS). */
  outbound: OutboundPolicy;
  /** OAuth client ID metadata documents: fetch deadline and size limit, cache lifetimes (seconds). */
  clientMetadata: ClientMetadataSettings;
  /** Package servers: where installs live (default DATA_DIR/packages), the npm registry, the install's bounds. */
  packages: { dir: string; npmRegistry: string; installTimeoutMs: number; installMaxBytes: number };
  /** Code mode's semantic tool search: the embedding provider and its share of the fused rank (off: lexical only). */
  searchEmbeddings: SearchEmbeddingsConfig;
  /** Console sign-in through an OpenID provider (SSO_ISSUER set), next to or instead of e-mail + password. */
  sso: SsoConfig | null;
  /** PASSWORD_SIGNIN=off: the console's e-mail + password form is hidden and refused (the admin CLI still works). */
  passwordSignin: boolean;
};

export class ConfigError extends Error {
  override name = "ConfigError";
}

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = ZEnv.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join("\n")}`);
  }
  const e = parsed.data;
  const outbound = { allowedHosts: e.OUTBOUND_ALLOWED_HOSTS.split(",").map(normalizeAllowedHost).filter(Boolean) };
  checkApprovalWebhookUrl(e.APPROVAL_WEBHOOK_URL, outbound);
  let oauth: OAuthConfig | null;
  try {
    oauth = oauthConfigOf(e);
  } catch (err) {
    throw new ConfigError(`Invalid configuration:\n  ${(err as Error).message}`);
  }
  let sso: SsoConfig | null;
  try {
    sso = ssoConfigOf(e);
  } catch (err) {
    throw new ConfigError(`Invalid configuration:\n  ${(err as Error).message}`);
  }
  if (e.DATABASE_POOL_MODE === "transaction" && !e.DATABASE_DIRECT_URL)
    throw new ConfigError("Invalid configuration:\n  DATABASE_POOL_MODE: transaction needs DATABASE_DIRECT_URL (LISTEN and session locks cannot go through a transaction pooler)");
  if (!sso && e.PASSWORD_SIGNIN === "off") throw new ConfigError("Invalid configuration:\n  PASSWORD_SIGNIN: off needs SSO_ISSUER, or nobody could sign in to the console");
  return {
    oauth,
    oauthServer: authorizationServerConfigOf(e),
    sso,
    passwordSignin: e.PASSWORD_SIGNIN === "on",
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    dataDir: path.resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    databaseDirectUrl: e.DATABASE_DIRECT_URL,
    databasePoolMax: e.DATABASE_POOL_MAX,
    databasePoolMode: e.DATABASE_POOL_MODE,
    embeddedPgPort: e.EMBEDDED_PG_PORT,
    publicUrl: e.PUBLIC_URL ?? `http://localhost:${e.PORT}`,
    authSecret: e.NEXTAUTH_SECRET,
    adminEmail: e.ADMIN_EMAIL,
    adminPassword: e.ADMIN_PASSWORD,
    logLevel: e.LOG_LEVEL,
    login: { maxFailures: e.LOGIN_MAX_FAILURES, windowSeconds: e.LOGIN_WINDOW_SECONDS },
    noDemo: e.PORTCULLIS_NO_DEMO,
    shutdownGraceMs: e.SHUTDOWN_GRACE_MS,
    codeMode: {
      wallMs: e.CODE_MODE_WALL_MS,
      memoryBytes: e.CODE_MODE_MEMORY_MB * 1024 * 1024,
      maxToolCalls: e.CODE_MODE_MAX_TOOL_CALLS,
      maxOutputBytes: e.CODE_MODE_MAX_OUTPUT_BYTES,
      workers: e.CODE_MODE_WORKERS,
      privacyAlways: e.CODE_MODE_PRIVACY,
      runsPerMinute: e.CODE_MODE_RUNS_PER_MINUTE,
      concurrentRuns: e.CODE_MODE_CONCURRENT_RUNS,
      maxQueue: e.CODE_MODE_MAX_QUEUE ?? e.CODE_MODE_WORKERS * 16,
    },
    sandbox: {
      uidBase: e.SANDBOX_UID_BASE,
      sampleMs: e.SANDBOX_SAMPLE_MS,
      hidePaths: e.SANDBOX_HIDE_PATHS.split(":").map((p) => p.trim()).filter((p) => p.startsWith("/")),
      runtimeDir: e.SANDBOX_RUNTIME_DIR ? path.resolve(e.SANDBOX_RUNTIME_DIR) : undefined,
    },
    rateLimits: { perSessionPerMinute: e.RATE_LIMIT_SESSION_PER_MINUTE, perToolPerMinute: e.RATE_LIMIT_TOOL_PER_MINUTE },
    transparent: {
      perSession: e.TRANSPARENT_MAX_PER_SESSION,
      perUser: e.TRANSPARENT_MAX_PER_USER,
      perServer: e.TRANSPARENT_MAX_PER_SERVER,
      perProcess: e.TRANSPARENT_MAX_PER_PROCESS,
      idleMs: e.TRANSPARENT_IDLE_SECONDS * 1000,
      pressureIdleMs: Math.min(e.TRANSPARENT_PRESSURE_IDLE_SECONDS, e.TRANSPARENT_IDLE_SECONDS) * 1000,
      pressureFraction: e.TRANSPARENT_PRESSURE_FRACTION,
    },
    tasks: {
      thresholdMs: e.TASK_THRESHOLD_MS,
      concurrency: e.TASK_CONCURRENCY,
      resultMaxBytes: e.TASK_RESULT_MAX_BYTES,
      retentionDays: e.TASK_RETENTION_DAYS,
      dedupeWindowMs: e.TASK_DEDUPE_WINDOW_SECONDS * 1000,
      sweepIntervalMs: e.TASK_SWEEP_INTERVAL_MS,
    },
    metricsToken: e.METRICS_TOKEN ?? null,
    auditRetentionDays: e.AUDIT_RETENTION_DAYS,
    auditOutcome: e.AUDIT_OUTCOME,
    otlp: {
      endpoint: e.OTEL_EXPORTER_OTLP_ENDPOINT ?? null,
      headers: Object.fromEntries(
        (e.OTEL_EXPORTER_OTLP_HEADERS ?? "")
          .split(",")
          .map((kv) => kv.split("=").map((x) => decodeURIComponent(x.trim())))
          .filter((kv): kv is [string, string] => kv.length === 2 && !!kv[0]),
      ),
    },
    approvals: {
      ttlMs: e.APPROVAL_TTL_SECONDS * 1000,
      useWindowMs: e.APPROVAL_USE_WINDOW_SECONDS * 1000,
      webhookUrl: e.APPROVAL_WEBHOOK_URL ?? null,
      webhookSecret: e.APPROVAL_WEBHOOK_SECRET ?? null,
    },
    outbound,
    clientMetadata: clientMetadataSettings(e),
    packages: {
      dir: e.PACKAGES_DIR ? path.resolve(e.PACKAGES_DIR) : path.join(path.resolve(e.DATA_DIR), "packages"),
      npmRegistry: e.NPM_REGISTRY.replace(/\/+$/, ""),
      installTimeoutMs: e.PACKAGE_INSTALL_TIMEOUT_MS,
      installMaxBytes: e.PACKAGE_INSTALL_MAX_MB * 1024 * 1024,
    },
    secretsKey: e.SECRETS_KEY === undefined ? undefined : (parseSecretsKey(e.SECRETS_KEY) ?? undefined),
    searchEmbeddings: searchEmbeddings(e),
    mcpAllowedHosts: [
      ...new Set([
        ...(e.PUBLIC_URL ? [new URL(e.PUBLIC_URL).hostname.toLowerCase()] : []),
        ...e.MCP_ALLOWED_HOSTS.split(",").map((h) => h.trim().toLowerCase()).filter(Boolean),
      ]),
    ],
  };
}

/**
 * APPROVAL_WEBHOOK_URL naming a loopback, private or metadata address (or localhost) stops the start, unless its
 * host is in OUTBOUND_ALLOWED_HOSTS. A host name is checked when each notification is sent (DNS can change).
 */
function checkApprovalWebhookUrl(raw: string | undefined, outbound: OutboundPolicy): void {
  if (!raw) return;
  const host = normalizeAllowedHost(new URL(raw).hostname);
  if (outbound.allowedHosts.includes(host)) return;
  const range = host === "localhost" || host.endsWith(".localhost") ? "loopback" : forbiddenRange(host);
  if (range && range !== "not an IP address") {
    throw new ConfigError(`Invalid configuration:\n  APPROVAL_WEBHOOK_URL: [outbound_url_refused] ${host} is a ${range} address; add it to OUTBOUND_ALLOWED_HOSTS to allow it`);
  }
}

export type SearchEmbeddingsConfig =
  | { kind: "off" }
  | {
      kind: "openai";
      /** Base URL; the provider POSTs to `{url}/embeddings`. */
      url: string;
      model: string;
      /** A secret: sent as a bearer token only, to be added to the log redactor's secrets. */
      apiKey: string | undefined;
      dimensions: number | undefined;
      timeoutMs: number;
      maxBatch: number;
      weight: number;
    }
  | { kind: "onnx"; modelPath: string; tokenizerPath: string; weight: number };

/** The embedding provider's API key, for the log and audit redactor's list of secrets. */
export function searchEmbeddingsSecret(config: SearchEmbeddingsConfig): string | undefined {
  return config.kind === "openai" ? config.apiKey : undefined;
}

function searchEmbeddings(e: z.infer<typeof ZEnv>): SearchEmbeddingsConfig {
  const fail = (variable: string, why: string) => new ConfigError(`Invalid configuration:\n  ${variable}: ${why}`);
  if (e.SEARCH_EMBEDDINGS === "off") return { kind: "off" };
  if (e.SEARCH_EMBEDDINGS === "openai") {
    if (!e.SEARCH_EMBEDDINGS_URL) throw fail("SEARCH_EMBEDDINGS_URL", "required with SEARCH_EMBEDDINGS=openai (the base URL, e.g. https://api.openai.com/v1)");
    if (!e.SEARCH_EMBEDDINGS_MODEL) throw fail("SEARCH_EMBEDDINGS_MODEL", "required with SEARCH_EMBEDDINGS=openai (e.g. text-embedding-3-small)");
    const url = new URL(e.SEARCH_EMBEDDINGS_URL);
    // A credential in the URL would travel into log lines and error messages; it belongs in the API key.
    if (url.username || url.password) throw fail("SEARCH_EMBEDDINGS_URL", "must not contain a user or password; set SEARCH_EMBEDDINGS_API_KEY");
    // `/embeddings` is appended to the path; a query (where some proxies take a key) or fragment would break it.
    if (url.search || url.hash) throw fail("SEARCH_EMBEDDINGS_URL", "must be a base URL without a query or fragment; set SEARCH_EMBEDDINGS_API_KEY for the key");
    return {
      kind: "openai",
      url: e.SEARCH_EMBEDDINGS_URL.replace(/\/+$/, ""),
      model: e.SEARCH_EMBEDDINGS_MODEL,
      apiKey: e.SEARCH_EMBEDDINGS_API_KEY,
      dimensions: e.SEARCH_EMBEDDINGS_DIMENSIONS,
      timeoutMs: e.SEARCH_EMBEDDINGS_TIMEOUT_MS,
      maxBatch: e.SEARCH_EMBEDDINGS_BATCH,
      weight: e.SEARCH_EMBEDDINGS_WEIGHT,
    };
  }
  if (!e.SEARCH_EMBEDDINGS_ONNX_MODEL) throw fail("SEARCH_EMBEDDINGS_ONNX_MODEL", "required with SEARCH_EMBEDDINGS=onnx (the path of a sentence-transformers model.onnx)");
  const modelPath = path.resolve(e.SEARCH_EMBEDDINGS_ONNX_MODEL);
  const tokenizerPath = path.resolve(e.SEARCH_EMBEDDINGS_ONNX_TOKENIZER ?? path.join(path.dirname(modelPath), "tokenizer.json"));
  if (!existsSync(modelPath)) throw fail("SEARCH_EMBEDDINGS_ONNX_MODEL", `no file at ${modelPath}`);
  if (!existsSync(tokenizerPath)) throw fail("SEARCH_EMBEDDINGS_ONNX_TOKENIZER", `no file at ${tokenizerPath} (a tokenizer.json or vocab.txt of the model)`);
  return { kind: "onnx", modelPath, tokenizerPath, weight: e.SEARCH_EMBEDDINGS_WEIGHT };
}

/** A document's max-age is held within [min, max]; with no max-age it lives the default (also held within them). */
function clientMetadataSettings(e: z.infer<typeof ZEnv>): ClientMetadataSettings {
  const [min, max] = [e.CLIENT_METADATA_CACHE_MIN_SECONDS, e.CLIENT_METADATA_CACHE_MAX_SECONDS];
  if (min > max) throw new ConfigError(`Invalid configuration:\n  CLIENT_METADATA_CACHE_MIN_SECONDS (${String(min)}) is more than CLIENT_METADATA_CACHE_MAX_SECONDS (${String(max)})`);
  return {
    timeoutMs: e.CLIENT_METADATA_TIMEOUT_MS,
    maxBytes: e.CLIENT_METADATA_MAX_BYTES,
    cache: { minSeconds: min, maxSeconds: max, defaultSeconds: e.CLIENT_METADATA_CACHE_SECONDS, failureSeconds: e.CLIENT_METADATA_FAILURE_CACHE_SECONDS, maxEntries: CLIENT_METADATA_CACHE_ENTRIES },
  };
}
