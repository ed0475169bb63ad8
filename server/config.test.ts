import path from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "./config";

function configError(env: Record<string, string>): ConfigError {
  try {
    loadConfig(env);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return err as ConfigError;
  }
  throw new Error("expected loadConfig to throw");
}

describe("loadConfig", () => {
  it("fills every setting with its default from an empty environment", () => {
    expect(loadConfig({})).toEqual({
      env: "production",
      port: 3000,
      host: "0.0.0.0",
      dataDir: path.resolve(".data"),
      databaseUrl: undefined,
      embeddedPgPort: undefined,
      publicUrl: "http://localhost:3000",
      authSecret: undefined,
      adminEmail: undefined,
      adminPassword: undefined,
      logLevel: "info",
      login: { maxFailures: 5, windowSeconds: 900 },
      noDemo: false,
      shutdownGraceMs: 20_000,
      databaseDirectUrl: undefined,
      databasePoolMax: 10,
      databasePoolMode: "session",
      sandbox: { uidBase: 200_000, sampleMs: 500, hidePaths: [], runtimeDir: undefined },
      codeMode: { wallMs: 30_000, memoryBytes: 64 * 1024 * 1024, maxToolCalls: 100, maxOutputBytes: 20 * 1024, workers: 2, privacyAlways: false, runsPerMinute: 60, concurrentRuns: 2, maxQueue: 32 },
      mcpAllowedHosts: [],
      oauth: null,
      oauthServer: null,
      rateLimits: { perSessionPerMinute: 600, perToolPerMinute: 6000 },
      transparent: { perSession: 4, perUser: 8, perServer: 16, perProcess: 32, idleMs: 600_000, pressureIdleMs: 30_000, pressureFraction: 0.5 },
      tasks: { thresholdMs: 1000, concurrency: 8, resultMaxBytes: 1048576, retentionDays: 7, dedupeWindowMs: 30_000, sweepIntervalMs: 5000 },
      approvals: { ttlMs: 86_400_000, useWindowMs: 3_600_000, webhookUrl: null, webhookSecret: null },
      otlp: { endpoint: null, headers: {} },
      metricsToken: null,
      auditRetentionDays: 90,
      auditOutcome: "after_answer",
      outbound: { allowedHosts: [] },
      clientMetadata: { timeoutMs: 5000, maxBytes: 5120, cache: { minSeconds: 60, maxSeconds: 86_400, defaultSeconds: 300, failureSeconds: 30, maxEntries: 1000 } },
      packages: { dir: path.resolve(".data/packages"), npmRegistry: "https://registry.npmjs.org", installTimeoutMs: 180_000, installMaxBytes: 500 * 1024 * 1024 },
      searchEmbeddings: { kind: "off" },
      sso: null,
      passwordSignin: true,
    });
  });

  it("reads the console's single sign-on: role map, domains, defaults", () => {
    const c = loadConfig({ SSO_ISSUER: "https://idp.example.com/", SSO_CLIENT_ID: "pc", SSO_CLIENT_SECRET: "s3cret", SSO_ROLE_MAP: " portcullis-admins=ADMIN; approvers=approver ;", SSO_ALLOWED_DOMAINS: "Example.com, @corp.example.org", PASSWORD_SIGNIN: "off" });
    expect(c.passwordSignin).toBe(false);
    expect(c.sso).toEqual({
      name: "single sign-on",
      issuer: "https://idp.example.com",
      clientId: "pc",
      clientSecret: "s3cret",
      groupsClaim: "groups",
      roleMap: new Map([["portcullis-admins", "ADMIN"], ["approvers", "APPROVER"]]),
      allowedDomains: ["example.com", "corp.example.org"],
    });
  });

  it.each([
    [{ SSO_ISSUER: "https://idp.example.com", SSO_CLIENT_SECRET: "x" }, /SSO_CLIENT_ID: required/],
    [{ SSO_ISSUER: "https://idp.example.com", SSO_CLIENT_ID: "pc" }, /SSO_CLIENT_SECRET: required/],
    [{ SSO_ISSUER: "idp.example.com", SSO_CLIENT_ID: "pc", SSO_CLIENT_SECRET: "x" }, /SSO_ISSUER: not a URL/],
    [{ SSO_ISSUER: "ftp://idp.example.com", SSO_CLIENT_ID: "pc", SSO_CLIENT_SECRET: "x" }, /SSO_ISSUER: must be an http/],
    [{ SSO_ISSUER: "https://idp.example.com", SSO_CLIENT_ID: "pc", SSO_CLIENT_SECRET: "x", SSO_ROLE_MAP: "admins=ROOT" }, /SSO_ROLE_MAP: "admins=ROOT": role must be one of/],
    [{ SSO_ISSUER: "https://idp.example.com", SSO_CLIENT_ID: "pc", SSO_CLIENT_SECRET: "x", SSO_ROLE_MAP: "admins" }, /SSO_ROLE_MAP: "admins" is not group=ROLE/],
    [{ SSO_ISSUER: "https://idp.example.com", SSO_CLIENT_ID: "pc", SSO_CLIENT_SECRET: "x", SSO_ROLE_MAP: "a=ADMIN;a=USER" }, /mapped twice/],
    [{ SSO_ISSUER: "https://idp.example.com", SSO_CLIENT_ID: "pc", SSO_CLIENT_SECRET: "x", SSO_ALLOWED_DOMAINS: "example" }, /SSO_ALLOWED_DOMAINS: "example" is not a domain/],
    [{ SSO_CLIENT_ID: "pc" }, /SSO_CLIENT_ID: set without SSO_ISSUER/],
    [{ PASSWORD_SIGNIN: "off" }, /PASSWORD_SIGNIN: off needs SSO_ISSUER/],
    [{ PASSWORD_SIGNIN: "no" }, /PASSWORD_SIGNIN/],
  ])("refuses a bad single sign-on setting %#", (env, message) => {
    expect(configError(env).message).toMatch(message);
  });

  it("reads the package settings: PACKAGES_DIR made absolute, the registry without its trailing slash", () => {
    expect(loadConfig({ PACKAGES_DIR: "pk", NPM_REGISTRY: "http://127.0.0.1:4873/", PACKAGE_INSTALL_TIMEOUT_MS: "5000", PACKAGE_INSTALL_MAX_MB: "2" }).packages).toEqual({
      dir: path.resolve("pk"),
      npmRegistry: "http://127.0.0.1:4873",
      installTimeoutMs: 5000,
      installMaxBytes: 2 * 1024 * 1024,
    });
    expect(() => loadConfig({ NPM_REGISTRY: "file:///etc" })).toThrow(/NPM_REGISTRY/);
  });

  it("reads the sandbox settings: absolute hide paths only, a uid base above the system users", () => {
    expect(loadConfig({ SANDBOX_UID_BASE: "300000", SANDBOX_SAMPLE_MS: "250", SANDBOX_HIDE_PATHS: "/srv/keys: relative :/opt/x", SANDBOX_RUNTIME_DIR: "/var/run/pc" }).sandbox).toEqual({
      uidBase: 300_000,
      sampleMs: 250,
      hidePaths: ["/srv/keys", "/opt/x"],
      runtimeDir: "/var/run/pc",
    });
    expect(() => loadConfig({ SANDBOX_UID_BASE: "0" })).toThrow(/SANDBOX_UID_BASE/);
    expect(() => loadConfig({ SANDBOX_SAMPLE_MS: "10" })).toThrow(/SANDBOX_SAMPLE_MS/);
  });

  it("reads the code-mode limits", () => {
    expect(loadConfig({ CODE_MODE_WALL_MS: "5000", CODE_MODE_MEMORY_MB: "32", CODE_MODE_MAX_TOOL_CALLS: "10", CODE_MODE_MAX_OUTPUT_BYTES: "4096", CODE_MODE_WORKERS: "4", CODE_MODE_PRIVACY: "1" }).codeMode).toEqual({
      wallMs: 5000,
      memoryBytes: 32 * 1024 * 1024,
      maxToolCalls: 10,
      maxOutputBytes: 4096,
      workers: 4,
      privacyAlways: true,
      runsPerMinute: 60,
      concurrentRuns: 2,
      maxQueue: 64,
    });
    expect(loadConfig({ CODE_MODE_RUNS_PER_MINUTE: "5", CODE_MODE_CONCURRENT_RUNS: "1", CODE_MODE_MAX_QUEUE: "0" }).codeMode).toMatchObject({ runsPerMinute: 5, concurrentRuns: 1, maxQueue: 0 });
    expect(() => loadConfig({ CODE_MODE_CONCURRENT_RUNS: "0" })).toThrow(/CODE_MODE_CONCURRENT_RUNS/);
    expect(() => loadConfig({ CODE_MODE_WALL_MS: "5" })).toThrow(/CODE_MODE_WALL_MS/);
    expect(() => loadConfig({ CODE_MODE_WORKERS: "0" })).toThrow(/CODE_MODE_WORKERS/);
  });

  it("takes a METRICS_TOKEN of at least 16 characters", () => {
    expect(loadConfig({ METRICS_TOKEN: " scrape-token-0123456789 " }).metricsToken).toBe("scrape-token-0123456789");
    expect(() => loadConfig({ METRICS_TOKEN: "short" })).toThrow(/METRICS_TOKEN/);
  });

  it("reads the OTLP endpoint and its headers", () => {
    expect(loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318", OTEL_EXPORTER_OTLP_HEADERS: "x-api-key=abc%3D,tenant = t1" }).otlp).toEqual({
      endpoint: "http://collector:4318",
      headers: { "x-api-key": "abc=", tenant: "t1" },
    });
    expect(() => loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: "collector:4318" })).toThrow(/OTEL_EXPORTER_OTLP_ENDPOINT/);
  });

  it("reads the approval settings in seconds; an approvers' webhook needs its signing secret", () => {
    expect(
      loadConfig({ APPROVAL_TTL_SECONDS: "600", APPROVAL_USE_WINDOW_SECONDS: "60", APPROVAL_WEBHOOK_URL: "https://chat.example.com/hook", APPROVAL_WEBHOOK_SECRET: "0123456789abcdef" }).approvals,
    ).toEqual({ ttlMs: 600_000, useWindowMs: 60_000, webhookUrl: "https://chat.example.com/hook", webhookSecret: "0123456789abcdef" });
    expect(() => loadConfig({ APPROVAL_WEBHOOK_URL: "https://chat.example.com/hook" })).toThrow(/APPROVAL_WEBHOOK_SECRET/);
    expect(() => loadConfig({ APPROVAL_WEBHOOK_URL: "ftp://chat.example.com/hook", APPROVAL_WEBHOOK_SECRET: "0123456789abcdef" })).toThrow(/APPROVAL_WEBHOOK_URL/);
  });

  it("refuses an APPROVAL_WEBHOOK_URL at a loopback, private or metadata address unless OUTBOUND_ALLOWED_HOSTS allows its host", () => {
    const secret = { APPROVAL_WEBHOOK_SECRET: "0123456789abcdef" };
    for (const url of ["http://127.0.0.1:9/hook", "http://localhost/hook", "http://[::ffff:7f00:1]/", "http://2130706433/", "http://169.254.169.254/", "http://10.0.0.1/", "http://[fd00::1]/"]) {
      expect(() => loadConfig({ APPROVAL_WEBHOOK_URL: url, ...secret }), url).toThrow(/APPROVAL_WEBHOOK_URL: \[outbound_url_refused\]/);
    }
    expect(loadConfig({ APPROVAL_WEBHOOK_URL: "http://127.0.0.1:9/hook", OUTBOUND_ALLOWED_HOSTS: " 127.0.0.1 , Hooks.Internal ", ...secret })).toMatchObject({
      approvals: { webhookUrl: "http://127.0.0.1:9/hook" },
      outbound: { allowedHosts: ["127.0.0.1", "hooks.internal"] },
    });
    expect(() => loadConfig({ APPROVAL_TTL_SECONDS: "0" })).toThrow(/APPROVAL_TTL_SECONDS/);
  });

  it("reads the client metadata document limits; a cache minimum above the maximum is refused", () => {
    const env = { CLIENT_METADATA_TIMEOUT_MS: "2000", CLIENT_METADATA_MAX_BYTES: "8192", CLIENT_METADATA_CACHE_SECONDS: "120", CLIENT_METADATA_CACHE_MIN_SECONDS: "10", CLIENT_METADATA_CACHE_MAX_SECONDS: "3600", CLIENT_METADATA_FAILURE_CACHE_SECONDS: "5" };
    expect(loadConfig(env).clientMetadata).toEqual({ timeoutMs: 2000, maxBytes: 8192, cache: { minSeconds: 10, maxSeconds: 3600, defaultSeconds: 120, failureSeconds: 5, maxEntries: 1000 } });
    expect(configError({ CLIENT_METADATA_CACHE_MIN_SECONDS: "7200", CLIENT_METADATA_CACHE_MAX_SECONDS: "3600" }).message).toContain("CLIENT_METADATA_CACHE_MIN_SECONDS (7200) is more than CLIENT_METADATA_CACHE_MAX_SECONDS (3600)");
    expect(configError({ CLIENT_METADATA_TIMEOUT_MS: "10" }).message).toContain("CLIENT_METADATA_TIMEOUT_MS");
  });

  it("reads the task settings, the dedupe window in seconds", () => {
    expect(loadConfig({ TASK_THRESHOLD_MS: "0", TASK_CONCURRENCY: "2", TASK_DEDUPE_WINDOW_SECONDS: "5", TASK_RETENTION_DAYS: "1.5" }).tasks).toMatchObject({
      thresholdMs: 0,
      concurrency: 2,
      dedupeWindowMs: 5000,
      retentionDays: 1.5,
    });
    expect(() => loadConfig({ TASK_CONCURRENCY: "0" })).toThrow(/TASK_CONCURRENCY/);
  });

  it("reads the transparent endpoint's process limits; the pressure timeout never exceeds the idle one", () => {
    const env = { TRANSPARENT_MAX_PER_SESSION: "2", TRANSPARENT_MAX_PER_USER: "3", TRANSPARENT_MAX_PER_SERVER: "5", TRANSPARENT_MAX_PER_PROCESS: "7", TRANSPARENT_IDLE_SECONDS: "120", TRANSPARENT_PRESSURE_IDLE_SECONDS: "10", TRANSPARENT_PRESSURE_FRACTION: "0.25" };
    expect(loadConfig(env).transparent).toEqual({ perSession: 2, perUser: 3, perServer: 5, perProcess: 7, idleMs: 120_000, pressureIdleMs: 10_000, pressureFraction: 0.25 });
    expect(loadConfig({ TRANSPARENT_IDLE_SECONDS: "20", TRANSPARENT_PRESSURE_IDLE_SECONDS: "60" }).transparent.pressureIdleMs).toBe(20_000);
    expect(() => loadConfig({ TRANSPARENT_MAX_PER_USER: "0" })).toThrow(/TRANSPARENT_MAX_PER_USER/);
    expect(() => loadConfig({ TRANSPARENT_PRESSURE_FRACTION: "1.5" })).toThrow(/TRANSPARENT_PRESSURE_FRACTION/);
  });

  it("derives the public URL from PORT unless PUBLIC_URL is set", () => {
    expect(loadConfig({ PORT: "8080" }).publicUrl).toBe("http://localhost:8080");
    expect(loadConfig({ PORT: "8080", PUBLIC_URL: "https://gw.example.com" }).publicUrl).toBe("https://gw.example.com");
  });

  it.each([
    ["a relative DATA_DIR", "data/portcullis", path.resolve("data/portcullis")],
    ["a dotted relative DATA_DIR", "./x/../y", path.resolve("y")],
    ["an absolute DATA_DIR", "/var/lib/portcullis", "/var/lib/portcullis"],
  ])("resolves %s to an absolute path", (_label, value, expected) => {
    const { dataDir } = loadConfig({ DATA_DIR: value });
    expect(path.isAbsolute(dataDir)).toBe(true);
    expect(dataDir).toBe(expected);
  });

  it("reads numbers, URLs and the login limits from strings", () => {
    const c = loadConfig({
      PORT: "4000",
      DATABASE_URL: "postgresql://u:p@db.example.com:5432/portcullis",
      LOGIN_MAX_FAILURES: "3",
      LOGIN_WINDOW_SECONDS: "60",
      NODE_ENV: "test",
    });
    expect(c.port).toBe(4000);
    expect(c.databaseUrl).toBe("postgresql://u:p@db.example.com:5432/portcullis");
    expect(c.login).toEqual({ maxFailures: 3, windowSeconds: 60 });
    expect(c.env).toBe("test");
  });

  it.each([
    ["PORT", { PORT: "not-a-port" }],
    ["PORT", { PORT: "70000" }],
    ["PORT", { PORT: "3000.5" }],
    ["DATABASE_URL", { DATABASE_URL: "not a url" }],
    ["EMBEDDED_PG_PORT", { EMBEDDED_PG_PORT: "0" }],
    ["LOGIN_MAX_FAILURES", { LOGIN_MAX_FAILURES: "0" }],
    ["LOG_LEVEL", { LOG_LEVEL: "loud" }],
    ["NEXTAUTH_SECRET", { NEXTAUTH_SECRET: "short" }],
    ["PORTCULLIS_NO_DEMO", { PORTCULLIS_NO_DEMO: "maybe" }],
  ])("throws a ConfigError naming %s for %o", (name, env) => {
    const err = configError(env);
    expect(err.name).toBe("ConfigError");
    expect(err.message).toMatch(new RegExp(`^\\s*${name}:`, "m"));
  });

  it("names every bad variable at once", () => {
    const err = configError({ PORT: "x", DATABASE_URL: "nope" });
    expect(err.message).toMatch(/^\s*PORT:/m);
    expect(err.message).toMatch(/^\s*DATABASE_URL:/m);
  });

  it.each([
    ["1", true],
    ["true", true],
    ["yes", true],
    ["0", false],
    ["false", false],
    ["no", false],
    ["", false],
    [undefined, false],
  ])("parses PORTCULLIS_NO_DEMO=%o as %s", (value, expected) => {
    const env = value === undefined ? {} : { PORTCULLIS_NO_DEMO: value };
    expect(loadConfig(env).noDemo).toBe(expected);
  });
  it("allows the PUBLIC_URL host and MCP_ALLOWED_HOSTS (trimmed, lower-case, once) on the MCP endpoints", () => {
    const c = loadConfig({ PUBLIC_URL: "https://Gateway.example.com/base", MCP_ALLOWED_HOSTS: " gateway.example.com, MCP.internal ,," });
    expect(c.mcpAllowedHosts).toEqual(["gateway.example.com", "mcp.internal"]);
  });
});

describe("loadConfig – the embedded authorization server", () => {
  it("is on when PUBLIC_URL is set and OAUTH_ISSUER is not; its issuer is PUBLIC_URL without a trailing slash", () => {
    expect(loadConfig({ PUBLIC_URL: "https://gw.example/" }).oauthServer).toEqual({ issuer: "https://gw.example", accessTokenTtlSeconds: 600, refreshTokenTtlSeconds: 2_592_000, clientUnusedTtlSeconds: 604_800, registrationsPerHour: 20 });
    expect(loadConfig({}).oauthServer).toBeNull();
    expect(loadConfig({ PUBLIC_URL: "https://gw.example", OAUTH_ISSUER: "https://idp.example" }).oauthServer).toBeNull();
    expect(loadConfig({ PUBLIC_URL: "https://gw.example", OAUTH_SERVER: "off" }).oauthServer).toBeNull();
  });
});
