"use client";
// The consent page: who asks (name, logo, where it sends you back, whether its identity is verified), and what
// it may use: tools and paths picked from what the user holds (the "Connect an agent" pickers), and a lifetime.
// Allow creates an agent session for the client; the browser then returns to the application.
import { useQuery } from "@tanstack/react-query";
import { useId, useState } from "react";
import { apiFetch, isApiError } from "@/components/api-client";
import { buttonPrimary, buttonSecondary, card, hint, input, label } from "@/components/ui";
import { checkDraft, type SessionDraft } from "@/components/agents/session-draft";
import { getMyGrant, getSessionSettings, grantKey, sessionSettingsKey } from "@/components/agents/queries";
import { PathQuickPicks } from "@/components/agents/path-quick-picks";
import { ToolPicker } from "@/components/agents/tool-picker";
import type { TConsentDecision } from "@/lib/oauth-schemas";
import type { ConsentRequest } from "@/server/oauth/as/consent-request";

export function ConsentView({ request }: { request: ConsentRequest }) {
  const id = useId();
  const grant = useQuery({ queryKey: grantKey, queryFn: ({ signal }) => getMyGrant(signal) });
  const settings = useQuery({ queryKey: sessionSettingsKey, queryFn: ({ signal }) => getSessionSettings(signal) });
  // The agent's name is the client's (oauth:<client_id>, set by the server); the draft needs one to check.
  const [draft, setDraft] = useState<SessionDraft>({ agentId: "oauth-client", picked: [], patterns: [], paths: "", minutes: "", callbackUrl: "" });
  const [problem, setProblem] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const { body, errors } = checkDraft(draft, settings.data?.maxTtlSeconds);

  async function decide(decision: "allow" | "deny") {
    setProblem(null);
    if (decision === "allow" && !body) return setProblem(errors.tools ?? errors.paths ?? errors.minutes ?? "Check the form.");
    const payload: TConsentDecision =
      decision === "deny" ? { decision, csrfToken: request.csrfToken } : { decision, tools: body!.tools, paths: body!.paths, ...(body!.ttlSeconds !== undefined && { ttlSeconds: body!.ttlSeconds }), csrfToken: request.csrfToken };
    setPending(true);
    try {
      const res = await apiFetch<{ redirectTo: string }>(`/api/v1/oauth/consent/${encodeURIComponent(request.uid)}`, { method: "POST", body: payload });
      window.location.assign(res.redirectTo);
    } catch (err) {
      setPending(false);
      setProblem(isApiError(err) ? err.message : String(err));
    }
  }

  return (
    <div className="mx-auto max-w-2xl space-y-5 p-6">
      <div className={`${card} flex items-center gap-4 p-4`}>
        {request.logoUri && <img src={request.logoUri} alt="" width={48} height={48} className="rounded" referrerPolicy="no-referrer" />}
        <div>
          <h1 className="text-lg font-semibold text-slate-900">{request.clientName} asks to use Portcullis as you</h1>
          <p className="text-sm text-slate-600">
            It will send you back to <code className="font-mono">{request.redirectHost}</code>.{" "}
            {request.verified ? "Its identity is verified by its metadata document." : "Its name and logo are self-declared (not verified)."}
          </p>
          {virtualServerOf(request.resource) && (
            <p className="mt-1 text-sm text-slate-600" data-testid="consent-virtual-server">
              It asks for the virtual server <code className="font-mono">{virtualServerOf(request.resource)}</code> only: it will see that server&rsquo;s
              tools, of those you allow below.
            </p>
          )}
        </div>
      </div>
      <ToolPicker
        grant={grant.data}
        picked={draft.picked}
        patterns={draft.patterns}
        onPickedChange={(picked) => setDraft((d) => ({ ...d, picked }))}
        onPatternsChange={(patterns) => setDraft((d) => ({ ...d, patterns }))}
        error={errors.tools}
        errorId={`${id}-tools-error`}
      />
      <div>
        <label htmlFor={`${id}-paths`} className={label}>
          Allowed paths <span className="font-normal text-slate-500">(optional)</span>
        </label>
        <textarea id={`${id}-paths`} value={draft.paths} onChange={(e) => setDraft((d) => ({ ...d, paths: e.target.value }))} rows={3} spellCheck={false} className={`${input} mt-1 font-mono`} />
        <PathQuickPicks held={[...new Set((grant.data?.paths ?? []).map((p) => p.pattern))]} paths={draft.paths} onChange={(paths) => setDraft((d) => ({ ...d, paths }))} />
      </div>
      <div className="sm:w-1/2">
        <label htmlFor={`${id}-minutes`} className={label}>
          Lifetime (minutes)
        </label>
        <input id={`${id}-minutes`} type="number" min={1} value={draft.minutes} onChange={(e) => setDraft((d) => ({ ...d, minutes: e.target.value }))} className={`${input} mt-1`} />
        <p className={hint}>Empty: the default lifetime. The application loses access after that, or when you revoke it on the Agents page.</p>
      </div>
      {problem && (
        <p role="alert" className="text-sm text-red-700">
          {problem}
        </p>
      )}
      <div className="flex gap-3">
        <button type="button" className={buttonPrimary} disabled={pending} onClick={() => void decide("allow")}>
          Allow
        </button>
        <button type="button" className={buttonSecondary} disabled={pending} onClick={() => void decide("deny")}>
          Deny
        </button>
      </div>
    </div>
  );
}

/** The virtual server a resource indicator (`…/mcp/v/<name>`) names, if it names one. */
function virtualServerOf(resource: string | null): string | null {
  if (!resource) return null;
  try {
    const name = /^\/mcp\/v\/([^/]+)$/.exec(new URL(resource).pathname)?.[1];
    return name === undefined ? null : decodeURIComponent(name);
  } catch {
    return null;
  }
}
