// Completion from the generated declarations: `tools.` offers the servers, `tools.orders.` their tools,
// `workspace.` its methods, and a bare word the top-level names (tools, workspace, skills).
import type { Completion, CompletionContext, CompletionResult, CompletionSource } from "@codemirror/autocomplete";
import type { EditorView } from "@codemirror/view";
import { memberAccess, type DeclaredMember } from "./declaration-tree";

const STRING = String.raw`"(?:[^"\\]|\\.)*"`;
// `a.b["c-d"].` then the word being typed, anchored at the caret.
const MEMBER_PATH = new RegExp(String.raw`((?:[A-Za-z_$][\w$]*)(?:\.[A-Za-z_$][\w$]*|\[${STRING}\])*)\.([\w$]*)$`);
const SEGMENT = new RegExp(String.raw`(?:^|\.)([A-Za-z_$][\w$]*)|\[(${STRING})\]`, "g");
const WORD = /[A-Za-z_$][\w$]*$/;
const LOOK_BACK = 400;

/** `tools["my-server"].orders` → ["tools", "my-server", "orders"]. */
export function pathSegments(path: string): string[] {
  return [...path.matchAll(SEGMENT)].map((m) => m[1] ?? (JSON.parse(m[2]!) as string));
}

function option(member: DeclaredMember): Completion {
  const detail = member.detail && member.detail.length > 80 ? `${member.detail.slice(0, 79)}…` : member.detail;
  return {
    label: member.name,
    type: member.kind === "method" ? "method" : "namespace",
    ...(detail && { detail }),
    ...(member.doc && { info: member.doc }),
    // A name that is not an identifier is reached with brackets: the dot before it becomes ["name"].
    ...(!memberAccess(member.name).startsWith(".") && {
      apply: (view: EditorView, _c: Completion, from: number, to: number) =>
        view.dispatch({ changes: { from: from - 1, to, insert: memberAccess(member.name) } }),
    }),
  };
}

/** A completion source over the tree `roots()` answers at the time of asking (it changes with the permissions). */
export function declarationCompletions(roots: () => readonly DeclaredMember[]): CompletionSource {
  return (context: CompletionContext): CompletionResult | null => {
    const line = context.state.doc.lineAt(context.pos);
    const before = line.text.slice(Math.max(0, context.pos - line.from - LOOK_BACK), context.pos - line.from);
    const member = MEMBER_PATH.exec(before);
    if (member) {
      let level: readonly DeclaredMember[] = roots();
      for (const name of pathSegments(member[1]!)) {
        const next = level.find((m) => m.name === name && m.kind === "object");
        if (!next) return null;
        level = next.children;
      }
      return { from: context.pos - member[2]!.length, options: level.map(option), validFor: /^[\w$]*$/ };
    }
    const word = WORD.exec(before);
    const start = context.pos - (word?.[0].length ?? 0);
    // Not after a dot of something unknown, and not on an empty spot unless asked (Ctrl+Space).
    if (before[before.length - (word?.[0].length ?? 0) - 1] === "." || (!word && !context.explicit)) return null;
    return { from: start, options: roots().map(option), validFor: /^[\w$]*$/ };
  };
}
