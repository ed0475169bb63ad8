"use client";
// A package server's package on its page: what was asked for (name, range), what is installed (exact version,
// lockfile integrity, when), and the upgrade: the range resolved again shows current → latest, and on confirm
// the new version installs beside the current one and starts as a canary with its tool diff (Canary tab).
import { useMutation, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { CopyButton } from "@/components/copy-button";
import { formatDateTime } from "@/components/format";
import { notifyError, notifySuccess } from "@/components/notify";
import { buttonPrimary, buttonSecondary, card } from "@/components/ui";
import type { TServer } from "@/lib/schemas";
import { shortIntegrity } from "./format";
import { getPackageLatest, serverHref, serverKey, serversKey, upgradePackage, versionsKey } from "./queries";

type Package = NonNullable<TServer["package"]>;
const REGISTRY: Record<Package["ecosystem"], string> = { npm: "npm", pypi: "PyPI" };

export function PackageCard({ server }: { server: TServer }) {
  const pkg = server.package;
  if (!pkg) return null;
  return (
    <section aria-labelledby="package-heading" className={`${card} mt-4 p-5`} data-testid="package-card">
      <h2 id="package-heading" className="text-base font-semibold text-slate-900">
        {REGISTRY[pkg.ecosystem]} package
      </h2>
      <dl className="mt-3 grid grid-cols-2 gap-x-6 gap-y-4 text-sm sm:grid-cols-[repeat(auto-fill,minmax(11rem,1fr))]">
        <div className="col-span-full min-w-0">
          <dt className="text-slate-500">Package</dt>
          <dd className="mt-1 font-mono text-xs break-all text-slate-900" data-testid="package-name">
            {pkg.name}
          </dd>
        </div>
        <div>
          <dt className="text-slate-500">Range</dt>
          <dd className="mt-1 font-mono text-xs text-slate-900" data-testid="package-range">
            {pkg.range}
          </dd>
        </div>
        <div>
          <dt className="text-slate-500">Installed version</dt>
          <dd className="mt-1 font-mono text-xs text-slate-900" data-testid="package-version">
            {pkg.version ?? "Not installed yet"}
          </dd>
        </div>
        <div>
          <dt className="text-slate-500">Installed</dt>
          <dd className="mt-1 text-slate-900">{pkg.installedAt ? formatDateTime(pkg.installedAt) : "—"}</dd>
        </div>
        <div className="col-span-full min-w-0">
          <dt className="text-slate-500">Integrity</dt>
          <dd className="mt-1 flex flex-wrap items-center gap-2">
            {pkg.integrity ? (
              <>
                <code
                  className="font-mono text-xs text-slate-900"
                  title={pkg.integrity}
                  data-testid="package-integrity"
                >
                  {shortIntegrity(pkg.integrity)}
                </code>
                <CopyButton text={pkg.integrity} what="Integrity hash" />
              </>
            ) : (
              <span className="text-slate-500">—</span>
            )}
          </dd>
        </div>
      </dl>
      <PackageUpgrade server={server} />
    </section>
  );
}

export function PackageUpgrade({ server }: { server: TServer }) {
  const qc = useQueryClient();
  const check = useMutation({
    mutationFn: () => getPackageLatest(server.slug),
    onError: (err) => notifyError(err, "Could not check for updates"),
  });
  const upgrade = useMutation({
    mutationFn: (version: string) => upgradePackage(server.slug, { version }),
    onSuccess: async (res) => {
      notifySuccess(
        `Upgrading ${server.name} to ${res.to}`,
        "It installs beside the current version and starts as a canary; its tool changes show under Canary.",
      );
      check.reset();
      await Promise.all([
        qc.invalidateQueries({ queryKey: serverKey(server.slug) }),
        qc.invalidateQueries({ queryKey: versionsKey(server.slug) }),
        qc.invalidateQueries({ queryKey: serversKey }),
      ]);
    },
    onError: (err) => notifyError(err, `Could not upgrade ${server.name}`),
  });
  const found = check.data;
  const newer = found && found.latest !== found.current;
  return (
    <div className="mt-4 border-t border-slate-100 pt-4" data-testid="package-upgrade">
      {server.canaryVersion ? (
        <p className="text-sm text-slate-600">
          A canary (v{server.canaryVersion}) is running:{" "}
          <Link href={serverHref(server.slug, "canary")} className="font-medium text-indigo-700 underline">
            promote or roll it back
          </Link>{" "}
          before the next upgrade.
        </p>
      ) : !found ? (
        <button type="button" className={buttonSecondary} disabled={check.isPending} onClick={() => check.mutate()}>
          {check.isPending ? "Checking…" : "Check for updates"}
        </button>
      ) : (
        <div className="flex flex-wrap items-center gap-3">
          <p role="status" className="text-sm text-slate-700" data-testid="package-latest">
            {newer ? (
              <>
                <span className="font-mono">{found.current ?? "not installed"}</span> →{" "}
                <span className="font-mono font-semibold">{found.latest}</span>{" "}
                <span className="text-slate-500">(newest in {found.range})</span>
              </>
            ) : (
              <>
                Up to date: <span className="font-mono">{found.latest}</span>{" "}
                <span className="text-slate-500">is the newest in {found.range}</span>
              </>
            )}
          </p>
          {newer ? (
            <button
              type="button"
              className={buttonPrimary}
              disabled={upgrade.isPending}
              onClick={() => upgrade.mutate(found.latest)}
            >
              {upgrade.isPending ? "Starting the upgrade…" : `Upgrade to ${found.latest}`}
            </button>
          ) : (
            <button type="button" className={buttonSecondary} onClick={() => check.reset()}>
              OK
            </button>
          )}
        </div>
      )}
    </div>
  );
}
