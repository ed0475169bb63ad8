"use client";
// Admins only: how long a new agent session lasts unless asked otherwise, and the most anyone may ask for.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { LoadFailed, Loading } from "@/components/load-state";
import { notifyError, notifySuccess } from "@/components/notify";
import { buttonPrimary, card, hint, input, label } from "@/components/ui";
import { ZSessionSettings, type TSessionSettings } from "@/lib/policy-schemas";
import { getSessionSettings, sessionSettingsKey, updateSessionSettings } from "./queries";
import { describeLifetime } from "./session-draft";

export function SessionLifetimeCard() {
  const settings = useQuery({ queryKey: sessionSettingsKey, queryFn: ({ signal }) => getSessionSettings(signal) });
  return (
    <section aria-labelledby="session-lifetime-heading" className={`${card} p-5`}>
      <h2 id="session-lifetime-heading" className="text-base font-semibold text-slate-900">
        Session lifetime
      </h2>
      <p className="mt-1 text-sm text-slate-600">
        For every user: how long a new agent session lasts by default, and the longest anyone may ask for.
      </p>
      {settings.isPending ? (
        <Loading what="the lifetime settings" />
      ) : settings.isError ? (
        <LoadFailed what="the lifetime settings" error={settings.error} retry={settings.refetch} inCard />
      ) : (
        // Keyed by the saved values so the fields start over from what the server holds after a save.
        <LifetimeForm key={`${settings.data.defaultTtlSeconds}-${settings.data.maxTtlSeconds}`} saved={settings.data} />
      )}
    </section>
  );
}

const toMinutes = (seconds: number) => String(Math.round(seconds / 60));

function LifetimeForm({ saved }: { saved: TSessionSettings }) {
  const queryClient = useQueryClient();
  const [defaultMinutes, setDefaultMinutes] = useState(toMinutes(saved.defaultTtlSeconds));
  const [maxMinutes, setMaxMinutes] = useState(toMinutes(saved.maxTtlSeconds));
  const save = useMutation({
    mutationFn: updateSessionSettings,
    onSuccess: (res) => {
      queryClient.setQueryData(sessionSettingsKey, res);
      notifySuccess(
        "Session lifetime saved",
        `New sessions last ${describeLifetime(res.defaultTtlSeconds)} by default, at most ${describeLifetime(res.maxTtlSeconds)}.`,
      );
    },
    onError: (err) => notifyError(err, "Could not save the session lifetime"),
  });

  const whole = (text: string) => (/^\d+$/.test(text.trim()) ? Number(text) * 60 : Number.NaN);
  const parsed = ZSessionSettings.safeParse({
    defaultTtlSeconds: whole(defaultMinutes),
    maxTtlSeconds: whole(maxMinutes),
  });
  const problem = parsed.success
    ? null
    : parsed.error.issues.some((i) => i.code === "custom")
      ? "The default cannot be longer than the maximum."
      : "Enter whole minutes from 1 to 43200 (30 days).";
  const changed =
    defaultMinutes !== toMinutes(saved.defaultTtlSeconds) || maxMinutes !== toMinutes(saved.maxTtlSeconds);

  return (
    <form method="post"
      className="mt-4 grid gap-4 sm:grid-cols-[minmax(0,12rem)_minmax(0,12rem)_auto] sm:items-end"
      aria-label="Session lifetime settings"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        if (parsed.success) save.mutate(parsed.data);
      }}
    >
      <div>
        <label htmlFor="session-default-ttl" className={label}>
          Default (minutes)
        </label>
        <input
          id="session-default-ttl"
          type="number"
          min={1}
          step={1}
          value={defaultMinutes}
          onChange={(e) => setDefaultMinutes(e.target.value)}
          aria-invalid={problem ? true : undefined}
          aria-describedby="session-ttl-hint"
          className={`${input} mt-1`}
        />
      </div>
      <div>
        <label htmlFor="session-max-ttl" className={label}>
          Maximum (minutes)
        </label>
        <input
          id="session-max-ttl"
          type="number"
          min={1}
          step={1}
          value={maxMinutes}
          onChange={(e) => setMaxMinutes(e.target.value)}
          aria-invalid={problem ? true : undefined}
          aria-describedby="session-ttl-hint"
          className={`${input} mt-1`}
        />
      </div>
      <button type="submit" className={buttonPrimary} disabled={!changed || !parsed.success || save.isPending}>
        {save.isPending ? "Saving…" : "Save lifetime"}
      </button>
      <p id="session-ttl-hint" className={`${problem ? "text-sm text-red-700" : hint} sm:col-span-3 sm:-mt-2`}>
        {problem ??
          `Now ${describeLifetime(saved.defaultTtlSeconds)} by default, at most ${describeLifetime(saved.maxTtlSeconds)}. Sessions already issued keep their expiry.`}
      </p>
    </form>
  );
}
