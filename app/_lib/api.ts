// Route handlers are thin: authenticate, check the role, parse input with a lib/schemas contract, call
// server/, and map every error to `{ error: { code, message } }` with its status in one place.
import { randomUUID } from "node:crypto";
import { NextResponse, type NextRequest } from "next/server";
import { z } from "zod";
import { MAX_JSON_DEPTH, nestsDeeperThan } from "@/lib/json-depth";
import { hasRole, type TRole } from "@/lib/roles";
import type { RequestContext } from "@/server/context";
import type { User } from "@/server/db/client";
import { findUnstorableText } from "@/server/db/unstorable-text";
import { GatewayError, isGatewayError, type ErrorCode } from "@/server/errors";
import { getSessionUser } from "./auth";
import { getGateway } from "./gateway";

export type ApiContext<P> = { user: User; ctx: RequestContext; params: P; req: NextRequest };
type RouteArgs<P> = { params: Promise<P> };

/** For route handlers outside apiRoute: the caller's request id, or a new one. */
export function requestIdOf(req: Request): string {
  return req.headers.get("x-request-id") ?? randomUUID();
}

export function errorResponse(code: ErrorCode, message: string, details?: unknown, headers?: HeadersInit): NextResponse {
  const status = new GatewayError(code, message).status;
  return NextResponse.json({ error: { code, message, ...(details === undefined ? {} : { details }) } }, { status, headers });
}

function clientIp(req: NextRequest): string | undefined {
  return req.headers.get("x-forwarded-for")?.split(",")[0]?.trim() || undefined;
}

async function authenticate(req: NextRequest): Promise<{ user: User; via: "session" | "api_token" }> {
  const header = req.headers.get("authorization");
  if (header) {
    const [scheme, token] = header.split(/\s+/, 2);
    if (scheme?.toLowerCase() !== "bearer" || !token) {
      throw new GatewayError("invalid_token", "The Authorization header must be `Bearer <token>`.");
    }
    return { user: await getGateway().tokens.authenticate(token), via: "api_token" };
  }
  const user = await getSessionUser();
  if (!user) throw new GatewayError("unauthenticated", "Sign in, or send a personal API token as `Authorization: Bearer pct_…`.");
  return { user, via: "session" };
}

export function toErrorResponse(err: unknown, requestId: string): NextResponse {
  if (isGatewayError(err)) {
    const headers: Record<string, string> = {};
    if (err.retryAfterSeconds) headers["retry-after"] = String(err.retryAfterSeconds);
    if (err.status === 401) headers["www-authenticate"] = 'Bearer realm="portcullis"';
    return errorResponse(err.code, err.message, err.details, headers);
  }
  if (err instanceof z.ZodError) {
    return errorResponse("validation_failed", "The request does not match the schema.", issuesOf(err));
  }
  // A row another request removed while this one ran (a server deleted during its update): gone, not a fault.
  if ((err as { code?: unknown }).code === "P2025") return errorResponse("not_found", "It was removed while this request ran.");
  getGateway().logger.error({ err, requestId }, "unhandled error in route handler");
  return errorResponse("internal", `Internal error (request ${requestId}).`);
}

function issuesOf(err: z.ZodError) {
  // A custom check's own code (lib/server-summary.ts: summary_too_long, …) says which rule the field broke.
  return err.issues.map((i) => {
    const code = i.code === "custom" ? (i.params as { code?: unknown } | undefined)?.code : undefined;
    return { path: i.path.join("."), message: i.message, ...(typeof code === "string" && { code }) };
  });
}

/** Wraps a handler with authentication, a minimum role and error mapping. Plain values become 200 JSON. */
export function apiRoute<P = Record<string, never>>(
  minRole: TRole,
  handler: (a: ApiContext<P>) => Promise<unknown>,
): (req: NextRequest, args: RouteArgs<P>) => Promise<Response> {
  return async (req, args) => {
    const requestId = req.headers.get("x-request-id") ?? randomUUID();
    try {
      const { user, via } = await authenticate(req);
      if (!hasRole(user.role, minRole)) throw new GatewayError("forbidden", `This needs the ${minRole} role; you are ${user.role}.`);
      const ctx: RequestContext = {
        actor: { type: "user", userId: user.id, email: user.email, role: user.role },
        requestId,
        ip: clientIp(req),
        via,
      };
      const out = await handler({ user, ctx, params: await args.params, req });
      const res = out instanceof Response ? out : NextResponse.json(out);
      res.headers.set("x-request-id", requestId);
      return res;
    } catch (err) {
      const res = toErrorResponse(err, requestId);
      res.headers.set("x-request-id", requestId);
      return res;
    }
  };
}

/** Parses a JSON body against a schema: `invalid_json` (400) for unreadable bodies, `validation_failed` (422). */
export async function readJson<T extends z.ZodType>(req: NextRequest, schema: T): Promise<z.output<T>> {
  const text = await req.text();
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new GatewayError("invalid_json", text.trim() ? "The request body is not valid JSON." : "The request body is empty; send JSON.");
  }
  if (nestsDeeperThan(raw)) throw new GatewayError("invalid_json", `The request body nests deeper than ${MAX_JSON_DEPTH} levels.`);
  refuseUnstorable(raw);
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw new GatewayError("validation_failed", "The request does not match the schema.", issuesOf(parsed.error));
  return parsed.data;
}

/** Text PostgreSQL cannot store (NUL, lone surrogates) is refused here, not found by a failing write (a 500). */
function refuseUnstorable(raw: unknown) {
  const at = findUnstorableText(raw);
  if (at === null) return;
  const issue = { path: at.slice(1).split("/").join("."), message: "contains a NUL character or a lone surrogate, which cannot be stored", code: "unstorable_text" };
  throw new GatewayError("validation_failed", "The body contains a NUL character or a lone surrogate.", [issue]);
}

export function readQuery<T extends z.ZodType>(req: NextRequest, schema: T): z.output<T> {
  const parsed = schema.safeParse(Object.fromEntries(req.nextUrl.searchParams));
  if (!parsed.success) throw new GatewayError("validation_failed", "The query string does not match the schema.", issuesOf(parsed.error));
  return parsed.data;
}
