"use client";
// The members being edited: each one's upstream, the name agents will see (renamable for tools and prompts) and
// an optional description that replaces the upstream's. Both are scanned for poisoning when saved.
import { buttonSecondary, input } from "@/components/ui";
import { memberKey, type MemberDraft } from "./member-draft";

export function MemberList({ members, onChange }: { members: readonly MemberDraft[]; onChange: (next: MemberDraft[]) => void }) {
  if (!members.length) return <p className="text-sm text-slate-500">No members yet: add tools, prompts or resources below.</p>;
  const set = (i: number, patch: Partial<MemberDraft>) => onChange(members.map((m, j) => (j === i ? { ...m, ...patch } : m)));
  return (
    <ul className="space-y-3" aria-label="Members">
      {members.map((m, i) => (
        <li key={memberKey(m)} className="rounded-md border border-slate-200 p-3" data-testid="vs-member" data-member={memberKey(m)}>
          <div className="flex items-start justify-between gap-2">
            <div className="min-w-0 text-sm">
              <span className="mr-2 rounded bg-slate-100 px-1.5 py-0.5 text-xs text-slate-700 uppercase">{m.kind}</span>
              <span className="font-mono break-all text-slate-900">
                {m.server} · {m.name}
              </span>
            </div>
            <button type="button" className={buttonSecondary} onClick={() => onChange(members.filter((_, j) => j !== i))} aria-label={`Remove ${m.kind} ${m.server} ${m.name}`}>
              Remove
            </button>
          </div>
          <div className="mt-2 grid gap-2 sm:grid-cols-2">
            {m.kind !== "resource" && (
              <input
                className={`${input} font-mono`}
                value={m.exposedName}
                onChange={(e) => set(i, { exposedName: e.target.value })}
                placeholder={`Served as ${m.name}`}
                aria-label={`New name for ${m.name}`}
                maxLength={128}
                spellCheck={false}
                data-testid="vs-member-rename"
              />
            )}
            <textarea
              className={`${input} min-h-9 ${m.kind === "resource" ? "sm:col-span-2" : ""}`}
              value={m.description}
              onChange={(e) => set(i, { description: e.target.value })}
              placeholder="Keep the upstream's description"
              aria-label={`Description of ${m.name}`}
              maxLength={4000}
              rows={1}
              data-testid="vs-member-description"
            />
          </div>
        </li>
      ))}
    </ul>
  );
}
