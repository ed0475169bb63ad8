// Composition root: every service of the gateway is built here from explicit dependencies.
import { createContinuations, MRTR_HOLD_MS } from "./mcp/modern/continuations";
import { createUpstreamStates } from "./mcp/modern/upstream-state";
import { createListenStreams } from "./mcp/modern/listen-streams";
import { listenLook } from "./mcp/modern/listen-view";
import { createRetryForwarding } from "./mcp/modern/forward-retry";
import { requestStateKey } from "./mcp/modern/request-state";
import { loadOrCreateKeyFile } from "./secrets/secret-crypto";
import { createStatelessLeases } from "./mcp/modern/stateless-leases";
import path from "node:path";
import type { TChangeOwnPassword, TCreateUser, TResetPassword, TUpdateUser, TUserListQuery } from "../lib/schemas";
import { createAuditWriter, pgSink, type AuditWriter } from "./audit/audit-writer";
import { writeUntilUp } from "./db/retry-until-up";
import { holdAuditOwner } from "./audit/audit-owner";
import { deleteExpiredAudit, DEFAULT_AUDIT_RETENTION_DAYS } from "./audit/audit-retention";
import { exportAudit, getAuditEventDetail, searchAudit } from "./audit/audit-search";
import type { TAuditExportQuery, TAuditQuery } from "../lib/audit-schemas";
import { authenticateApiToken } from "./auth/authenticate-api-token";
import { createLoginLimiter } from "./auth/login-limiter";
import { verifyCredentials } from "./auth/verify-credentials";
import type { Config } from "./config";
import { searchEmbeddingsSecret } from "./config";
import { createEmbeddingProvider } from "./codemode/embeddings/create-embedding-provider";
import { createSemanticRanker, type SemanticRanker } from "./codemode/embeddings/semantic-ranker";
import type { RequestContext } from "./context";
import type { Db } from "./db/client";
import { createChangeBus, type ChangeBus } from "./events/change-bus";
import { checkHealth } from "./health/check-health";
import { createReadiness } from "./health/readiness";
import { databaseRoutes } from "./db/connection-budget";
import type { Logger } from "./logger";
import { aggregateToolCall, buildAggregateServer } from "./mcp/build-aggregate-server";
import type { TCreateVirtualServer, TUpdateVirtualServer } from "../lib/virtual-server-schemas";
import { createVirtualServer } from "./virtual/create-virtual-server";
import { deleteVirtualServer } from "./virtual/delete-virtual-server";
import { getVirtualServer, listVirtualServers } from "./virtual/list-virtual-servers";
import { updateVirtualServer } from "./virtual/update-virtual-server";
import { createVirtualServerCache, virtualViewOf, type VirtualServerCache } from "./virtual/virtual-server-cache";
import { answerMcpRequest, type McpEndpoint } from "./mcp/handle-mcp-request";
import { asResponse, mcpRequestOf, type JsonAnswer, type McpRequest } from "./mcp/mcp-request";
import { createClientMetadataDocumentResolver } from "./oauth/client-metadata-document";
import { createExternalTokenVerifier } from "./oauth/external-token-verifier";
import { createMcpOAuth, type McpOAuthService } from "./oauth/mcp-oauth";
import { serveResourceMetadata } from "./oauth/serve-resource-metadata";
import { createEmbeddedMcpOAuth, embeddedResourceConfig } from "./oauth/as/embedded-mcp-oauth";
import { createEmbeddedTokenVerifier } from "./oauth/as/embedded-token-verifier";
import { createOAuthServerService } from "./oauth/as/oauth-server-service";
import { createMcpSessionCache, type McpSessionCache } from "./mcp/mcp-sessions";
import { createSessionUpstreams, type SessionUpstreams } from "./mcp/transparent/session-upstreams";
import { sessionBearer } from "./upstream/upstream-bearer";
import { serveTransparent } from "./mcp/transparent/serve-transparent";
import { reserveUpstream } from "./mcp/transparent/reserve-upstream";
import { buildToolPipeline } from "./pipeline/build-pipeline";
import { buildRequestPipeline } from "./pipeline/build-request-pipeline";
import { logCalls } from "./metrics/call-log";
import { getDashboard, type DashboardViewer } from "./metrics/dashboard";
import { createGatewayMetrics, type GatewayMetrics } from "./metrics/gateway-metrics";
import type { TDashboardQuery } from "../lib/dashboard-schemas";
import { createCallLimiter, type CallLimiter } from "./pipeline/rate-limit";
import type { CallToolHandler } from "./pipeline/types";
import type { OperationHandler } from "./pipeline/operation";
import { createRegistry, type Registry } from "./registry/create-registry";
import { detectSandboxSupport, type HostSupport } from "./sandbox/detect";
import type { TSandboxSupport } from "../lib/sandbox-schemas";
import { createLauncher, type GatewayLauncher } from "./sandbox/launcher";
import { createPackageInstaller } from "./packages/package-installer";
import { advisoryInstallLock } from "./packages/install-lock";
import { buildCodeModeServer } from "./codemode/code-server";
import { playgroundRun, playgroundTypes } from "./codemode/playground";
import type { CodeModeDeps } from "./codemode/program-runner";
import type { TCodeRun } from "../lib/codemode-schemas";
import { DEFAULT_EXEC_LIMITS, type ExecLimits } from "./codemode/executor";
import { createExecutorPool, type ExecutorPool } from "./codemode/executor-pool";
import { createRunGate, type RunGate } from "./codemode/run-gate";
import { createWorkspace, type Workspace } from "./codemode/workspace";
import { tryToolCall } from "./registry/try-tool-call";
import { createUpstreamPool, type PoolDeps, type PoolOptions, type UpstreamPool } from "./upstream/upstream-pool";
import { createSessionStderr } from "./upstream/session-stderr";
import { createApiToken } from "./tokens/create-api-token";
import type { TCreateSession, TSessionSettings } from "../lib/policy-schemas";
import { createPolicyAdmin, type PolicyAdmin } from "./policy/policy-admin";
import { createPolicyCache, type PolicyCache } from "./policy/policy-cache";
import { createAgentSession, getSessionSettings, listAgentSessions, revokeAgentSession, updateSessionSettings } from "./sessions/agent-sessions";
import { createSessionAuth, type SessionAuth } from "./sessions/session-auth";
import type { TTaskQuery } from "../lib/task-schemas";
import { cancelTask } from "./tasks/cancel-task";
import { recordAudit } from "./audit/record-audit";
import { startTracing } from "./telemetry";
import { actorUserId } from "./context";
import { installRedaction, saveRedactionSettings } from "./audit/install-redaction";
import { loadRedactionSettings, previewRedactor } from "./audit/redaction";
import type { TRedactionSettings } from "../lib/redaction-schemas";
import { createApprovals, type ApprovalOptions, type Approvals, type ApprovalViewer } from "./approvals/approvals";
import type { TApprovalDecisionInput, TApprovalQuery } from "../lib/approval-schemas";
import { createTaskEngine, type TaskEngine, type TaskOptions } from "./tasks/task-engine";
import { findVisibleTask, getTaskDetail, listTasks, type TaskViewer } from "./tasks/task-dto";
import { listDeliveries } from "./tasks/webhooks";
import { createTaskFeed, type TaskChange, type TaskFeedViewer } from "./tasks/task-feed";
import { toolRulesInForce } from "./policy/tool-rules-in-force";
import { listApiTokens, revokeApiToken } from "./tokens/revoke-api-token";
import { createUser } from "./users/create-user";
import { ensureAdmin } from "./users/ensure-admin";
import { getUserByEmail, listUsers } from "./users/list-users";
import { updateUser } from "./users/update-user";
import { changeOwnPassword } from "./users/change-own-password";
import { resetPassword } from "./users/reset-password";
import { ssoSignIn, type SsoClaims } from "./auth/sso-sign-in";
import { GatewayError } from "./errors";
import { VERSION } from "./version";
import { createSecretStore, type SecretStore } from "./secrets/secret-store";
import type { TPutSecret } from "../lib/secret-schemas";
import { logRefusedAtStart, type Resolver } from "./net/outbound-url";
import { ensureBuiltinServer } from "./builtin/ensure-builtin-server";
import { builtinToolDefinitions } from "./builtin/builtin-tools";
import { createUpstreamAuth, type UpstreamAuth } from "./upstream-auth/create-upstream-auth";
import { executeBuiltin } from "./builtin/execute-builtin";

