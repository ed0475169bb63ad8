// What the generated declarations offer a program, as a tree: `tools` → servers → tools, `workspace` → its
// methods, each with its signature and doc comment. Read from the `.d.ts` text the gateway generates (two spaces
// of indentation per level), for the editor's completion and the example program.

export type DeclaredMember = {
  /** The property name as a program uses it (unquoted). */
  name: string;
  kind: "object" | "method";
  /** A method's parameters and return type, first line only. */
  detail?: string;
  /** Its doc comment, without the comment markers. */
  doc?: string;
  children: DeclaredMember[];
};

const ROOT = /^declare const ([A-Za-z_$][\w$]*): \{$/;
const KEY = String.raw`("(?:[^"\\]|\\.)*"|[A-Za-z_$][\w$]*)`;
const OBJECT = new RegExp(`^${KEY}: \\{$`);
const METHOD = new RegExp(`^${KEY}(\\(.*)$`);
const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

const unquote = (key: string) => (key.startsWith('"') ? (JSON.parse(key) as string) : key);
const indentOf = (line: string) => line.length - line.trimStart().length;

/** The top-level `declare const X: { … }` blocks and their members. */
export function declarationTree(declarations: string): DeclaredMember[] {
  const roots: DeclaredMember[] = [];
  // The open blocks, innermost last; their members sit two spaces deeper than the block's own line.
  const stack: DeclaredMember[] = [];
  let doc: string[] | null = null;
  let pendingDoc: string | undefined;
  for (const line of declarations.split("\n")) {
    const text = line.trim();
    const root = ROOT.exec(line);
    if (root) {
      const node: DeclaredMember = { name: root[1]!, kind: "object", children: [], ...(pendingDoc && { doc: pendingDoc }) };
      roots.push(node);
      stack.splice(0, stack.length, node);
      pendingDoc = undefined;
      continue;
    }
    if (!stack.length) {
      pendingDoc = undefined;
      continue;
    }
    // Doc comments: one line, or several up to " */" (whose lines are indented one more).
    if (doc) {
      if (text.endsWith("*/")) {
        pendingDoc = doc.join("\n").trim();
        doc = null;
      } else doc.push(text.replace(/^\* ?/, ""));
      continue;
    }
    const depth = stack.length;
    const indent = indentOf(line);
    if (indent === 2 * (depth - 1) && text === "};") {
      stack.pop();
      continue;
    }
    if (indent !== 2 * depth) continue;
    if (text.startsWith("/**")) {
      if (text.endsWith("*/")) pendingDoc = text.slice(3, -2).trim();
      else doc = [];
      continue;
    }
    const parent = stack[depth - 1]!;
    const object = OBJECT.exec(text);
    const method = object ? null : METHOD.exec(text);
    if (object) {
      const node: DeclaredMember = { name: unquote(object[1]!), kind: "object", children: [], ...(pendingDoc && { doc: pendingDoc }) };
      parent.children.push(node);
      stack.push(node);
    } else if (method) {
      parent.children.push({ name: unquote(method[1]!), kind: "method", detail: method[2]!, children: [], ...(pendingDoc && { doc: pendingDoc }) });
    }
    pendingDoc = undefined;
  }
  return roots;
}

/** How a program reaches a member: `.orders` for an identifier, `["my-server"]` otherwise. */
export const memberAccess = (name: string) => (IDENTIFIER.test(name) ? `.${name}` : `[${JSON.stringify(name)}]`);
