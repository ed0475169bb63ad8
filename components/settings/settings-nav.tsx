"use client";
// The Settings page's own navigation: each section has an anchor (/settings#tokens), listed beside the sections
// on a desktop and as a select on a phone. The section in the URL's hash is marked current.
import { useEffect, useSyncExternalStore } from "react";
import { label, select } from "@/components/ui";

export type SettingsSection = { id: string; label: string };

const subscribe = (onChange: () => void) => {
  window.addEventListener("hashchange", onChange);
  return () => window.removeEventListener("hashchange", onChange);
};

export function SettingsNav({ sections }: { sections: readonly SettingsSection[] }) {
  const hash = useSyncExternalStore(
    subscribe,
    () => window.location.hash.slice(1),
    () => "",
  );
  const current = sections.some((s) => s.id === hash) ? hash : sections[0]?.id;
  useFollowTarget(hash);
  return (
    <>
      <nav
        aria-label="Settings sections"
        className="hidden lg:sticky lg:top-24 lg:block lg:self-start"
        data-testid="settings-nav"
      >
        <ul className="space-y-1 border-l border-slate-200">
          {sections.map((s) => (
            <li key={s.id}>
              <a
                href={`#${s.id}`}
                aria-current={s.id === current ? "location" : undefined}
                className={`-ml-px block border-l-2 py-1.5 pl-4 text-sm ${
                  s.id === current
                    ? "border-indigo-600 font-medium text-indigo-700"
                    : "border-transparent text-slate-600 hover:border-slate-400 hover:text-slate-900"
                }`}
              >
                {s.label}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <div className="mb-6 lg:hidden">
        <label htmlFor="settings-section" className={label}>
          Section
        </label>
        <select
          id="settings-section"
          value={current}
          onChange={(e) => {
            window.location.hash = e.target.value;
          }}
          className={`${select} mt-1`}
          data-testid="settings-section-select"
        >
          {sections.map((s) => (
            <option key={s.id} value={s.id}>
              {s.label}
            </option>
          ))}
        </select>
      </div>
    </>
  );
}

/**
 * The sections above the one in the hash load their lists after the jump and push it down (or it could not be
 * scrolled to while the page was still short): keep it at the top as the page grows, until the reader scrolls.
 */
function useFollowTarget(id: string) {
  useEffect(() => {
    const target = id ? document.getElementById(id) : null;
    if (!target) return;
    const follow = new ResizeObserver(() => target.scrollIntoView({ block: "start" }));
    const stop = () => follow.disconnect();
    const events = ["wheel", "touchstart", "keydown", "mousedown"] as const;
    for (const e of events) window.addEventListener(e, stop, { passive: true, once: true });
    follow.observe(document.body);
    return () => {
      stop();
      for (const e of events) window.removeEventListener(e, stop);
    };
  }, [id]);
}