export type GatewayDeps = {
  db: Db;
  databaseUrl: string;
  logger: Logger;
  config: Config;
  pool?: Partial<PoolOptions>;
  tasks?: Partial<TaskOptions>;
  approvals?: Partial<ApprovalOptions>;
  /** How client ID metadata documents are fetched besides the outbound policy: a CA and a DNS answerer (tests). */
  clientDocuments?: { ca?: string; resolve?: Resolver };
  /** The bearer of upstreams whose auth mode is not `none` (server/upstream-auth; issue 22), and their modes. */
  upstreamAuth?: Pick<PoolDeps, "credentials" | "authModeOf" | "authModesSettling">;
};

export const GATEWAY_LIMITS = { maxOutputBytes: 100 * 1024, maxRequestBytes: 1024 * 1024 };

export function createGateway({ db, databaseUrl, logger, config, pool: poolOptions, tasks: taskOptions, approvals: approvalOptions, clientDocuments, upstreamAuth }: GatewayDeps) {
  const loginLimiter = createLoginLimiter(databaseUrl, config.login);
  // MRTR (2026-07-28): relayed calls waiting for a client's input, held in this process for its retry.
  // Their requestStates are signed with a key derived from the secrets key, so any process can check a retry
  // (and forward it to the holder, forward-retry.ts); so are the wrapped states of 2026 upstreams (upstream-state.ts).
  const stateKey = async () => requestStateKey(config.secretsKey ?? (await loadOrCreateKeyFile(config.dataDir)));
  const continuations = createContinuations({ ttlMs: MRTR_HOLD_MS, key: stateKey });
  const upstreamStates = createUpstreamStates(stateKey);
  let retryForwarding: ReturnType<typeof createRetryForwarding> | undefined;
  const statelessLeases = createStatelessLeases();
  // subscriptions/listen (2026-07-28): the streams this process holds, by agent session.
  const listenStreams = createListenStreams();
  // The query pools use databaseUrl (possibly a transaction pooler); LISTEN and session locks a real session.
  const routes = databaseRoutes(databaseUrl, config);
  const tracing = config.otlp.endpoint ? startTracing(config.otlp.endpoint, { headers: config.otlp.headers }) : undefined;
  const codeLimits: ExecLimits = { ...DEFAULT_EXEC_LIMITS, wallMs: config.codeMode.wallMs, memoryBytes: config.codeMode.memoryBytes, maxToolCalls: config.codeMode.maxToolCalls, maxOutputBytes: config.codeMode.maxOutputBytes };
  // Code mode's worker threads: made and warmed on first need (a code-mode session opening, the playground,
  // execute_code), not at start (D185): each loads QuickJS (about 0.8 s of CPU) and keeps its memory, so a gateway
  // no agent uses in code mode, the CLI and most tests start none. A program sent while they warm waits in the queue.
  let executorPool: ExecutorPool | undefined;
  const executor = (): ExecutorPool => (executorPool ??= createExecutorPool({ size: config.codeMode.workers, limits: codeLimits, maxQueue: config.codeMode.maxQueue }));
  // Which isolation profiles this host runs: found once, on first need (a few short test launches).
  let support: Promise<HostSupport> | undefined;
  const sandboxSupport = () => (support ??= detectSandboxSupport());
  // startUpstreams under way, and whether close() has begun: a start-up that meets the shutdown (Ctrl-C right
  // after ready) stops quietly, and close() lets it finish its last database writes before the database goes.
  let upstreamsStarting: Promise<unknown> | undefined;
  let closing = false;
  // Ends start-up's retries (a start-up that failed waits to try again) when close() begins.
  const stopStarting = new AbortController();
  // Whether this process should be sent traffic (GET /api/ready); the start server records the migrations and
  // begins the drain.
  const readiness = createReadiness();
  // The gateway side is built on first use: CLI commands and the console never open upstream connections.
  let core:
    | {
        bus: ChangeBus;
        pool: UpstreamPool;
        registry: Registry;
        pipeline: CallToolHandler;
        requests: OperationHandler;
        limiter: CallLimiter;
        sessions: SessionUpstreams;
        caches: { sessions: McpSessionCache; agents: SessionAuth; policy: PolicyCache; oauth: McpOAuthService | null; virtual: VirtualServerCache };
        audit: AuditWriter;
        tasks: TaskEngine;
        approvals: Approvals;
        redaction: { ready: Promise<void>; reload(): Promise<void>; close(): void };
        secrets: SecretStore;
        launcher: GatewayLauncher;
        workspace: Workspace;
        runGate: RunGate;
        upstreamAuth: UpstreamAuth;
      }
    | undefined;
  const gatewayCore = () => {
    if (!core) {
      const bus = createChangeBus(databaseUrl, logger, routes.sessionUrl);
      bus.subscribe((e) => e.kind === "listening" && readiness.set("changeBus", e.listening));
      // Built with the bus, so they hear from the start whether it is listening (until then they serve nothing).
      const sessionCache = createMcpSessionCache(bus, logger);
      const agentAuth = createSessionAuth({ db, bus, logger });
      const policy = createPolicyCache({ db, bus });
      const virtualServers = createVirtualServerCache({ db, bus });
      // Tool calls' audit events: group-committed over a small pool of their own (handed to every step that audits).
      const audit = createAuditWriter(pgSink(databaseUrl, { transactionPooler: routes.transactionPooler }), {
        // Events the database cannot take now wait here, fsync'd, and are replayed in order when it is back.
        spoolDir: path.join(config.dataDir, "audit-spool"),
        onError: (err, msg) => logger.error({ err }, msg),
        // A call's record is committed while it runs; this process's lock tells others its records are live.
        ...(config.auditOutcome === "after_answer" && { owner: holdAuditOwner(routes.sessionUrl, (err, msg) => logger.error({ err }, msg)), sweepIntervalMs: config.tasks.sweepIntervalMs }),
      });
      // Encrypted secrets (SECRETS_KEY or DATA_DIR/secrets.key), resolved into launches and scrubbed from logs.
      const secrets = createSecretStore({ db, dataDir: config.dataDir, key: config.secretsKey, onUndecryptable: (err, name) => logger.error({ err, secret: name }, "a stored secret cannot be decrypted") });
      // Upstream OAuth (issue 22): connections, tokens sealed in the secret store, refresh, exchange. Tokens held
      // only in memory (exchanged, client credentials) are handed to the redactor through liveTokens.
      const liveTokens: string[] = [];
      const upstreamOAuth = createUpstreamAuth({
        db,
        bus,
        secrets,
        logger,
        publicUrl: config.publicUrl,
        redactionReload: () => redaction.reload(),
        remember: (value) => {
          if (liveTokens.push(value) > 1000) liveTokens.shift();
          return redaction.reload();
        },
      });
      // Package servers' packages: installed once per (server, version), claimed across processes.
      const packages = createPackageInstaller({ ...config.packages, lock: advisoryInstallLock(db, config.packages.installTimeoutMs), logger });
      // Every stdio process: secrets resolved into it alone, run under its isolation profile, its use watched.
      const launcher = createLauncher({
        packages,
        support: sandboxSupport,
        resolveSecrets: (map) => secrets.resolve(map),
        dataDir: config.dataDir,
        uidBase: config.sandbox.uidBase,
        sampleMs: config.sandbox.sampleMs,
        hidePaths: config.sandbox.hidePaths,
        runtimeDir: config.sandbox.runtimeDir,
        logger,
      });
      // The pool reports to the registry, which is built on the pool: the callbacks close over this binding.
      const registryRef: { current?: Registry } = {};
      const pool = createUpstreamPool(
        logger,
        {
          onStatus: (spec, status, info) => void registryRef.current?.onStatus(spec, status, info),
          onDefinitions: (spec, defs) => void registryRef.current?.onDefinitions(spec, defs).catch((err: unknown) => logger.error({ err }, "definitions sync failed")),
          onLimit: (spec, hit) => void registryRef.current?.onLimit(spec, hit).catch((err: unknown) => logger.error({ err }, "recording a limit hit failed")),
          onThreshold: (spec, over, usage) => void registryRef.current?.onThreshold(spec, over, usage).catch((err: unknown) => logger.error({ err }, "recording a threshold crossing failed")),
          onPhase: (spec, phase) => void registryRef.current?.onPhase(spec, phase),
          onPackage: (spec, info) => void registryRef.current?.onPackage(spec, info).catch((err: unknown) => logger.error({ err }, "recording a package install failed")),
        },
        poolOptions,
        { launcher, mintForTask: (launch, taskKey) => launcher.mintForTask(launch, taskKey), credentials: upstreamOAuth.credentials, authModeOf: upstreamOAuth.modes.of, authModesSettling: upstreamOAuth.modes.settling, ...upstreamAuth },
      );
      // Transparent sessions' stderr, read by the registry into the server's logs.
      const sessionStderr = createSessionStderr();
      // Definitions waiting for review are announced on the approvers' webhook, signed with its secret.
      const reviewHook = { ...config.approvals, ...approvalOptions };
      const reviewWebhookUrl = reviewHook.webhookUrl && reviewHook.webhookSecret ? reviewHook.webhookUrl : null;
      const registry = createRegistry({ db, pool, bus, logger, sandbox: { support: sandboxSupport }, secrets, packages, sessionStderr, reviewWebhookUrl });
      registryRef.current = registry;
      const limiter = createCallLimiter(databaseUrl, config.rateLimits, logger, { transactionPooler: routes.transactionPooler });
      const approvalOpts = { ...config.approvals, sweepIntervalMs: config.tasks.sweepIntervalMs, ...approvalOptions };
      const tasks = createTaskEngine({
        db,
        audit,
        databaseUrl,
        sessionDatabaseUrl: routes.sessionUrl,
        transactionPooler: routes.transactionPooler,
        logger,
        bus,
        registry,
        pool,
        options: { ...config.tasks, ...taskOptions },
        approverWebhookSecret: approvalOpts.webhookSecret,
        outbound: config.outbound,
        // Audit retention: the one path that deletes audit events (D27).
        hourly: { portcullis_audit_retention: () => deleteExpiredAudit(db, config.auditRetentionDays) },
      });
      const approvals = createApprovals({ db, audit, logger, engine: tasks, options: approvalOpts });
      if (approvalOpts.webhookUrl) void logRefusedAtStart("APPROVAL_WEBHOOK_URL", approvalOpts.webhookUrl, config.outbound, logger);
      // Redaction of audit rows and log lines: this process's settings, key and known secrets, kept current.
      const redaction = installRedaction({
        db,
        bus,
        secretValues: async () => [...(await secrets.values()), ...liveTokens],
        secrets: [config.authSecret, approvalOpts.webhookSecret, searchEmbeddingsSecret(config.searchEmbeddings), config.sso?.clientSecret].filter((x): x is string => !!x),
        onError: (err) => logger.error({ err }, "loading the redaction settings failed; the built-in patterns stay in force"),
      });
      // Every call leaves one log line bound to its request id (metrics/call-log.ts).
      const pipeline = logCalls(buildToolPipeline({ audit, logger, pool, rateLimit: limiter.middleware, policy, tasks, approvals, builtin: executeBuiltin(codeModeDeps), onDefinitionDrift: registry.recheckDefinitions }, GATEWAY_LIMITS), logger);
      // Prompts, resource reads and subscriptions, completions: the same kind of steps, limits and bound.
      const requests = buildRequestPipeline({ audit, logger, policy, limiter }, GATEWAY_LIMITS);
      const sessions = createSessionUpstreams(
        { db, bus, logger, stderr: sessionStderr },
        {
          launcher,
          limits: config.transparent,
          ...(upstreamAuth && {
            bearer: (route, owner) => sessionBearer(upstreamAuth, route, { serverId: route.serverId, userId: owner.userId, agentSessionId: owner.sessionKey, ...(owner.subjectToken && { subjectToken: owner.subjectToken() }) }),
          }),
        },
      );
      // Code mode: programs run in QuickJS inside worker threads, warmed at start (startUpstreams).
      const workspace = createWorkspace(db);
      const runGate = createRunGate({ perMinute: config.codeMode.runsPerMinute, concurrent: config.codeMode.concurrentRuns, take: (key, limit) => limiter.take(key, limit) });
      // Enterprise mode: OAuth access tokens of the configured external OpenID provider (server/oauth/).
      const oauth = config.oauth
        ? createMcpOAuth({ db, bus, logger, held: (u) => policy.held(u), config: config.oauth, publicUrl: config.publicUrl, verifier: createExternalTokenVerifier(config.oauth) })
        : // The embedded authorization server (server/oauth/as/): its tokens are bound to consented agent sessions.
          config.oauthServer && createEmbeddedMcpOAuth({ db, bus, logger, held: (u) => policy.held(u), config: config.oauthServer, verifier: createEmbeddedTokenVerifier(db, config.oauthServer) });
      core = { bus, pool, registry, pipeline, requests, limiter, sessions, caches: { sessions: sessionCache, agents: agentAuth, policy, oauth, virtual: virtualServers }, audit, tasks, approvals, redaction, secrets, launcher, workspace, runGate, upstreamAuth: upstreamOAuth };
    }
    return core;
  };
  // The gateway's own tools as a registry server (slug portcullis): made or brought up to date once per process,
  // before its tools are listed or called; a failure is logged and tried again on the next use.
  let builtinReady: Promise<void> | undefined;
  const ensureBuiltin = (): Promise<void> =>
    (builtinReady ??= (async () => {
      const c = gatewayCore();
      const tools = builtinToolDefinitions({ pollSeconds: c.tasks.options.pollSeconds, limits: codeLimits });
      // A new server or version is heard back before anything is served, so no process serves a snapshot without
      // it; an unchanged one has nothing to announce.
      const { serverId, changed } = await ensureBuiltinServer(db, tools);
      if (changed) await c.bus.heardEverywhere(() => c.bus.publish({ kind: "registry", serverId }));
    })().catch((err: unknown) => {
      builtinReady = undefined;
      logger.error({ err }, "the built-in server (the gateway's own tools) could not be set up");
    }));
  /** What the MCP endpoints' servers and the direct tools/call path are built from. */
  const endpointDeps = (c: NonNullable<typeof core>) => ({
    registry: c.registry,
    pipeline: c.pipeline,
    requests: c.requests,
    pool: c.pool,
    bus: c.bus,
    db,
    audit: c.audit,
    logger,
    sessions: c.sessions,
    policy: c.caches.policy,
    taskTools: { pollSeconds: c.tasks.options.pollSeconds, maxOutputBytes: GATEWAY_LIMITS.maxOutputBytes },
    approvals: c.approvals,
    builtinReady: ensureBuiltin,
  });
  /** One MCP request: the handler with everything it needs from this gateway. */
  const answerMcp = (req: McpRequest, endpoint: McpEndpoint, body?: string): Promise<Response | JsonAnswer> => {
    const c = gatewayCore();
    return answerMcpRequest(
      {
        db,
        sessionCache: c.caches.sessions,
        bus: c.bus,
        authenticate: (token) => c.caches.agents.authenticate(token),
        oauth: c.caches.oauth ?? undefined,
        endpointExists: (e) => endpointExists(() => c.registry, e, () => c.caches.virtual),
        virtualServerId: async (name) => (await c.caches.virtual.get(name))?.id ?? null,
        abandon: (e, session) => {
          if (e.kind === "server") c.sessions.abandon(session.mcpSessionId);
        },
        statelessLeases,
        modernTasks: { db, audit: c.audit, pollSeconds: c.tasks.options.pollSeconds, publicUrl: config.publicUrl, serverInfo: () => ({ name: "portcullis", version: VERSION }) },
        mrtr: {
          continuations,
          reply: (mcpSessionId, message) => c.sessions.replyFromAgent(mcpSessionId, message),
          // Set up with the first request: a process holds a continuation only after serving one.
          forward: (retryForwarding ??= createRetryForwarding({ bus: c.bus, continuations, reply: (id, m) => c.sessions.replyFromAgent(id, m), serverInfo: () => ({ name: "portcullis", version: VERSION }) })).forward,
        },
        listen: { streams: listenStreams, look: (e, grant, bucket) => listenLook({ registry: c.registry, policy: c.caches.policy, virtual: (name) => c.caches.virtual.get(name) }, e, grant, bucket) },
        upstreamStates,
        // The registry's definition under the endpoint's name (no upstream is started for it).
        toolInputSchema: async (e, name, bucket) => {
          const gatewayName = e.kind === "server" ? `${e.slug}__${name}` : e.kind === "virtual" ? (await c.caches.virtual.get(e.name))?.tools.byServed.get(name)?.gatewayName : name;
          return gatewayName ? (await c.registry.visibleTool(gatewayName, bucket))?.inputSchema : undefined;
        },
        directToolCall: (e, session) => {
          if (e.kind === "aggregate") return aggregateToolCall(endpointDeps(c), session);
          if (e.kind !== "virtual") return undefined;
          return async (params, io) => aggregateToolCall(endpointDeps(c), session, await virtualViewOf(c.caches.virtual, e.name))(params, io);
        },
        serve: async (e, session, transport) => {
          const deps = endpointDeps(c);
          if (e.kind === "aggregate") await buildAggregateServer(deps, session).connect(transport);
          else if (e.kind === "virtual") {
            await buildAggregateServer(deps, session, await virtualViewOf(c.caches.virtual, e.name)).connect(transport);
          }
          else if (e.kind === "code") await buildCodeModeServer({ ...deps, executor: executor(), limits: codeLimits, workspace: c.workspace, privacyAlways: config.codeMode.privacyAlways, runGate: c.runGate }, session).connect(transport);
          else {
            await reserveUpstream(deps, e.slug, session);
            serveTransparent(deps, e.slug, session, transport);
          }
        },
        maxRequestBytes: GATEWAY_LIMITS.maxRequestBytes,
        allowedHosts: config.mcpAllowedHosts,
        logger,
      },
      req,
      endpoint,
      body,
    );
  };
  let metrics: GatewayMetrics | undefined;
  // search_tools' semantic ranking: the provider is set up on first use (an ONNX model loads then); one that
  // cannot be is logged and search stays lexical.
  let semantic: Promise<SemanticRanker | null> | undefined;
  const semanticRanker = (): Promise<SemanticRanker | null> =>
    (semantic ??= createEmbeddingProvider(config.searchEmbeddings).then(
      (provider) => (provider && config.searchEmbeddings.kind !== "off" ? createSemanticRanker({ db, provider, weight: config.searchEmbeddings.weight, logger }) : null),
      (err: unknown) => {
        logger.error({ err }, "semantic tool search is off: the embedding provider could not be set up (search_tools ranks lexically)");
        return null;
      },
    ));
  const codeModeDeps = (): CodeModeDeps => {
    const c = gatewayCore();
    const taskTools = { pollSeconds: c.tasks.options.pollSeconds, maxOutputBytes: GATEWAY_LIMITS.maxOutputBytes };
    return { registry: c.registry, pipeline: c.pipeline, requests: c.requests, pool: c.pool, bus: c.bus, db, audit: c.audit, logger, policy: c.caches.policy, taskTools, approvals: c.approvals, get executor() { return executor(); }, limits: codeLimits, workspace: c.workspace, privacyAlways: config.codeMode.privacyAlways, runGate: c.runGate, builtinReady: ensureBuiltin, semantic: semanticRanker };
  };
  const taskFeed = createTaskFeed({ db, bus: () => gatewayCore().bus });
  const reloadRedaction = () => gatewayCore().redaction.reload().catch((err: unknown) => logger.error({ err }, "reloading the redactor failed"));
  return {
    db,
    logger,
    config,
    version: VERSION,
    /** Upstream OAuth (issue 22): the credentials of upstream calls, connections, the callback, server auth settings. */
    upstreamAuth: () => gatewayCore().upstreamAuth,
    /** The call path's seam (server/upstream-auth/upstream-credentials.ts). */
    upstreamCredentials: () => gatewayCore().upstreamAuth.credentials,
    /** The embedded OAuth authorization server (null in enterprise mode or without PUBLIC_URL). */
    oauthServer: config.oauthServer && createOAuthServerService({ db, logger, config: config.oauthServer, dataDir: config.dataDir, key: config.secretsKey, resolveClientDocument: createClientMetadataDocumentResolver(config.clientMetadata, config.outbound, clientDocuments), heardEverywhere: (fn) => gatewayCore().bus.heardEverywhere(fn) }),
    users: {
      create: (ctx: RequestContext, input: TCreateUser) => createUser(db, ctx, input),
      // A role or disabled change must reach the token caches of every gateway process: answered once every
      // listening process has confirmed it, so the next call anywhere sees it.
      update: async (ctx: RequestContext, id: string, input: TUpdateUser) => {
        const user = await gatewayCore().bus.heardEverywhere(() => updateUser(db, ctx, id, input));
        // A disabled user's upstream connections are revoked at their providers and deleted (issue 22).
        if (input.disabled === true) await gatewayCore().upstreamAuth.disconnectUser(ctx, id);
        return user;
      },
      list: (q: TUserListQuery) => listUsers(db, q),
      getByEmail: (email: string) => getUserByEmail(db, email),
      getById: (id: string) => db.user.findUnique({ where: { id } }),
      changeOwnPassword: (ctx: RequestContext, userId: string, input: TChangeOwnPassword) => changeOwnPassword(db, loginLimiter, ctx, userId, input),
      resetPassword: (ctx: RequestContext, userId: string, input: TResetPassword) => resetPassword(db, loginLimiter, ctx, userId, input),
      ensureAdmin: (opts: { email?: string | undefined; password?: string | undefined }) => ensureAdmin(db, opts),
    },
    tokens: {
      create: (ctx: RequestContext, userId: string, opts: { name: string; expiresInDays?: number | undefined }) =>
        createApiToken(db, ctx, userId, opts),
      revoke: (ctx: RequestContext, idOrPrefix: string) => revokeApiToken(db, ctx, idOrPrefix),
      list: (userId: string) => listApiTokens(db, userId),
      authenticate: (token: string) => authenticateApiToken(db, token),
    },
    /** Agent session tokens for the MCP endpoints. */
    sessions: {
      create: (ctx: RequestContext, userId: string, input: TCreateSession) => createAgentSession(db, ctx, userId, input, config.outbound),
      list: (opts: { userId?: string | undefined }) => listAgentSessions(db, opts),
      // Answered once every listening process has confirmed the revocation: each has dropped the session.
      revoke: (ctx: RequestContext, id: string) =>
        gatewayCore().bus.heardEverywhere(() => revokeAgentSession(db, ctx, id)),
      settings: () => getSessionSettings(db),
      updateSettings: (ctx: RequestContext, input: TSessionSettings) => updateSessionSettings(db, ctx, input),
    },
    policy: echoedPolicy(createPolicyAdmin(db), () => gatewayCore().bus),
    /** Virtual servers (issue 23): a change is answered once every process has dropped its cached view of it. */
    virtualServers: {
      list: () => listVirtualServers(db),
      get: (name: string) => getVirtualServer(db, name),
      create: (ctx: RequestContext, input: TCreateVirtualServer) => gatewayCore().bus.heardEverywhere(() => createVirtualServer(db, ctx, input)),
      update: (ctx: RequestContext, name: string, input: TUpdateVirtualServer) => gatewayCore().bus.heardEverywhere(() => updateVirtualServer(db, ctx, name, input)),
      remove: (ctx: RequestContext, name: string) => gatewayCore().bus.heardEverywhere(() => deleteVirtualServer(db, ctx, name)),
    },
    /** Durable tasks: what the REST API and the console's task monitor read and cancel. */
    tasks: {
      list: (viewer: TaskViewer, q: TTaskQuery) => listTasks(db, viewer, q),
      get: (viewer: TaskViewer, id: string) => getTaskDetail(db, viewer, id),
      cancel: (ctx: RequestContext, viewer: TaskViewer, id: string) => cancelTask(db, gatewayCore().audit, ctx, viewer, id),
      /** The delivery log of a task's webhook. */
      webhooks: async (viewer: TaskViewer, id: string) => listDeliveries(db, { taskId: (await findVisibleTask(db, viewer, id)).id }),
      /** Task changes from every process (over PostgreSQL NOTIFY), each only to viewers who may see the task. */
      subscribe: (viewer: TaskFeedViewer, fn: (e: TaskChange) => void, onResync?: () => void) => taskFeed.subscribe(viewer, fn, onResync),
    },
    /** Audit search (admins): filtered keyset pages, one event with its request's story, streamed export, retention. */
    audit: {
      search: (q: TAuditQuery) => searchAudit(db, q),
      get: (id: string) => getAuditEventDetail(db, id),
      export: (ctx: RequestContext, q: TAuditExportQuery) => exportAudit(db, ctx, q),
      /** Deletes events older than `days` (the only delete audit_events allows); answers how many. */
      deleteExpired: (days: number = DEFAULT_AUDIT_RETENTION_DAYS) => deleteExpiredAudit(db, days),
      /** Resolves once this process's writer has replayed its spool (at once when none is pending or the core is not built). */
      replayed: async () => {
        await core?.audit.replayed?.();
      },
    },
    /** Prometheus metrics of this process (GET /metrics); scraping does not build the gateway core. */
    metrics: () => (metrics ??= createGatewayMetrics({ db, logger, live: () => core && { pool: core.pool, audit: core.audit, sessions: core.sessions }, codeMode: () => executorPool?.stats() })),
    /** The console dashboard: traffic of the last minutes from the audit log, pending approvals, unhealthy servers. */
    dashboard: (viewer: DashboardViewer, q: TDashboardQuery) => getDashboard(db, viewer, q),
    /** Human approval: the queue approvers work through, decisions, reveals (audited) and the live feed. */
    approvals: {
      list: (viewer: ApprovalViewer, q: TApprovalQuery) => gatewayCore().approvals.list(viewer, q),
      get: (viewer: ApprovalViewer, id: string) => gatewayCore().approvals.get(viewer, id),
      decide: (ctx: RequestContext, viewer: ApprovalViewer, id: string, input: TApprovalDecisionInput) => gatewayCore().approvals.decide(ctx, viewer, id, input),
      revoke: (ctx: RequestContext, viewer: ApprovalViewer, id: string) => gatewayCore().approvals.revoke(ctx, viewer, id),
      reveal: (ctx: RequestContext, viewer: ApprovalViewer, id: string) => gatewayCore().approvals.reveal(ctx, viewer, id),
      /** Expires overdue requests now (each process does it every TASK_SWEEP_INTERVAL_MS). */
      expire: () => gatewayCore().approvals.expire(),
      /** Approval changes from every process (over PostgreSQL NOTIFY), for the console's live queue. */
      subscribe: (fn: (e: { approvalId: string; status: string }) => void, onResync?: () => void) =>
        gatewayCore().bus.subscribe((e) => {
          if (e.kind === "approval") fn({ approvalId: e.approvalId, status: e.status });
          // The bus (re)connected: events in between may be lost, so listeners refetch.
          else if (e.kind === "listening" && e.listening) onResync?.();
        }),
    },
    /**
     * Settings → Secrets: AES-256-GCM encrypted values that servers' env and headers reference as `${secret:NAME}`.
     * Values go in and into launches, never back out; after a change this process's redactor scrubs the new values.
     */
    secrets: {
      list: () => gatewayCore().secrets.list(),
      put: async (ctx: RequestContext, input: TPutSecret) => {
        const out = await gatewayCore().secrets.put(ctx, input.name, input.value);
        await reloadRedaction();
        return out;
      },
      remove: async (ctx: RequestContext, name: string) => {
        const out = await gatewayCore().secrets.remove(ctx, name);
        await reloadRedaction();
        return out;
      },
      resolve: (map: Record<string, string>) => gatewayCore().secrets.resolve(map),
      assertKnown: (maps: readonly Record<string, string>[]) => gatewayCore().secrets.assertKnown(maps),
      values: () => gatewayCore().secrets.values(),
    },
    /** Settings → Redaction: what is masked or hashed before audit rows and log lines are written. */
    /** The console's code playground (a person runs a program with their or an agent session's permissions). */
    codeMode: {
      run: (ctx: RequestContext, input: TCodeRun) => playgroundRun(codeModeDeps(), ctx, input),
      types: (ctx: RequestContext, agentSessionId: string | null) => playgroundTypes(codeModeDeps(), ctx, agentSessionId),
    },
    /** What this host's sandboxing can do (profiles found at start, how memory is enforced). */
    sandbox: {
      async support(): Promise<TSandboxSupport> {
        const { profiles, defaultProfile, memoryEnforcement } = await sandboxSupport();
        return { profiles, defaultProfile, memoryEnforcement };
      },
    },
    redaction: {
      get: () => loadRedactionSettings(db),
      save: async (ctx: RequestContext, settings: TRedactionSettings) => {
        const saved = await gatewayCore().bus.heardEverywhere(() => saveRedactionSettings(db, actorUserId(ctx) ?? null, settings));
        await recordAudit(db, ctx, { action: "settings.redaction_updated", targetType: "settings", targetId: "redaction", details: { mode: saved.mode, patterns: saved.patterns.map((p) => `${p.name}${p.enabled ? "" : " (off)"}`), fields: saved.fields } });
        await gatewayCore().redaction.reload();
        return saved;
      },
      /** The text as it would be stored under the settings in force now (known secrets aside: no guessing oracle). */
      preview: async (text: string) => {
        await gatewayCore().redaction.ready;
        return { text: previewRedactor().text(text) };
      },
    },
    auth: {
      verifyCredentials: (input: { email: string; password: string; ip?: string | undefined }) =>
        // PASSWORD_SIGNIN=off refuses here, not only in the form, so a hand-made POST is refused too.
        config.passwordSignin ? verifyCredentials(db, loginLimiter, input) : Promise.reject(new GatewayError("forbidden", "Password sign-in is turned off; sign in with single sign-on.")),
      ssoSignIn: (input: { claims: SsoClaims; ip?: string | undefined }) =>
        config.sso ? ssoSignIn(db, config.sso, input) : Promise.reject(new GatewayError("not_found", "Single sign-on is not configured.")),
    },
    health: () => checkHealth(db, VERSION),
    /** The parts readiness is made of; the host sets `migrations` and begins the drain. */
    readiness,
    /** GET /api/ready's answer: every part up and not draining. */
    ready: () => readiness.report(async () => (await checkHealth(db, VERSION, 1000)).database.status === "up"),
    get registry(): Registry {
      return gatewayCore().registry;
    },
    get pipeline(): CallToolHandler {
      return gatewayCore().pipeline;
    },
    /** A console user's "try it" call, through the full pipeline. */
    /** The tool page's "Rules in force": grants, tier, parameter rules, argument checking, rate limit. */
    toolRulesInForce: (gatewayName: string) => toolRulesInForce(db, config.rateLimits, gatewayName),
    tryToolCall: (ctx: RequestContext, gatewayName: string, args: Record<string, unknown>) =>
      tryToolCall({ ...gatewayCore(), logger }, ctx, gatewayName, args),
    /** Connects every enabled upstream server; the HTTP server calls it once at start-up. */
    /** Start-up: finds which isolation profiles this host runs (and says so), then connects every server. */
    startUpstreams(): Promise<void> {
      const run = (async () => {
        const support = await sandboxSupport();
        const profiles = support.profiles.map((p) => `${p.profile}: ${p.available ? "available" : "not available"} (${p.detail})`).join("; ");
        logger.info({ defaultProfile: support.defaultProfile, memoryEnforcement: support.memoryEnforcement }, `sandbox profiles: ${profiles}`);
        if (closing) return;
        // Tried again while it fails (the database away at start): a process that gave up would stay up and never
        // be ready. Connecting again is safe: the pool reuses what it holds. Ended quietly by close(): it only
        // throws once closing, when a failure is the shutdown's, not the start-up's.
        await writeUntilUp(
          async () => {
            // Servers are connected knowing their auth modes (issue 22), never with none in place of a per-user one.
            const modes = gatewayCore().upstreamAuth.modes;
            if (!(await modes.ready()) && !(await modes.reload())) throw new Error("the servers' auth modes could not be loaded");
            await Promise.all([ensureBuiltin(), gatewayCore().registry.startAll()]);
            readiness.set("upstreams", true);
          },
          {
            closed: () => closing,
            retryable: () => true,
            onFailure: (err, attempt, retryInMs) => logger.error({ err, attempt, retryInMs }, "connecting upstream servers failed; trying again"),
            signal: stopStarting.signal,
          },
        ).catch(() => undefined);
      })();
      upstreamsStarting = run.catch(() => undefined);
      return run;
    },
    /** Starts this process's task workers and the sweeper that recovers tasks of stopped processes. */
    startTasks: async () => {
      gatewayCore().approvals.start();
      await gatewayCore().tasks.start();
      readiness.set("tasks", true);
    },
    /**
     * A graceful stop's first step: not ready any more, no new task taken, and resolves once the running tasks
     * have finished or `graceMs` has passed. close() follows.
     */
    async drain(graceMs: number): Promise<void> {
      readiness.drain();
      if (core) await core.tasks.drain(graceMs);
    },
    /** The task engine (tests and benchmarks look inside). */
    get taskEngine(): TaskEngine {
      return gatewayCore().tasks;
    },
    mcp: {
      /** `body`: the request's body already read (the node adapter hands it over as text), else read from `req`. */
      handle: async (req: Request, endpoint: McpEndpoint, body?: string): Promise<Response> => asResponse(await answerMcp(mcpRequestOf(req), endpoint, body)),
      /** handle for the start server's node adapter: a plain tools/call is answered as JSON text (D102). */
      answer: (req: McpRequest, endpoint: McpEndpoint, body?: string): Promise<Response | JsonAnswer> => answerMcp(req, endpoint, body),
      /** RFC 9728 metadata of an endpoint (null: the path names none); 404 unless OAuth is configured. */
      resourceMetadata: (req: Request, endpoint: McpEndpoint | null): Promise<Response> =>
        serveResourceMetadata({ config: config.oauth ?? (config.oauthServer && embeddedResourceConfig(config.oauthServer)), publicUrl: config.publicUrl, endpointExists: (e) => endpointExists(() => gatewayCore().registry, e, () => gatewayCore().caches.virtual) }, req, endpoint),
    },
    async close() {
      closing = true;
      stopStarting.abort();
      readiness.drain();
      if (core) {
        core.approvals.close();
        core.redaction.close();
        core.upstreamAuth.modes.close();
        await core.tasks.close();
        continuations.closeAll();
        retryForwarding?.close();
        listenStreams.endAll();
        await core.sessions.closeAll();
        await core.pool.close();
        await core.launcher.close();
        await executorPool?.close();
        executorPool = undefined;
        // With the pool and the workers closed a start-up under way ends at once; its writes land before the database closes.
        await upstreamsStarting;
        await core.bus.close();
        await core.limiter.close();
        core.caches.sessions.close();
        core.caches.agents.close();
        core.caches.oauth?.close();
        core.caches.policy.close();
        core.caches.virtual.close();
        await core.audit.close();
      }
      await tracing?.stop().catch((err: unknown) => logger.warn({ err }, "flushing traces failed"));
      await loginLimiter.close();
      await db.$disconnect();
    },
  };
}

