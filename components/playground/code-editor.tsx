"use client";
// A plain monospace editor: Tab and Shift+Tab indent and outdent (the selected lines, or at the caret), and
// Ctrl/Cmd+Enter runs. Escape hands Tab back to the page for one press, so the editor is no keyboard trap.
import { useRef, type KeyboardEvent } from "react";
import { indentEdit } from "./indent";

export function CodeEditor({
  id,
  value,
  onChange,
  onRun,
  describedBy,
}: {
  id: string;
  value: string;
  onChange: (next: string) => void;
  onRun: () => void;
  describedBy?: string;
}) {
  const tabLeaves = useRef(false);

  function onKeyDown(e: KeyboardEvent<HTMLTextAreaElement>) {
    if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) {
      e.preventDefault();
      onRun();
      return;
    }
    if (e.key === "Escape") {
      tabLeaves.current = true;
      return;
    }
    if (e.key !== "Tab" || e.altKey || e.ctrlKey || e.metaKey || tabLeaves.current) {
      tabLeaves.current = false;
      return;
    }
    e.preventDefault();
    const area = e.currentTarget;
    const edit = indentEdit(area.value, area.selectionStart, area.selectionEnd, e.shiftKey);
    if (edit.value === area.value) return;
    onChange(edit.value);
    // React writes the new value on the next render; the selection follows it there.
    requestAnimationFrame(() => area.setSelectionRange(edit.start, edit.end));
  }

  return (
    <textarea
      id={id}
      value={value}
      onChange={(e) => onChange(e.target.value)}
      onKeyDown={onKeyDown}
      aria-describedby={describedBy}
      spellCheck={false}
      autoCapitalize="off"
      autoComplete="off"
      autoCorrect="off"
      wrap="off"
      rows={16}
      className="block min-h-64 w-full resize-y overflow-auto rounded-md border-0 bg-slate-950 px-3 py-3 font-mono text-[13px] leading-5 text-slate-100 shadow-xs ring-1 ring-slate-800 [tab-size:2] ring-inset placeholder:text-slate-500 focus:ring-2 focus:ring-indigo-500 focus:outline-none"
      data-testid="code-editor"
    />
  );
}
