"use client";
// The playground's editor, CodeMirror 6: JavaScript/TypeScript highlighting, completion from the generated
// declarations, Ctrl/Cmd+Enter runs, Tab indents (Esc then Tab leaves: no keyboard trap). Loaded on demand by
// code-editor.tsx, so only the playground pays for it. Colours come from the console's palette classes, which
// app/globals.css turns over in dark mode.
import { autocompletion, closeBrackets, closeBracketsKeymap, completionKeymap } from "@codemirror/autocomplete";
import { defaultKeymap, history, historyKeymap, indentWithTab } from "@codemirror/commands";
import { javascript, javascriptLanguage } from "@codemirror/lang-javascript";
import { bracketMatching, HighlightStyle, indentOnInput, indentUnit, syntaxHighlighting } from "@codemirror/language";
import { Compartment, EditorState, Prec } from "@codemirror/state";
import { drawSelection, EditorView, highlightActiveLine, keymap, lineNumbers } from "@codemirror/view";
import { tags } from "@lezer/highlight";
import { useEffect, useMemo, useRef } from "react";
import { declarationCompletions } from "./declaration-completions";
import { declarationTree } from "./declaration-tree";

export type CodeMirrorEditorProps = {
  value: string;
  onChange: (next: string) => void;
  onRun: () => void;
  label: string;
  describedBy?: string | undefined;
  typescript: boolean;
  /** The generated `.d.ts` the completion reads. */
  declarations: string;
};

// Token colours as palette classes (Tailwind sees them here), so dark mode needs no second style.
const highlight = HighlightStyle.define([
  { tag: [tags.keyword, tags.controlKeyword, tags.moduleKeyword, tags.operatorKeyword], class: "text-indigo-700 font-medium" },
  { tag: [tags.string, tags.special(tags.string), tags.regexp], class: "text-emerald-700" },
  { tag: [tags.number, tags.bool, tags.null, tags.atom], class: "text-amber-700" },
  { tag: [tags.comment, tags.lineComment, tags.blockComment], class: "text-slate-600 italic" },
  { tag: [tags.propertyName, tags.function(tags.propertyName)], class: "text-sky-700" },
  { tag: [tags.typeName, tags.className, tags.definition(tags.variableName)], class: "text-red-700" },
]);

const theme = EditorView.theme({
  // The surface is the wrapper's bg-white, which dark mode turns over (--color-white itself stays white).
  "&": { fontSize: "13px", backgroundColor: "transparent", minHeight: "16rem", maxHeight: "32rem" },
  "&.cm-focused": { outline: "none" },
  ".cm-scroller": { fontFamily: "var(--font-mono)", lineHeight: "1.25rem", overflow: "auto" },
  ".cm-content": { padding: "0.75rem 0", caretColor: "var(--color-slate-900)", color: "var(--color-slate-900)" },
  ".cm-cursor": { borderLeftColor: "var(--color-slate-900)" },
  ".cm-gutters": { backgroundColor: "var(--color-slate-50)", color: "var(--color-slate-500)", borderRight: "1px solid var(--color-slate-200)" },
  ".cm-activeLine": { backgroundColor: "color-mix(in oklab, var(--color-slate-100) 60%, transparent)" },
  ".cm-activeLineGutter": { backgroundColor: "var(--color-slate-100)" },
  "&.cm-focused .cm-selectionBackground, .cm-selectionBackground, .cm-content ::selection": {
    backgroundColor: "color-mix(in oklab, var(--color-indigo-300, #a5b4fc) 45%, transparent)",
  },
  ".cm-tooltip": { backgroundColor: "var(--color-slate-50)", color: "var(--color-slate-900)", border: "1px solid var(--color-slate-200)" },
  ".cm-tooltip-autocomplete > ul > li[aria-selected]": { backgroundColor: "var(--color-indigo-600)", color: "#fff" },
  ".cm-completionDetail": { color: "inherit", opacity: "0.7" },
});

export default function CodeMirrorEditor({ value, onChange, onRun, label, describedBy, typescript, declarations }: CodeMirrorEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const language = useRef(new Compartment());
  // The latest callbacks and declarations, read by the editor when it needs them (it is built once).
  const latest = useRef({ onChange, onRun });
  const tree = useMemo(() => declarationTree(declarations), [declarations]);
  const roots = useRef(tree);
  useEffect(() => {
    latest.current = { onChange, onRun };
    roots.current = tree;
  }, [onChange, onRun, tree]);

  useEffect(() => {
    const state = EditorState.create({
      doc: value,
      extensions: [
        Prec.highest(keymap.of([{ key: "Mod-Enter", run: () => (latest.current.onRun(), true) }])),
        lineNumbers(),
        history(),
        drawSelection(),
        highlightActiveLine(),
        indentOnInput(),
        indentUnit.of("  "),
        bracketMatching(),
        closeBrackets(),
        autocompletion({ icons: false }),
        keymap.of([...closeBracketsKeymap, ...defaultKeymap, ...historyKeymap, ...completionKeymap, indentWithTab]),
        language.current.of(javascript({ typescript })),
        javascriptLanguage.data.of({ autocomplete: declarationCompletions(() => roots.current) }),
        syntaxHighlighting(highlight),
        theme,
        EditorState.tabSize.of(2),
        EditorView.contentAttributes.of({
          "aria-label": label,
          ...(describedBy && { "aria-describedby": describedBy }),
          spellcheck: "false",
          autocapitalize: "off",
          autocorrect: "off",
        }),
        EditorView.updateListener.of((u) => {
          if (u.docChanged) latest.current.onChange(u.state.doc.toString());
        }),
      ],
    });
    const v = new EditorView({ state, parent: host.current! });
    view.current = v;
    return () => {
      v.destroy();
      view.current = null;
    };
    // Built once; value, language and callbacks reach it through the effects below and the refs above.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  // A program set from outside (the example for other permissions, "Back to the example") replaces the text.
  useEffect(() => {
    const v = view.current;
    if (!v || v.state.doc.toString() === value) return;
    v.dispatch({ changes: { from: 0, to: v.state.doc.length, insert: value } });
  }, [value]);

  useEffect(() => {
    view.current?.dispatch({ effects: language.current.reconfigure(javascript({ typescript })) });
  }, [typescript]);

  return (
    <div
      ref={host}
      className="min-w-0 overflow-hidden rounded-md bg-white shadow-xs ring-1 ring-slate-300 ring-inset focus-within:ring-2 focus-within:ring-indigo-500"
      data-testid="code-editor"
    />
  );
}