export type Gateway = ReturnType<typeof createGateway>;

/** Policy changes answer once every process has heard them (heardEverywhere), so they hold from the next call on. */
/** False for an unknown or disabled server: its endpoint (and its resource metadata) answer 404. */
async function endpointExists(registry: () => Registry, e: McpEndpoint, virtual: () => VirtualServerCache): Promise<boolean> {
  if (e.kind === "virtual") return (await virtual().get(e.name)) !== null;
  return e.kind !== "server" || (await registry().resolveServer(e.slug, 0)) !== null;
}

function echoedPolicy(admin: PolicyAdmin, bus: () => ChangeBus): PolicyAdmin {
  const echoed = <R>(fn: () => Promise<R>) => bus().heardEverywhere(fn);
  return {
    ...admin,
    bulkTier: (ctx, input) => echoed(() => admin.bulkTier(ctx, input)),
    createRule: (ctx, tool, input) => echoed(() => admin.createRule(ctx, tool, input)),
    deleteRule: (ctx, tool, id) => echoed(() => admin.deleteRule(ctx, tool, id)),
    createGrant: (ctx, input) => echoed(() => admin.createGrant(ctx, input)),
    deleteGrant: (ctx, id) => echoed(() => admin.deleteGrant(ctx, id)),
    revert: (ctx, id) => echoed(() => admin.revert(ctx, id)),
  };
}
