"use client";
// The grants in force: one list per role, then one per user who holds grants of their own.
import { useQuery } from "@tanstack/react-query";
import { Refreshing, TableCard } from "@/components/data-table";
import { Loading, LoadFailed } from "@/components/load-state";
import { ROLE_LABEL } from "@/components/role-badge";
import { Tag } from "@/components/tools/tier-badge";
import { buttonDangerQuiet } from "@/components/ui";
import type { TGrant } from "@/lib/policy-schemas";
import { ROLES } from "@/lib/roles";
import { describeHolder } from "./describe";
import { useDeleteGrant } from "./policy-mutations";
import { grantsKey, listGrants } from "./queries";

type Group = { key: string; title: string; grants: TGrant[] };

function groupGrants(grants: readonly TGrant[]): Group[] {
  const roles: Group[] = ROLES.map((r) => ({
    key: `role:${r}`,
    title: `${ROLE_LABEL[r]} role`,
    grants: grants.filter((g) => g.role === r),
  }));
  const byUser = new Map<string, Group>();
  for (const g of grants) {
    if (!g.userId) continue;
    const group = byUser.get(g.userId) ?? { key: `user:${g.userId}`, title: g.userEmail ?? g.userId, grants: [] };
    group.grants.push(g);
    byUser.set(g.userId, group);
  }
  return [...roles, ...[...byUser.values()].sort((a, b) => a.title.localeCompare(b.title))];
}

export function GrantsList() {
  const query = useQuery({ queryKey: grantsKey, queryFn: ({ signal }) => listGrants(signal) });
  return (
    <TableCard
      id="grants-heading"
      title="Grants in force"
      aside={<Refreshing when={query.isFetching && !query.isPending} />}
    >
      {query.isPending ? (
        <Loading what="grants" />
      ) : query.isError ? (
        <LoadFailed what="the grants" error={query.error} retry={query.refetch} inCard />
      ) : (
        <div className="divide-y divide-slate-200">
          {groupGrants(query.data.items).map((group) => (
            <GrantGroup key={group.key} group={group} />
          ))}
          {!query.data.items.some((g) => g.userId) && (
            <p className="px-4 py-3 text-sm text-slate-500">
              No user holds grants of their own; each has only their role&apos;s.
            </p>
          )}
        </div>
      )}
    </TableCard>
  );
}

function GrantGroup({ group }: { group: Group }) {
  const headingId = `grants-${group.key.replace(/[^a-zA-Z0-9-]/g, "-")}`;
  return (
    <section aria-labelledby={headingId} className="px-4 py-3" data-testid="grant-group" data-holder={group.key}>
      <h3 id={headingId} className="text-sm font-semibold break-all text-slate-900">
        {group.title} <span className="font-normal text-slate-500">({group.grants.length})</span>
      </h3>
      {group.grants.length === 0 ? (
        <p className="mt-1 text-sm text-slate-500">No grants for this role.</p>
      ) : (
        <ul className="mt-2 space-y-1.5" aria-label={`Grants of ${group.title}`}>
          {group.grants.map((g) => (
            <GrantItem key={g.id} grant={g} />
          ))}
        </ul>
      )}
    </section>
  );
}

function GrantItem({ grant }: { grant: TGrant }) {
  const mutation = useDeleteGrant();
  return (
    <li className="flex flex-wrap items-center justify-between gap-2" data-testid="grant" data-pattern={grant.pattern}>
      <span className="flex min-w-0 flex-wrap items-center gap-2">
        <Tag tone={grant.kind === "tool" ? "indigo" : "emerald"}>{grant.kind === "tool" ? "Tools" : "Paths"}</Tag>
        <code className="font-mono text-sm break-all text-slate-900">{grant.pattern}</code>
      </span>
      <button
        type="button"
        className={`${buttonDangerQuiet} px-2.5 py-1`}
        disabled={mutation.isPending}
        onClick={() => mutation.mutate(grant)}
        aria-label={`Delete grant ${grant.pattern} of ${describeHolder(grant)}`}
      >
        {mutation.isPending ? "Deleting…" : "Delete"}
      </button>
    </li>
  );
}
