// The REST API over real HTTP: one `portcullis start` process on the run's PostgreSQL, seeded through the
// CLI with an ADMIN and a USER and a personal API token for each.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TApiToken, TUser } from "@/lib/schemas";
import { createTestDb, testDatabaseUrl, truncateAll } from "@/server/test/test-db";
import { apiRequest, type ApiErrorBody, type ApiResponse, type Me } from "@/scripts/test-support/api-request";
import { lastLine, runCli } from "@/scripts/test-support/run-cli";
import { signIn } from "@/scripts/test-support/sign-in";
import { startApp, stopAllApps, type AppProcess } from "@/scripts/test-support/start-app";
import { makeTempDir, removeTempDirs } from "@/scripts/test-support/temp-dir";

const ADMIN = { email: "admin@example.com", password: "admin-password-1" };
const USER = { email: "user@example.com" };

function expectError(res: ApiResponse, status: number, code: string) {
  expect({ status: res.status, code: (res.body as ApiErrorBody | undefined)?.error?.code }, res.text).toEqual({
    status,
    code,
  });
  expect((res.body as ApiErrorBody).error.message).toEqual(expect.any(String));
  expect(res.headers.get("content-type")).toContain("application/json");
}

describe("REST API /api/v1", () => {
  const db = createTestDb();
  let app: AppProcess;
  let base = "";
  let adminToken = "";
  let userToken = "";
  const spareUserTokens: string[] = [];
  let adminId = "";
  /** Request options that authenticate as the ADMIN (filled in once the token exists). */
  const asAdmin = { token: "" };
  let userId = "";

  beforeAll(async () => {
    await truncateAll(db);
    const env = { DATABASE_URL: testDatabaseUrl() };
    const cli = async (args: string[]) => {
      const res = await runCli(args, { env });
      if (res.code !== 0 || res.stderr)
        throw new Error(`portcullis ${args.join(" ")} failed (${res.code}):\n${res.stderr}`);
      return res.stdout;
    };
    // One command at a time: concurrent CLI runs contend for the migration lock (see the CLI tests).
    await cli(["user", "create", "--email", ADMIN.email, "--role", "ADMIN", "--password", ADMIN.password]);
    // With an admin in place (else it would make its own first admin), the server starts while the CLI seeds
    // the rest: it reads users and tokens from the database when asked.
    const starting = startApp({ env: { ...env, DATA_DIR: await makeTempDir("api") } });
    starting.catch(() => undefined);
    await cli(["user", "create", "--email", USER.email, "--role", "USER"]);
    adminToken = lastLine(await cli(["token", "create", "--email", ADMIN.email, "--name", "admin-cli"]));
    userToken = lastLine(await cli(["token", "create", "--email", USER.email, "--name", "user-cli"]));
    asAdmin.token = adminToken;
    adminId = (await db.user.findUniqueOrThrow({ where: { email: ADMIN.email } })).id;
    userId = (await db.user.findUniqueOrThrow({ where: { email: USER.email } })).id;

    app = await starting;
    base = app.baseUrl;
    for (const name of ["to-revoke", "to-expire"]) {
      const res = await apiRequest<{ token: string }>(base, "/api/v1/tokens", { token: userToken, body: { name } });
      if (res.status !== 201) throw new Error(`POST /api/v1/tokens answered ${res.status}: ${res.text}`);
      spareUserTokens.push(res.body.token);
    }
  });

  afterAll(async () => {
    await stopAllApps();
    await removeTempDirs();
    await db.$disconnect();
  });

  describe("authentication", () => {
    it("GET /api/v1/me – 401 unauthenticated with a WWW-Authenticate header when no credentials are sent", async () => {
      const res = await apiRequest(base, "/api/v1/me");
      expectError(res, 401, "unauthenticated");
      expect(res.headers.get("www-authenticate")).toMatch(/^Bearer\b/);
    });

    it("GET /api/v1/me – 200 for a personal API token, via api_token, without secrets", async () => {
      const res = await apiRequest<Me>(base, "/api/v1/me", { token: userToken });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        via: "api_token",
        user: { id: userId, email: USER.email, role: "USER", disabled: false },
      });
      expect(res.text).not.toContain("passwordHash");
    });

    it.each([
      ["a malformed token", "not-a-token"],
      ["a token with the pct_ prefix but the wrong length", "pct_short"],
      ["an agent session token (pcs_)", `pcs_${"a".repeat(32)}`],
      ["an unknown well-formed token", `pct_${"A".repeat(32)}`],
    ])("GET /api/v1/me – 401 invalid_token for %s", async (_what, token) => {
      const res = await apiRequest(base, "/api/v1/me", { token });
      expectError(res, 401, "invalid_token");
      expect(res.headers.get("www-authenticate")).toMatch(/^Bearer\b/);
    });

    it("GET /api/v1/me – 401 invalid_token for a revoked token", async () => {
      const token = spareUserTokens[0]!;
      expect((await apiRequest(base, "/api/v1/me", { token })).status).toBe(200);
      await db.apiToken.updateMany({ where: { name: "to-revoke" }, data: { revokedAt: new Date() } });
      const res = await apiRequest<ApiErrorBody>(base, "/api/v1/me", { token });
      expectError(res, 401, "invalid_token");
      expect(res.body.error.message).toMatch(/revoked/);
    });

    it("GET /api/v1/me – 401 invalid_token for an expired token", async () => {
      const token = spareUserTokens[1]!;
      expect((await apiRequest(base, "/api/v1/me", { token })).status).toBe(200);
      await db.apiToken.updateMany({
        where: { name: "to-expire" },
        data: { expiresAt: new Date(Date.now() - 60_000) },
      });
      const res = await apiRequest<ApiErrorBody>(base, "/api/v1/me", { token });
      expectError(res, 401, "invalid_token");
      expect(res.body.error.message).toMatch(/expired/);
    });

    it("GET /api/v1/me – 401 invalid_token for `Authorization: Basic …`", async () => {
      const basic = Buffer.from(`${ADMIN.email}:${ADMIN.password}`).toString("base64");
      const res = await apiRequest(base, "/api/v1/me", { headers: { authorization: `Basic ${basic}` } });
      expectError(res, 401, "invalid_token");
    });

    it("GET /api/v1/me – 401 invalid_token for `Authorization: Bearer` without a token", async () => {
      const res = await apiRequest(base, "/api/v1/me", { headers: { authorization: "Bearer" } });
      expectError(res, 401, "invalid_token");
    });
  });

  describe("roles", () => {
    it("GET /api/v1/users – 403 forbidden for a USER", async () => {
      expectError(await apiRequest(base, "/api/v1/users", { token: userToken }), 403, "forbidden");
    });

    it("POST /api/v1/users – 403 forbidden for a USER, and nobody is created", async () => {
      const res = await apiRequest(base, "/api/v1/users", {
        token: userToken,
        body: { email: "sneaky@example.com", role: "ADMIN" },
      });
      expectError(res, 403, "forbidden");
      expect(await db.user.findUnique({ where: { email: "sneaky@example.com" } })).toBeNull();
    });

    it("GET /api/v1/users/{id} – 403 forbidden for a USER", async () => {
      expectError(await apiRequest(base, `/api/v1/users/${adminId}`, { token: userToken }), 403, "forbidden");
    });

    it("PATCH /api/v1/users/{id} – 403 forbidden for a USER promoting themselves", async () => {
      const res = await apiRequest(base, `/api/v1/users/${userId}`, {
        method: "PATCH",
        token: userToken,
        body: { role: "ADMIN" },
      });
      expectError(res, 403, "forbidden");
      expect((await db.user.findUniqueOrThrow({ where: { id: userId } })).role).toBe("USER");
    });

    it("GET /api/v1/users – 200 lists users for an ADMIN", async () => {
      const res = await apiRequest<{ items: TUser[]; nextCursor: string | null }>(base, "/api/v1/users", asAdmin);
      expect(res.status).toBe(200);
      expect(res.body.items.map((u) => u.email)).toEqual([ADMIN.email, USER.email]);
      expect(res.body.nextCursor).toBeNull();
      expect(res.text).not.toContain("passwordHash");
    });

    it("GET /api/v1/users?limit=0 – 422 validation_failed naming limit", async () => {
      const res = await apiRequest<ApiErrorBody>(base, "/api/v1/users?limit=0", asAdmin);
      expectError(res, 422, "validation_failed");
      expect(res.body.error.details?.map((d) => d.path)).toContain("limit");
    });
  });

  describe("POST /api/v1/users", () => {
    it("POST /api/v1/users – 400 invalid_json for a body of `{bad`", async () => {
      expectError(await apiRequest(base, "/api/v1/users", { ...asAdmin, body: "{bad" }), 400, "invalid_json");
    });

    it("POST /api/v1/users – 400 invalid_json for an empty body", async () => {
      const res = await apiRequest(base, "/api/v1/users", {
        ...asAdmin,
        method: "POST",
        headers: { "content-type": "application/json" },
      });
      expectError(res, 400, "invalid_json");
    });

    it("POST /api/v1/users – 422 validation_failed naming email when it is missing", async () => {
      const res = await apiRequest<ApiErrorBody>(base, "/api/v1/users", { ...asAdmin, body: { role: "USER" } });
      expectError(res, 422, "validation_failed");
      const emailIssue = res.body.error.details?.find((d) => d.path === "email");
      expect(emailIssue?.message).toEqual(expect.any(String));
    });

    it("POST /api/v1/users – 422 validation_failed naming email when it is not an e-mail address", async () => {
      const res = await apiRequest<ApiErrorBody>(base, "/api/v1/users", {
        ...asAdmin,
        body: { email: "not-an-email" },
      });
      expectError(res, 422, "validation_failed");
      expect(res.body.error.details).toEqual([{ path: "email", message: "must be an e-mail address" }]);
    });

    it("POST /api/v1/users – 422 validation_failed naming an unknown key", async () => {
      const res = await apiRequest<ApiErrorBody>(base, "/api/v1/users", {
        ...asAdmin,
        body: { email: "new@example.com", isAdmin: true },
      });
      expectError(res, 422, "validation_failed");
      expect(JSON.stringify(res.body.error.details)).toContain("isAdmin");
      expect(await db.user.findUnique({ where: { email: "new@example.com" } })).toBeNull();
    });

    it("POST /api/v1/users – 422 validation_failed for an unknown role", async () => {
      const res = await apiRequest<ApiErrorBody>(base, "/api/v1/users", {
        ...asAdmin,
        body: { email: "new@example.com", role: "ROOT" },
      });
      expectError(res, 422, "validation_failed");
      expect(res.body.error.details?.map((d) => d.path)).toEqual(["role"]);
    });

    it("POST /api/v1/users – 409 conflict for a duplicate e-mail (any case)", async () => {
      const res = await apiRequest(base, "/api/v1/users", { ...asAdmin, body: { email: "USER@Example.com" } });
      expectError(res, 409, "conflict");
      expect(await db.user.count({ where: { email: USER.email } })).toBe(1);
    });

    it("POST /api/v1/users – 201 creates a user and returns a generated password once", async () => {
      const res = await apiRequest<{ user: TUser; generatedPassword?: string }>(base, "/api/v1/users", {
        ...asAdmin,
        body: { email: "  New.Person@Example.com ", name: "New Person", role: "USER" },
      });
      expect(res.status).toBe(201);
      expect(res.body.user).toMatchObject({
        email: "new.person@example.com",
        name: "New Person",
        role: "USER",
        disabled: false,
        lastLoginAt: null,
      });
      expect(res.body.generatedPassword).toMatch(/^\S{16,}$/);
      expect(res.text).not.toContain("passwordHash");
      const session = await signIn(base, "new.person@example.com", res.body.generatedPassword!);
      expect(session.ok).toBe(true);
    });

    it("POST /api/v1/users – 201 with a given password returns none", async () => {
      const res = await apiRequest<{ user: TUser; generatedPassword?: string }>(base, "/api/v1/users", {
        ...asAdmin,
        body: { email: "given@example.com", role: "APPROVER", password: "given-password-1" },
      });
      expect(res.status).toBe(201);
      expect(res.body.user.role).toBe("APPROVER");
      expect(res.body).not.toHaveProperty("generatedPassword");
    });
  });

  describe("PATCH /api/v1/users/{id}", () => {
    it("PATCH /api/v1/users/{id} – 200 changes the role, and GET /api/v1/users/{id} shows it", async () => {
      const target = await db.user.findUniqueOrThrow({ where: { email: "new.person@example.com" } });
      const res = await apiRequest<TUser>(base, `/api/v1/users/${target.id}`, {
        ...asAdmin,
        method: "PATCH",
        body: { role: "APPROVER" },
      });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id: target.id, role: "APPROVER" });
      const got = await apiRequest<TUser>(base, `/api/v1/users/${target.id}`, asAdmin);
      expect(got.status).toBe(200);
      expect(got.body).toMatchObject({ id: target.id, email: "new.person@example.com", role: "APPROVER" });
    });

    it("PATCH /api/v1/users/{id} – 409 conflict demoting the last admin", async () => {
      expect(await db.user.count({ where: { role: "ADMIN" } })).toBe(1);
      const res = await apiRequest(base, `/api/v1/users/${adminId}`, {
        ...asAdmin,
        method: "PATCH",
        body: { role: "USER" },
      });
      expectError(res, 409, "conflict");
      const got = await apiRequest<TUser>(base, `/api/v1/users/${adminId}`, asAdmin);
      expect(got.body.role).toBe("ADMIN");
    });

    it("PATCH /api/v1/users/{id} – 422 validation_failed for an empty patch", async () => {
      const res = await apiRequest(base, `/api/v1/users/${userId}`, { ...asAdmin, method: "PATCH", body: {} });
      expectError(res, 422, "validation_failed");
    });

    it("PATCH /api/v1/users/{id} – 404 not_found for an unknown id", async () => {
      const res = await apiRequest(base, "/api/v1/users/does-not-exist", {
        ...asAdmin,
        method: "PATCH",
        body: { role: "USER" },
      });
      expectError(res, 404, "not_found");
    });
  });

  describe("unknown routes and the OpenAPI document", () => {
    it("GET /api/v1/does-not-exist – 404 not_found as JSON", async () => {
      expectError(await apiRequest(base, "/api/v1/does-not-exist"), 404, "not_found");
    });

    it("POST /api/v1/nope – 404 not_found as JSON", async () => {
      expectError(await apiRequest(base, "/api/v1/nope", { body: { a: 1 } }), 404, "not_found");
    });

    it("GET /api/v1/users/{id} – 404 not_found for an unknown id", async () => {
      expectError(await apiRequest(base, "/api/v1/users/cl0000000000000000000000", asAdmin), 404, "not_found");
    });

    it("GET /api/v1/openapi.json – an OpenAPI 3.1.0 document with the users paths", async () => {
      const res = await apiRequest<{ openapi: string; paths: Record<string, Record<string, unknown>> }>(
        base,
        "/api/v1/openapi.json",
      );
      expect(res.status).toBe(200);
      expect(res.body.openapi).toBe("3.1.0");
      expect(Object.keys(res.body.paths["/api/v1/users"] ?? {}).sort()).toEqual(["get", "post"]);
      expect(Object.keys(res.body.paths["/api/v1/users/{id}"] ?? {}).sort()).toEqual(["get", "patch"]);
    });
  });

  describe("personal API tokens", () => {
    let minted: { token: string; apiToken: TApiToken };

    it("POST /api/v1/tokens – 201 mints a token that authenticates GET /api/v1/me", async () => {
      const res = await apiRequest<typeof minted>(base, "/api/v1/tokens", {
        ...asAdmin,
        body: { name: "ci", expiresInDays: 30 },
      });
      expect(res.status).toBe(201);
      minted = res.body;
      expect(minted.token).toMatch(/^pct_[A-Za-z0-9_-]{32}$/);
      expect(minted.apiToken).toMatchObject({ name: "ci", prefix: minted.token.slice(0, 10), revokedAt: null });
      expect(minted.apiToken.expiresAt).toEqual(expect.any(String));
      const me = await apiRequest<Me>(base, "/api/v1/me", { token: minted.token });
      expect(me.status).toBe(200);
      expect(me.body).toMatchObject({ via: "api_token", user: { email: ADMIN.email } });
    });

    it("POST /api/v1/tokens – 422 validation_failed for an unknown key", async () => {
      expectError(
        await apiRequest(base, "/api/v1/tokens", { ...asAdmin, body: { name: "x", scope: "all" } }),
        422,
        "validation_failed",
      );
    });

    it("GET /api/v1/tokens – lists only the caller's tokens, never the secret", async () => {
      const res = await apiRequest<{ items: TApiToken[] }>(base, "/api/v1/tokens", { token: userToken });
      expect(res.status).toBe(200);
      expect(res.body.items.map((t) => t.name).sort()).toEqual(["to-expire", "to-revoke", "user-cli"]);
      expect(res.text).not.toMatch(/pct_[A-Za-z0-9_-]{32}/);
      expect(res.text).not.toContain("tokenHash");
    });

    it("DELETE /api/v1/tokens/{id} – 403 forbidden when a USER revokes the admin's token", async () => {
      const res = await apiRequest(base, `/api/v1/tokens/${minted.apiToken.id}`, {
        method: "DELETE",
        token: userToken,
      });
      expectError(res, 403, "forbidden");
      expect((await apiRequest(base, "/api/v1/me", { token: minted.token })).status).toBe(200);
    });

    it("DELETE /api/v1/tokens/{id} – revokes the token; its next use is 401 invalid_token", async () => {
      const res = await apiRequest<TApiToken>(base, `/api/v1/tokens/${minted.apiToken.id}`, {
        method: "DELETE",
        token: minted.token,
      });
      expect(res.status).toBe(200);
      expect(res.body.id).toBe(minted.apiToken.id);
      expect(res.body.revokedAt).toEqual(expect.any(String));
      expectError(await apiRequest(base, "/api/v1/me", { token: minted.token }), 401, "invalid_token");
      expect((await apiRequest(base, "/api/v1/me", asAdmin)).status).toBe(200);
    });

    it("DELETE /api/v1/tokens/{id} – 404 not_found for an unknown id", async () => {
      expectError(
        await apiRequest(base, "/api/v1/tokens/nothing-here", { method: "DELETE", ...asAdmin }),
        404,
        "not_found",
      );
    });
  });

  describe("request ids", () => {
    it.each([
      ["GET /api/v1/me (200)", "/api/v1/me", { token: "admin" }],
      ["GET /api/v1/me (401)", "/api/v1/me", {}],
      ["GET /api/v1/users (403)", "/api/v1/users", { token: "user" }],
      ["POST /api/v1/users (400)", "/api/v1/users", { token: "admin", body: "{bad" }],
      ["GET /api/v1/does-not-exist (404)", "/api/v1/does-not-exist", {}],
      ["GET /api/v1/openapi.json (200)", "/api/v1/openapi.json", {}],
      ["GET /api/health (200)", "/api/health", {}],
    ] as const)("%s – carries an x-request-id header", async (_title, path, opts) => {
      const token = "token" in opts ? (opts.token === "admin" ? adminToken : userToken) : undefined;
      const res = await apiRequest(base, path, { ...(token && { token }), ...("body" in opts && { body: opts.body }) });
      expect(res.headers.get("x-request-id")).toMatch(/^[\w-]{8,}$/);
    });

    it("GET /api/v1/me – echoes the caller's x-request-id", async () => {
      const res = await apiRequest(base, "/api/v1/me", { ...asAdmin, headers: { "x-request-id": "trace-1234abcd" } });
      expect(res.headers.get("x-request-id")).toBe("trace-1234abcd");
    });
  });
});
