"use client";
// Definitions an upstream offered on its own, waiting for an admin: what changed (the version diff and a word
// diff of each changed description), the poisoning scanner's findings with their spans shown with invisible
// characters made visible, and approve / reject. High-severity findings need a written reason to approve.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { LoadFailed, Loading } from "@/components/load-state";
import { notifyError, notifySuccess } from "@/components/notify";
import { buttonDangerQuiet, buttonPrimary, buttonSecondary, card, hint, input, label } from "@/components/ui";
import type { TDefinitionReview } from "@/lib/review-schemas";
import type { TServer } from "@/lib/schemas";
import { showInvisible } from "@/lib/show-invisible";
import { decideReview, listReviews, rejectReview, reviewsKey, serversKey, toolsKey, type TDefinitionsDiff } from "./queries";
import { VersionDiff } from "./version-diff";

const SEVERITY_STYLE = {
  high: "bg-red-50 text-red-700 ring-red-600/20",
  medium: "bg-amber-50 text-amber-800 ring-amber-600/20",
  low: "bg-slate-50 text-slate-600 ring-slate-500/20",
} as const;

export function ServerReviews({ server }: { server: TServer }) {
  const query = useQuery({ queryKey: reviewsKey(server.slug), queryFn: ({ signal }) => listReviews(server.slug, signal) });
  if (query.isPending) return <Loading what="the reviews" />;
  if (query.isError) return <LoadFailed what="the reviews" error={query.error} retry={query.refetch} />;
  if (query.data.items.length === 0) {
    return (
      <p className={`${card} p-5 text-sm text-slate-600`} data-testid="no-reviews">
        Nothing waits for review: agents see the definitions you approved. When {server.name} offers changed definitions,
        they wait here and calls of the changed tools are refused until you decide.
      </p>
    );
  }
  return (
    <div className="space-y-4">
      {query.data.items.map((r) => (
        <ReviewCard key={r.id} server={server} review={r} />
      ))}
    </div>
  );
}

function ReviewCard({ server, review }: { server: TServer; review: TDefinitionReview }) {
  const qc = useQueryClient();
  const [reason, setReason] = useState("");
  const [asCanary, setAsCanary] = useState(false);
  const done = async (what: string, detail: string) => {
    notifySuccess(what, detail);
    await Promise.all([qc.invalidateQueries({ queryKey: serversKey }), qc.invalidateQueries({ queryKey: toolsKey })]);
  };
  const approve = useMutation({
    mutationFn: () => decideReview(server.slug, review.id, "approve", { ...(asCanary && { asCanary, canaryPercent: 10 }), ...(reason.trim() && { overrideReason: reason.trim() }) }),
    onSuccess: () => done(`Version ${review.version} approved`, asCanary ? "It serves 10% of sessions as the canary." : "Agents see it now."),
    onError: (err) => notifyError(err, "Could not approve"),
  });
  const reject = useMutation({
    mutationFn: () => rejectReview(server.slug, review.id, reason.trim() ? { reason: reason.trim() } : {}),
    onSuccess: () => done(`Version ${review.version} rejected`, "Calls of the changed tools stay refused until the server offers the approved definitions again."),
    onError: (err) => notifyError(err, "Could not reject"),
  });
  const busy = approve.isPending || reject.isPending;
  const needsReason = review.blocked && reason.trim().length < 3;
  return (
    <section className={`${card} p-5`} aria-label={`Review of version ${review.version}`} data-testid="definition-review" data-version={review.version}>
      <h3 className="text-base font-semibold text-slate-900">
        Version {review.version} <span className="font-normal text-slate-500">offered {new Date(review.createdAt).toLocaleString()}</span>
      </h3>
      <p className="mt-1 text-sm text-slate-600">
        Against the approved version {review.activeVersion ?? "(none yet)"}. Agents keep the approved definitions meanwhile.
      </p>
      <div className="mt-4">
        <VersionDiff diff={review.diff as TDefinitionsDiff | null} first={!review.activeVersion} />
      </div>
      {review.textDiffs.length > 0 && (
        <div className="mt-4 space-y-3" aria-label="Text changes">
          {review.textDiffs.map((d) => (
            <div key={d.where}>
              <p className="font-mono text-xs text-slate-500">{d.where}</p>
              <pre className="mt-1 rounded-md bg-slate-50 p-3 text-xs break-words whitespace-pre-wrap text-slate-800" data-testid="text-diff">
                {d.parts.map((p, i) =>
                  p.op === "same" ? (
                    <span key={i}>{showInvisible(p.text)}</span>
                  ) : p.op === "added" ? (
                    <ins key={i} className="bg-emerald-100 text-emerald-900 no-underline">{showInvisible(p.text)}</ins>
                  ) : (
                    <del key={i} className="bg-red-100 text-red-900">{showInvisible(p.text)}</del>
                  ),
                )}
              </pre>
            </div>
          ))}
        </div>
      )}
      <Findings findings={review.findings} />
      <div className="mt-5 space-y-3 border-t border-slate-100 pt-4">
        <div>
          <label className={label} htmlFor={`reason-${review.id}`}>
            {review.blocked ? "Why approve despite high-severity findings (required, audited)" : "Reason (optional, audited)"}
          </label>
          <textarea id={`reason-${review.id}`} className={`${input} mt-1`} rows={2} value={reason} onChange={(e) => setReason(e.target.value)} />
          {review.blocked && <p className={hint}>The scanner found text that looks like an attack; approving it needs a written reason.</p>}
        </div>
        <label className="flex items-center gap-2 text-sm text-slate-700">
          <input type="checkbox" checked={asCanary} onChange={(e) => setAsCanary(e.target.checked)} /> Serve it as a canary to 10% of sessions first
        </label>
        <div className="flex flex-wrap gap-2">
          <button type="button" className={review.blocked ? buttonSecondary : buttonPrimary} disabled={busy || needsReason} onClick={() => approve.mutate()}>
            {review.blocked ? "Override and approve" : "Approve"}
          </button>
          <button type="button" className={buttonDangerQuiet} disabled={busy} onClick={() => reject.mutate()}>
            Reject
          </button>
        </div>
      </div>
    </section>
  );
}

function Findings({ findings }: { findings: TDefinitionReview["findings"] }) {
  if (findings.length === 0) return <p className="mt-4 text-sm text-emerald-700">The poisoning scanner found nothing.</p>;
  const order = { high: 0, medium: 1, low: 2 } as const;
  return (
    <ul className="mt-4 divide-y divide-slate-100 rounded-md border border-slate-200" aria-label="Scanner findings">
      {[...findings]
        .sort((a, b) => order[a.severity] - order[b.severity])
        .map((f, i) => (
          <li key={`${f.rule}-${f.where}-${i}`} className="px-3 py-2 text-sm" data-testid="scanner-finding" data-severity={f.severity}>
            <div className="flex flex-wrap items-center gap-2">
              <span className={`rounded-md px-1.5 py-0.5 text-xs font-medium ring-1 ring-inset ${SEVERITY_STYLE[f.severity]}`}>{f.severity}</span>
              <code className="font-mono text-xs break-all text-slate-700">{f.where}</code>
              <span className="ml-auto text-xs text-slate-400">{f.rule}</span>
            </div>
            <p className="mt-1 text-slate-700">{f.message}</p>
            <pre className="mt-1 rounded bg-slate-50 px-2 py-1 text-xs break-words whitespace-pre-wrap text-slate-800">{f.span}</pre>
          </li>
        ))}
    </ul>
  );
}
