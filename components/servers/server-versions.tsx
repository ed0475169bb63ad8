"use client";
import { useQuery } from "@tanstack/react-query";
import { formatDateTime } from "@/components/format";
import { buttonSecondary, card } from "@/components/ui";
import type { TServer } from "@/lib/schemas";
import { listVersions, versionsKey, type TServerVersion } from "./queries";
import { useUpdateServer } from "./server-mutations";
import { VersionDiff } from "./version-diff";
import { notifySuccess } from "@/components/notify";

export function ServerVersions({ server }: { server: TServer }) {
  const query = useQuery({
    queryKey: versionsKey(server.slug),
    queryFn: ({ signal }) => listVersions(server.slug, signal),
  });
  const mutation = useUpdateServer(server);

  if (query.isPending) {
    return (
      <p className="py-6 text-center text-sm text-slate-500" role="status">
        Loading versions…
      </p>
    );
  }
  if (query.isError) {
    return (
      <div className="py-6 text-center text-sm" role="alert">
        <p className="text-red-700">Could not load the versions: {query.error.message}</p>
        <button type="button" className={`${buttonSecondary} mt-3`} onClick={() => void query.refetch()}>
          Try again
        </button>
      </div>
    );
  }
  const items = query.data.items;
  if (items.length === 0) {
    return (
      <p className="py-6 text-center text-sm text-slate-500">
        No versions yet: a version is recorded the first time the server connects.
      </p>
    );
  }
  const activeIndex = items.findIndex((v) => v.active);
  const canRollBack = !server.canaryVersion && activeIndex >= 0 && activeIndex < items.length - 1;
  const oldest = items.at(-1)?.id;

  return (
    <div className="space-y-4">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <p className="text-sm text-slate-600">
          A new version is recorded whenever the server&apos;s tools, resources or prompts change, or it is launched
          differently. Newest first.
        </p>
        {canRollBack && (
          <button
            type="button"
            className={`${buttonSecondary} shrink-0`}
            disabled={mutation.isPending}
            onClick={() =>
              mutation.mutate({
                patch: { action: "rollback" },
                done: (res) =>
                  notifySuccess(`${server.name} rolled back`, `v${res.server.activeVersion ?? "?"} is active again.`),
              })
            }
          >
            {mutation.isPending ? "Rolling back…" : "Roll back to the previous version"}
          </button>
        )}
      </div>
      <ol className="space-y-3" aria-label="Versions">
        {items.map((v) => (
          <VersionCard key={v.id} version={v} first={v.id === oldest} />
        ))}
      </ol>
    </div>
  );
}

function VersionCard({ version: v, first }: { version: TServerVersion; first: boolean }) {
  return (
    <li className={`${card} p-4`} data-testid="version" data-version={v.version}>
      <div className="flex flex-wrap items-center gap-2">
        <h3 className="font-mono text-base font-semibold text-slate-900">v{v.version}</h3>
        {v.active && (
          <span className="rounded-md bg-emerald-50 px-2 py-0.5 text-xs font-medium text-emerald-700 ring-1 ring-emerald-600/20 ring-inset">
            Active
          </span>
        )}
        {v.canary && (
          <span className="rounded-md bg-amber-50 px-2 py-0.5 text-xs font-medium text-amber-800 ring-1 ring-amber-600/20 ring-inset">
            Canary
          </span>
        )}
        {v.diff?.breaking && (
          <span className="rounded-md bg-red-600 px-2 py-0.5 text-xs font-semibold text-white">Breaking changes</span>
        )}
        <span className="ml-auto text-xs text-slate-500">
          <time dateTime={v.createdAt}>{formatDateTime(v.createdAt)}</time>
          <span className="hidden sm:inline">
            {" · "}
            <span className="font-mono" title={`Content hash ${v.contentHash}`}>
              {v.contentHash.slice(0, 12)}
            </span>
          </span>
        </span>
      </div>
      <div className="mt-3">
        <VersionDiff diff={v.diff} first={first} />
      </div>
    </li>
  );
}
