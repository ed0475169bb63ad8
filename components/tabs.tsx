"use client";
// Tabs whose choice lives in the URL (`?tab=versions`), so a tab can be linked to and survives a reload.
// history.replaceState is enough: Next.js keeps useSearchParams in step without a server round trip.
// TabList is their row of buttons alone, for tabs that keep their choice elsewhere (components/agents/config-tabs.tsx).
import { usePathname, useSearchParams } from "next/navigation";
import { useId, useRef } from "react";

export type Tab = { id: string; label: React.ReactNode; panel: React.ReactNode };

/** The tab a key moves to in a tablist (arrows wrap around, Home and End), or undefined for other keys. */
function tabForKey<T extends { id: string }>(tabs: readonly T[], currentId: string | undefined, key: string): T | undefined {
  const i = tabs.findIndex((t) => t.id === currentId);
  const step = key === "ArrowRight" ? 1 : key === "ArrowLeft" ? -1 : 0;
  if (step) return tabs[(i + step + tabs.length) % tabs.length];
  if (key === "Home") return tabs[0];
  if (key === "End") return tabs.at(-1);
  return undefined;
}

/**
 * The row of tab buttons, for tabs that keep their choice anywhere: one tab stop (the current tab), arrows, Home
 * and End move and select, and each button names its panel `${baseId}-panel-${id}`. `dense` for a dialog.
 */
export function TabList<T extends { id: string; label: React.ReactNode }>({
  tabs,
  currentId,
  label,
  baseId,
  onSelect,
  dense = false,
}: {
  tabs: readonly T[];
  currentId: string | undefined;
  label: string;
  baseId: string;
  onSelect: (id: T["id"]) => void;
  dense?: boolean;
}) {
  const listRef = useRef<HTMLDivElement>(null);

  function select(id: T["id"], focus = false) {
    onSelect(id);
    if (focus) listRef.current?.querySelector<HTMLButtonElement>(`[data-tab="${id}"]`)?.focus();
  }

  function onKeyDown(e: React.KeyboardEvent) {
    const next = tabForKey(tabs, currentId, e.key);
    if (!next) return;
    e.preventDefault();
    select(next.id, true);
  }

  return (
    <div
      ref={listRef}
      role="tablist"
      aria-label={label}
      onKeyDown={onKeyDown}
      className="flex gap-1 overflow-x-auto border-b border-slate-200"
    >
      {tabs.map((t) => {
        const active = t.id === currentId;
        return (
          <button
            key={t.id}
            type="button"
            role="tab"
            id={`${baseId}-tab-${t.id}`}
            data-tab={t.id}
            aria-selected={active}
            aria-controls={`${baseId}-panel-${t.id}`}
            tabIndex={active ? 0 : -1}
            onClick={() => select(t.id)}
            className={`-mb-px shrink-0 border-b-2 px-3 text-sm font-medium whitespace-nowrap transition-colors focus-visible:outline-2 focus-visible:outline-offset-[-2px] focus-visible:outline-indigo-600 ${
              dense ? "py-2" : "inline-flex items-center gap-2 py-2.5"
            } ${
              active
                ? "border-indigo-600 text-indigo-700"
                : "border-transparent text-slate-600 hover:border-slate-300 hover:text-slate-900"
            }`}
          >
            {t.label}
          </button>
        );
      })}
    </div>
  );
}

export function Tabs({ tabs, label, param = "tab" }: { tabs: readonly Tab[]; label: string; param?: string }) {
  const pathname = usePathname();
  const search = useSearchParams();
  const baseId = useId();
  const requested = search.get(param);
  const current = tabs.find((t) => t.id === requested) ?? tabs[0];
  if (!current) return null;

  function select(id: string) {
    const q = new URLSearchParams(search.toString());
    if (id === tabs[0]?.id) q.delete(param);
    else q.set(param, id);
    const qs = q.toString();
    window.history.replaceState(null, "", `${pathname}${qs ? `?${qs}` : ""}`);
  }

  return (
    <div>
      <TabList tabs={tabs} currentId={current.id} label={label} baseId={baseId} onSelect={select} />
      <div
        role="tabpanel"
        id={`${baseId}-panel-${current.id}`}
        aria-labelledby={`${baseId}-tab-${current.id}`}
        className="pt-5"
      >
        {current.panel}
      </div>
    </div>
  );
}
