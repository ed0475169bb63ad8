"use client";
// The client configurations as tabs. Local state, not the URL (unlike components/tabs.tsx): they live in a
// dialog that is gone after a reload, and the token in them must never land in the address bar or history.
// Long lines wrap (a token has no break points), so nothing hides off to the side.
// Every panel stays in the DOM, hidden unless selected, so its text can be searched and copied by tools.
import { useId, useRef, useState } from "react";
import { CopyButton } from "@/components/copy-button";
import { tabForKey } from "@/components/tabs";
import type { ConfigSnippet } from "./config-snippets";

export function ConfigTabs({ snippets }: { snippets: readonly ConfigSnippet[] }) {
  const baseId = useId();
  const listRef = useRef<HTMLDivElement>(null);
  const [current, setCurrent] = useState(snippets[0]?.id);

  function select(id: ConfigSnippet["id"], focus = false) {
    setCurrent(id);
    if (focus) listRef.current?.querySelector<HTMLButtonElement>(`[data-tab="${id}"]`)?.focus();
  }

  function onKeyDown(e: React.KeyboardEvent) {
    const next = tabForKey(snippets, current, e.key);
    if (!next) return;
    e.preventDefault();
    select(next.id, true);
  }

  return (
    <div>
      <div
        ref={listRef}
        role="tablist"
        aria-label="Client configuration"
        onKeyDown={onKeyDown}
        className="flex gap-1 overflow-x-auto border-b border-slate-200"
      >
        {snippets.map((s) => {
          const active = s.id === current;
          return (
            <button
              key={s.id}
              type="button"
              role="tab"
              id={`${baseId}-tab-${s.id}`}
              data-tab={s.id}
              aria-selected={active}
              aria-controls={`${baseId}-panel-${s.id}`}
              tabIndex={active ? 0 : -1}
              onClick={() => select(s.id)}
              className={`-mb-px shrink-0 border-b-2 px-3 py-2 text-sm font-medium whitespace-nowrap transition-colors focus-visible:outline-2 focus-visible:outline-offset-[-2px] focus-visible:outline-indigo-600 ${
                active
                  ? "border-indigo-600 text-indigo-700"
                  : "border-transparent text-slate-600 hover:border-slate-300 hover:text-slate-900"
              }`}
            >
              {s.label}
            </button>
          );
        })}
      </div>
      {snippets.map((s) => (
        <div
          key={s.id}
          role="tabpanel"
          id={`${baseId}-panel-${s.id}`}
          aria-labelledby={`${baseId}-tab-${s.id}`}
          hidden={s.id !== current}
          className="pt-3"
        >
          <div className="mb-1.5 flex items-center justify-between gap-2">
            <p className="min-w-0 truncate font-mono text-xs text-slate-600">{s.file}</p>
            <CopyButton text={s.text} what={`${s.label} configuration`} />
          </div>
          <pre
            data-testid={`config-${s.id}`}
            tabIndex={0}
            aria-label={`${s.label} configuration`}
            className="max-h-72 overflow-auto rounded-md bg-slate-900 p-3 font-mono text-xs leading-relaxed break-all whitespace-pre-wrap text-slate-100"
          >
            <code>{s.text}</code>
          </pre>
        </div>
      ))}
    </div>
  );
}
