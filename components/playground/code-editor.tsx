"use client";
// The playground's editor, loaded on demand: CodeMirror and its language packages are a chunk of their own that
// only this page fetches. Until it is there the program shows as plain text.
import dynamic from "next/dynamic";
import type { CodeMirrorEditorProps } from "./codemirror-editor";

const CodeMirrorEditor = dynamic(() => import("./codemirror-editor"), { ssr: false, loading: EditorLoading });

function EditorLoading() {
  return (
    <div className="min-h-64 rounded-md bg-white px-3 py-3 text-sm text-slate-500 ring-1 ring-slate-300 ring-inset" aria-busy="true">
      Loading the editor…
    </div>
  );
}

export function CodeEditor(props: CodeMirrorEditorProps) {
  return <CodeMirrorEditor {...props} />;
}
