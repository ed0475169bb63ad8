"use client";
// The client configurations as tabs. Local state, not the URL (unlike components/tabs.tsx): they live in a
// dialog that is gone after a reload, and the token in them must never land in the address bar or history.
// Long lines wrap (a token has no break points), so nothing hides off to the side.
// Every panel stays in the DOM, hidden unless selected, so its text can be searched and copied by tools.
import { useId, useState } from "react";
import { CopyButton } from "@/components/copy-button";
import { TabList } from "@/components/tabs";
import type { ConfigSnippet } from "./config-snippets";

export function ConfigTabs({ snippets }: { snippets: readonly ConfigSnippet[] }) {
  const baseId = useId();
  const [current, setCurrent] = useState(snippets[0]?.id);

  return (
    <div>
      <TabList tabs={snippets} currentId={current} label="Client configuration" baseId={baseId} onSelect={setCurrent} dense />
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
