"use client";
// A canary runs a second version of a server (new launch settings) for a share of sessions. A session's
// bucket is stable, so raising the share moves more sessions over without bouncing any back and forth.
import { useQuery } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { toast } from "sonner";
import { notifySuccess } from "@/components/notify";
import { buttonDangerQuiet, buttonPrimary, card, hint, input, label } from "@/components/ui";
import type { TServer } from "@/lib/schemas";
import { FormProblems, LaunchFields, readLaunch } from "./launch-fields";
import { PackageUpgrade } from "./package-card";
import { listVersions, versionsKey } from "./queries";
import { useUpdateServer } from "./server-mutations";
import { VersionDiff } from "./version-diff";

export function CanaryPanel({ server }: { server: TServer }) {
  if (server.canaryVersion) return <RunningCanary key={server.canaryVersion} server={server} />;
  // A package server's new version is a new release of its package, started by the upgrade action.
  if (server.package)
    return (
      <section aria-labelledby="start-canary-heading" className={`${card} p-5`}>
        <h3 id="start-canary-heading" className="text-base font-semibold text-slate-900">
          Upgrade as a canary
        </h3>
        <p className="mt-1 text-sm text-slate-600">
          A newer release of the package installs beside v{server.activeVersion ?? "—"} and runs as a canary for a share
          of sessions, with its tool changes shown here; then promote it or roll it back.
        </p>
        <PackageUpgrade server={server} />
      </section>
    );
  return <StartCanary server={server} />;
}

function RunningCanary({ server }: { server: TServer }) {
  const mutation = useUpdateServer(server);
  const versions = useQuery({
    queryKey: versionsKey(server.slug),
    queryFn: ({ signal }) => listVersions(server.slug, signal),
  });
  const canary = versions.data?.items.find((v) => v.canary);
  const [share, setShare] = useState(server.canaryPercent);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  // Dragging the slider fires many changes; only where it comes to rest is saved.
  function onShare(value: number) {
    setShare(value);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      mutation.mutate({
        patch: { canaryPercent: value },
        done: (res) =>
          notifySuccess(
            `Canary share set to ${res.server.canaryPercent}%`,
            `v${server.canaryVersion} now serves ${res.server.canaryPercent}% of sessions.`,
          ),
      });
    }, 450);
  }

  return (
    <div className="space-y-4">
      <section aria-labelledby="canary-heading" className={`${card} p-5`}>
        <div className="flex flex-wrap items-center gap-2">
          <h3 id="canary-heading" className="text-base font-semibold text-slate-900">
            Canary <span className="font-mono">v{server.canaryVersion}</span>
          </h3>
          <span className="rounded-md bg-amber-50 px-2 py-0.5 text-xs font-medium text-amber-800 ring-1 ring-amber-600/20 ring-inset">
            Running
          </span>
        </div>
        <p className="mt-1 text-sm text-slate-600">
          <span data-testid="canary-share">{share}%</span> of sessions use the canary; the rest stay on v
          {server.activeVersion ?? "—"}. Promote it when it behaves, or roll it back.
        </p>
        <div className="mt-4">
          <label htmlFor="canary-share" className={label}>
            Share of sessions on the canary
          </label>
          <div className="mt-2 flex items-center gap-4">
            <input
              id="canary-share"
              type="range"
              min={0}
              max={100}
              step={1}
              value={share}
              onChange={(e) => onShare(Number(e.target.value))}
              className="h-2 w-full max-w-md cursor-pointer accent-amber-600"
              aria-valuetext={`${share}%`}
            />
            <output htmlFor="canary-share" className="w-12 text-right font-mono text-sm text-slate-900 tabular-nums">
              {share}%
            </output>
          </div>
        </div>
        <div className="mt-5 flex flex-wrap gap-2">
          <button
            type="button"
            className={buttonPrimary}
            disabled={mutation.isPending}
            onClick={() =>
              mutation.mutate({
                patch: { action: "promote" },
                done: (res) =>
                  notifySuccess(`v${res.server.activeVersion ?? "?"} promoted`, "Every session now uses it."),
              })
            }
          >
            Promote v{server.canaryVersion}
          </button>
          <button
            type="button"
            className={buttonDangerQuiet}
            disabled={mutation.isPending}
            onClick={() =>
              mutation.mutate({
                patch: { action: "rollback" },
                done: (res) =>
                  notifySuccess("Canary rolled back", `Every session uses v${res.server.activeVersion ?? "?"} again.`),
              })
            }
          >
            Roll back canary
          </button>
        </div>
      </section>
      <section aria-labelledby="canary-diff-heading" className={`${card} p-5`}>
        <h3 id="canary-diff-heading" className="text-base font-semibold text-slate-900">
          What the canary changes
        </h3>
        <div className="mt-3">
          {versions.isPending ? (
            <p className="text-sm text-slate-500">Loading…</p>
          ) : canary ? (
            <VersionDiff diff={canary.diff} first={false} />
          ) : (
            <p className="text-sm text-slate-500">The canary&apos;s version is not in the list.</p>
          )}
        </div>
      </section>
    </div>
  );
}

