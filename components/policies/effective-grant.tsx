"use client";
// What one user may put into an agent session: the tool and path patterns they hold (and whether through
// their role or their own grant), and the tools that matches today.
import { useQuery } from "@tanstack/react-query";
import { useId, useState } from "react";
import { Loading, LoadFailed } from "@/components/load-state";
import { RoleBadge } from "@/components/role-badge";
import { card, label, select } from "@/components/ui";
import type { TEffectiveGrant } from "@/lib/policy-schemas";
import { describeSource } from "./describe";
import { effectiveGrantKey, getEffectiveGrant } from "./queries";
import { useUsers } from "./use-users";

export function EffectiveGrant() {
  const id = useId();
  const users = useUsers();
  const [userId, setUserId] = useState("");
  return (
    <section aria-labelledby={`${id}-heading`} className={`${card} min-w-0 p-5`}>
      <h2 id={`${id}-heading`} className="text-base font-semibold text-slate-900">
        Effective access
      </h2>
      <p className="mt-1 text-sm text-slate-600">Everything a user holds through their role and their own grants.</p>
      <div className="mt-4 sm:w-1/2">
        <label htmlFor={`${id}-user`} className={label}>
          Show the access of
        </label>
        <select
          id={`${id}-user`}
          value={userId}
          onChange={(e) => setUserId(e.target.value)}
          disabled={users.isPending}
          className={`${select} mt-1`}
        >
          <option value="">{users.isPending ? "Loading users…" : "Choose a user"}</option>
          {users.data?.items.map((u) => (
            <option key={u.id} value={u.id}>
              {u.email}
            </option>
          ))}
        </select>
        {users.isError && <p className="mt-1 text-xs text-red-700">Could not load the users: {users.error.message}</p>}
      </div>
      {userId && <EffectiveGrantOf userId={userId} />}
    </section>
  );
}

function EffectiveGrantOf({ userId }: { userId: string }) {
  const query = useQuery({
    queryKey: effectiveGrantKey(userId),
    queryFn: ({ signal }) => getEffectiveGrant(userId, signal),
  });
  if (query.isPending) return <Loading what="the user's access" />;
  if (query.isError) return <LoadFailed what="the user's access" error={query.error} retry={query.refetch} inCard />;
  return <EffectiveGrantView grant={query.data} />;
}

function EffectiveGrantView({ grant }: { grant: TEffectiveGrant }) {
  return (
    <div className="mt-5 space-y-5" data-testid="effective-grant">
      <p className="flex items-center gap-2 text-sm text-slate-700">
        Role <RoleBadge role={grant.role} />
      </p>
      <div className="grid gap-5 md:grid-cols-2">
        <PatternList title="Tool patterns" items={grant.tools} />
        <PatternList title="Path patterns" items={grant.paths} />
      </div>
      <div>
        <h3 className="text-sm font-semibold text-slate-900">Callable tools ({grant.callableTools.length})</h3>
        {grant.callableTools.length === 0 ? (
          <p className="mt-1 text-sm text-slate-500">None: no enabled tool matches what this user holds.</p>
        ) : (
          <ul className="mt-2 flex flex-wrap gap-1.5" aria-label="Callable tools">
            {grant.callableTools.map((t) => (
              <li key={t} className="rounded bg-slate-100 px-1.5 py-0.5 font-mono text-xs break-all text-slate-800">
                {t}
              </li>
            ))}
          </ul>
        )}
      </div>
    </div>
  );
}

function PatternList({ title, items }: { title: string; items: TEffectiveGrant["tools"] }) {
  return (
    <div className="min-w-0">
      <h3 className="text-sm font-semibold text-slate-900">{title}</h3>
      {items.length === 0 ? (
        <p className="mt-1 text-sm text-slate-500">None.</p>
      ) : (
        <ul className="mt-2 space-y-1" aria-label={title}>
          {items.map((p) => (
            <li
              key={`${p.pattern}-${p.from}`}
              className="flex flex-wrap items-baseline justify-between gap-x-3 text-sm"
            >
              <code className="font-mono break-all text-slate-900">{p.pattern}</code>
              <span className="text-xs text-slate-500">{describeSource(p.from)}</span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
