// The OpenAPI document (/api/v1/openapi.json) is generated from lib/api-contract.ts, not from the routes: this
// test holds the routes to it, so the document cannot drift from what they serve and accept. Each route module
// under app/api is imported as Next.js would load it, with the route helpers recording instead of acting (no
// authentication, no gateway behind them), and every exported handler is run once:
//   - every exported method is an operation of the contract with the same path, and every operation has one;
//   - the minimum role the handler is wrapped with is the operation's role;
//   - the body is parsed with the contract's own schema object (and only where the contract has a body);
//   - the query string is parsed with a schema whose fields are the parameters the contract documents.
import { readdirSync } from "node:fs";
import path from "node:path";
import { NextRequest } from "next/server";
import { describe, expect, it, vi } from "vitest";
import type { z } from "zod";
import { OPERATIONS, type Operation } from "@/lib/api-contract";

type Seen = { role?: string; body?: z.ZodType; query?: z.ZodType };

const rec = vi.hoisted(() => {
  const STOP = new Error("stop: the route has parsed its input");
  // The gateway as a route sees it: any member, any call, never a value; `await` yields it back.
  const absorb: object = new Proxy(function absorbing() {}, {
    get: (_t, key) => (key === "then" ? undefined : absorb),
    apply: () => absorb,
  });
  return { STOP, absorb, seen: undefined as Seen | undefined };
});

vi.mock("@/app/_lib/gateway", () => ({ getGateway: () => rec.absorb }));

vi.mock("@/app/_lib/api", async (importOriginal) => {
  const real = await importOriginal<typeof import("@/app/_lib/api")>();
  type Handler = (a: { user: unknown; ctx: unknown; params: unknown; req: NextRequest }) => Promise<unknown>;
  return {
    ...real,
    apiRoute: (minRole: string, handler: Handler) => async (req: NextRequest, args: { params: Promise<unknown> }) => {
      rec.seen!.role = minRole;
      const ctx = { actor: { type: "user", userId: "u1", email: "a@example.com", role: "ADMIN" }, requestId: "r1", via: "api_token" };
      return handler({ user: { id: "u1", role: "ADMIN" }, ctx, params: await args.params, req });
    },
    readJson: (_req: NextRequest, schema: z.ZodType) => {
      rec.seen!.body = schema;
      throw rec.STOP;
    },
    readQuery: (_req: NextRequest, schema: z.ZodType) => {
      rec.seen!.query = schema;
      throw rec.STOP;
    },
  };
});

const apiDir = path.resolve(import.meta.dirname);
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
/** Route files that are not operations of the API: the document itself, the JSON 404 for unknown paths, NextAuth's own. */
const NOT_OPERATIONS = new Set(["/api/v1/openapi.json", "/api/v1/{...rest}", "/api/auth/{...nextauth}"]);

function routeFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? routeFiles(p) : e.name === "route.ts" ? [p] : [];
  });
}

/** app/api/v1/tools/[name]/call/route.ts → /api/v1/tools/{name}/call */
const apiPath = (file: string) => `/api/${path.relative(apiDir, path.dirname(file)).split(path.sep).join("/")}`.replace(/\[([^\]]+)\]/g, "{$1}");

type Route = { path: string; method: (typeof METHODS)[number]; handler: (req: NextRequest, args: { params: Promise<unknown> }) => Promise<unknown> };

async function loadRoutes(): Promise<Route[]> {
  const routes: Route[] = [];
  for (const file of routeFiles(apiDir)) {
    const p = apiPath(file);
    if (NOT_OPERATIONS.has(p)) continue;
    const mod = (await import(file)) as Record<string, unknown>;
    for (const method of METHODS) if (typeof mod[method] === "function") routes.push({ path: p, method, handler: mod[method] as Route["handler"] });
  }
  return routes;
}

/** Runs a handler once with placeholder path parameters and an already-aborted request; what it parsed, and with which role. */
async function observe(route: Route): Promise<Seen> {
  const seen: Seen = {};
  rec.seen = seen;
  const params: Record<string, string> = Object.fromEntries([...route.path.matchAll(/\{(\w+)\}/g)].map((m) => [m[1]!, "x"]));
  const req = new NextRequest(`http://localhost${route.path.replace(/\{(\w+)\}/g, "x")}`, { method: route.method, signal: AbortSignal.abort() });
  try {
    await route.handler(req, { params: Promise.resolve(params) });
  } catch (err) {
    // Anything but STOP is the route's own use of a placeholder gateway: what it parsed is recorded already.
    if (err !== rec.STOP && !(err instanceof Error)) throw err;
  } finally {
    rec.seen = undefined;
  }
  return seen;
}

const key = (method: string, p: string) => `${method.toUpperCase()} ${p}`;
const shapeKeys = (schema: z.ZodType | undefined) => Object.keys((schema as unknown as { shape?: Record<string, unknown> } | undefined)?.shape ?? {}).sort();

describe("route handlers against lib/api-contract.ts", async () => {
  const routes = await loadRoutes();
  const byKey = new Map(OPERATIONS.map((op) => [key(op.method, op.path), op] as const));

  it("finds the route files (the check is not empty)", () => {
    expect(routes.length).toBeGreaterThan(50);
  });

  it("has an operation in the contract for every route handler, and a route handler for every operation", () => {
    const served = routes.map((r) => key(r.method, r.path)).sort();
    expect(served).toEqual([...byKey.keys()].sort());
  });

  it.each(OPERATIONS.map((op) => [key(op.method, op.path), op] as const))("%s: role, body and query as the contract says", async (label, op: Operation) => {
    const route = routes.find((r) => key(r.method, r.path) === label);
    expect(route, `no route handler for ${label}`).toBeDefined();
    const seen = await observe(route!);
    expect(seen.role ?? null, "minimum role").toBe(op.role);
    expect(seen.body, "body schema").toBe(op.body);
    if (seen.query || op.query) expect(shapeKeys(seen.query), "query parameters").toEqual(Object.keys(op.query ?? {}).sort());
  });
});
