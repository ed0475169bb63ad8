// GET /oauth/upstream/callback – an upstream's authorization server returns here (Portcullis's redirect URI);
// finished for the signed-in user who started it, then back to the Connections page with the outcome.
import { NextResponse, type NextRequest } from "next/server";
import { getSessionUser } from "@/app/_lib/auth";
import { getGateway } from "@/app/_lib/gateway";
import { requestIdOf } from "@/app/_lib/api";
import { isGatewayError } from "@/server/errors";

export const dynamic = "force-dynamic";

export async function GET(req: NextRequest): Promise<Response> {
  const gateway = getGateway();
  const base = gateway.config.publicUrl.replace(/\/+$/, "");
  const user = await getSessionUser();
  // Not signed in (another browser, an expired session): sign in and come back with the same parameters.
  if (!user) return NextResponse.redirect(`${base}/signin?callbackUrl=${encodeURIComponent(req.nextUrl.pathname + req.nextUrl.search)}`);
  const q = req.nextUrl.searchParams;
  const requestId = requestIdOf(req);
  const ctx = { actor: { type: "user" as const, userId: user.id, email: user.email, role: user.role }, requestId, via: "session" as const };
  try {
    const done = await gateway.upstreamAuth().callback(ctx, user.id, { state: q.get("state"), code: q.get("code"), iss: q.get("iss"), error: q.get("error") });
    return NextResponse.redirect(`${base}/connections?connected=${encodeURIComponent(done.serverSlug)}`);
  } catch (err) {
    if (!isGatewayError(err)) gateway.logger.error({ err, requestId }, "finishing an upstream authorization failed");
    const code = isGatewayError(err) ? err.code : "internal";
    const slug = (err as { serverSlug?: unknown }).serverSlug;
    return NextResponse.redirect(`${base}/connections?error=${code}${typeof slug === "string" ? `&server=${encodeURIComponent(slug)}` : ""}`);
  }
}