function StartCanary({ server }: { server: TServer }) {
  const mutation = useUpdateServer(server);
  const [share, setShare] = useState(10);
  const [problems, setProblems] = useState<string[]>([]);

  function onSubmit(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const { launch, errors } = readLaunch(new FormData(e.currentTarget), server.transport, {
      keepSecrets: true,
      hadCwd: server.cwd !== null,
    });
    setProblems(errors);
    if (errors.length > 0) return;
    mutation.mutate({
      patch: { ...launch, asCanary: true, canaryPercent: share },
      done: (res) => {
        if (res.server.canaryVersion)
          notifySuccess(
            `Canary v${res.server.canaryVersion} started`,
            `It serves ${res.server.canaryPercent}% of sessions.`,
          );
        else
          toast.error("The canary could not start", {
            description: "It did not connect with these settings; nothing changed for agents.",
          });
      },
    });
  }

  const secrets = server.transport === "stdio" ? server.envKeys : server.headerKeys;
  return (
    <section aria-labelledby="start-canary-heading" className={`${card} p-5`}>
      <h3 id="start-canary-heading" className="text-base font-semibold text-slate-900">
        Start a canary
      </h3>
      <p className="mt-1 text-sm text-slate-600">
        Launch the server with new settings (say, a new release) as a canary version. A share of sessions uses it while
        the rest stay on v{server.activeVersion ?? "—"}; then promote it or roll it back.
      </p>
      <form method="post" onSubmit={onSubmit} className="mt-4 space-y-4" aria-label="Start a canary">
        <LaunchFields
          transport={server.transport}
          idPrefix="canary"
          defaults={{ command: server.command, args: server.args, cwd: server.cwd, url: server.url }}
          keptSecrets={secrets}
        />
        <div>
          <label htmlFor="canary-start-share" className={label}>
            Share of sessions on the canary
          </label>
          <div className="mt-2 flex max-w-md items-center gap-3">
            <input
              id="canary-start-share"
              type="range"
              min={0}
              max={100}
              value={share}
              onChange={(e) => setShare(Number(e.target.value))}
              className="h-2 w-full cursor-pointer accent-amber-600"
              aria-valuetext={`${share}%`}
            />
            <input
              type="number"
              min={0}
              max={100}
              value={share}
              onChange={(e) => setShare(Math.max(0, Math.min(100, Number(e.target.value) || 0)))}
              aria-label="Share in percent"
              className={`${input} w-20`}
            />
          </div>
          <p className={hint}>Start small: 0% starts it without sending any sessions to it yet.</p>
        </div>
        <FormProblems problems={problems} />
        <button type="submit" className={buttonPrimary} disabled={mutation.isPending}>
          {mutation.isPending ? "Starting the canary…" : "Start canary"}
        </button>
      </form>
    </section>
  );
}
