import { requirePageUser } from "@/app/_lib/auth";
import { getGateway } from "@/app/_lib/gateway";
import { ConsentView } from "@/components/oauth/consent-view";
import { isGatewayError } from "@/server/errors";

export const metadata = { title: "Authorize an application" };

// An OAuth client asks for access (the embedded authorization server sent the browser here); signed out, the
// user signs in and comes back. The decision is posted to /api/v1/oauth/consent/{uid}.
export default async function AuthorizePage({ params }: { params: Promise<{ uid: string }> }) {
  const { uid } = await params;
  const user = await requirePageUser("USER", `/authorize/${encodeURIComponent(uid)}`);
  const oauth = getGateway().oauthServer;
  const request = oauth
    ? await oauth.consent.load(uid, user).catch((err: unknown) => {
        if (isGatewayError(err) && err.code === "interaction_expired") return null;
        throw err;
      })
    : null;
  if (!request) {
    return (
      <div className="mx-auto max-w-xl p-6">
        <h1 className="text-lg font-semibold text-slate-900">This authorization request has expired</h1>
        <p className="mt-2 text-sm text-slate-600">Go back to the application and connect again.</p>
      </div>
    );
  }
  return <ConsentView request={request} />;
}
