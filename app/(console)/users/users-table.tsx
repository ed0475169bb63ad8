"use client";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useDeferredValue, useState } from "react";
import { DataTable, Refreshing, TableCard, tableRow as t, type Column } from "@/components/data-table";
import { formatDateTime } from "@/components/format";
import { Loading, LoadFailed } from "@/components/load-state";
import { notifyError, notifySuccess } from "@/components/notify";
import { Pager } from "@/components/pager";
import { ROLE_LABEL } from "@/components/role-badge";
import { buttonDangerQuiet, buttonSecondary, input, selectCompact } from "@/components/ui";
import { useCursorPages } from "@/components/use-cursor-pages";
import { ROLES, type TRole } from "@/lib/roles";
import type { TUpdateUser, TUser } from "@/lib/schemas";
import { listUsers, updateUser, usersKey } from "./queries";
import { ResetPasswordButton } from "./reset-password-button";

const COLUMNS: Column[] = [
  { label: "User" },
  { label: "Role" },
  { label: "Last sign-in", className: "hidden md:table-cell" },
  { label: "Status" },
  { label: "Actions", srOnly: true, className: "text-right" },
];

export function UsersTable({ currentUserId }: { currentUserId: string }) {
  const pages = useCursorPages();
  const [search, setSearch] = useState("");
  // Typing re-queries as the text settles, not on every key.
  const settled = useDeferredValue(search.trim());
  const query = useQuery({
    queryKey: [...usersKey, { cursor: pages.cursor ?? null, q: settled }],
    queryFn: ({ signal }) => listUsers(pages.cursor, settled, signal),
    placeholderData: keepPreviousData,
  });

  const aside = (
    <div className="flex items-center gap-3">
      <Refreshing when={query.isFetching && !query.isPending} />
      <input
        type="search"
        value={search}
        onChange={(e) => {
          setSearch(e.target.value);
          pages.reset();
        }}
        placeholder="E-mail or name"
        aria-label="Find users"
        maxLength={254}
        className={`${input} w-48 py-1.5 sm:w-64`}
      />
    </div>
  );

  return (
    <TableCard id="users-heading" title="All users" aside={aside}>
      {query.isPending ? (
        <Loading what="users" />
      ) : query.isError ? (
        <LoadFailed what="users" error={query.error} retry={query.refetch} inCard />
      ) : (
        <>
          <DataTable columns={COLUMNS}>
            {query.data.items.map((u) => (
              <UserRow key={u.id} user={u} isMe={u.id === currentUserId} />
            ))}
          </DataTable>
          {query.data.items.length === 0 && settled && <p className="px-4 py-6 text-sm text-slate-500">No user&apos;s e-mail or name contains “{settled}”.</p>}
          <Pager pages={pages} nextCursor={query.data.nextCursor} busy={query.isFetching} label="Users pages" />
        </>
      )}
    </TableCard>
  );
}

function UserRow({ user, isMe }: { user: TUser; isMe: boolean }) {
  const queryClient = useQueryClient();
  const mutation = useMutation({
    mutationFn: (patch: TUpdateUser) => updateUser(user.id, patch),
    onSuccess: async (updated, patch) => {
      if (patch.role !== undefined) notifySuccess(`${updated.email} is now ${ROLE_LABEL[updated.role]}`);
      if (patch.disabled !== undefined) notifySuccess(`${updated.email} ${updated.disabled ? "is disabled and can no longer sign in" : "is enabled again"}`);
      await queryClient.invalidateQueries({ queryKey: usersKey });
    },
    onError: (err) => notifyError(err, `Could not update ${user.email}`),
  });
  // While a role change is in flight the select shows the new value; on failure it falls back to the server's.
  const shownRole = mutation.isPending && mutation.variables.role ? mutation.variables.role : user.role;

  return (
    <tr data-testid="user-row" data-email={user.email} className={`${t.tr} ${user.disabled ? "bg-slate-50" : ""}`}>
      <td className={`${t.cell} w-full min-w-0 sm:w-auto sm:max-w-[18rem]`}>
        <div className="flex min-w-0 items-center gap-2">
          <span className="truncate font-medium text-slate-900" title={user.email}>
            {user.email}
          </span>
          {isMe && <span className="shrink-0 rounded bg-slate-100 px-1.5 py-0.5 text-xs text-slate-600">you</span>}
        </div>
        {user.name && <div className="truncate text-slate-500">{user.name}</div>}
      </td>
      <td className={t.cell}>
        <select
          aria-label={`Role of ${user.email}`}
          value={shownRole}
          disabled={mutation.isPending}
          onChange={(e) => mutation.mutate({ role: e.target.value as TRole })}
          className={selectCompact}
        >
          {ROLES.map((r) => (
            <option key={r} value={r}>
              {ROLE_LABEL[r]}
            </option>
          ))}
        </select>
      </td>
      <td className={`${t.cellMd} whitespace-nowrap text-slate-600`}>{formatDateTime(user.lastLoginAt)}</td>
      <td className={t.cell}>
        {user.disabled ? (
          <span className="inline-flex rounded-md bg-slate-200 px-2 py-0.5 text-xs font-medium text-slate-700">Disabled</span>
        ) : (
          <span className="inline-flex rounded-md bg-emerald-50 px-2 py-0.5 text-xs font-medium text-emerald-700 ring-1 ring-emerald-600/20 ring-inset">
            Active
          </span>
        )}
      </td>
      <td className={`${t.cell} ml-auto sm:text-right`}>
        {!isMe && <ResetPasswordButton user={user} />}{" "}
        <button
          type="button"
          className={user.disabled ? buttonSecondary : buttonDangerQuiet}
          disabled={mutation.isPending || (isMe && !user.disabled)}
          title={isMe && !user.disabled ? "You cannot disable your own account." : undefined}
          onClick={() => mutation.mutate({ disabled: !user.disabled })}
          aria-label={`${user.disabled ? "Enable" : "Disable"} ${user.email}`}
        >
          {user.disabled ? "Enable" : "Disable"}
        </button>
      </td>
    </tr>
  );
}
