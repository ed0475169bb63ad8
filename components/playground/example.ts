// The program the editor starts with: what the declarations offer, as a comment, and a tiny program that
// runs with any permissions (it lists the workspace, so it calls no tool with side effects).

const SERVER_LINE = /^ {2}("(?:[^"\\]|\\.)*"|[A-Za-z_$][\w$]*): \{$/;
const TOOL_LINE = /^ {4}("(?:[^"\\]|\\.)*"|[A-Za-z_$][\w$]*)\(/;

/** `orders` → `.orders`; `"my-server"` (already quoted by the declarations) → `["my-server"]`. */
const member = (key: string) => (key.startsWith('"') ? `[${key}]` : `.${key}`);

/**
 * How a program reaches each tool of `declarations` (`tools.orders.create_order`, `tools["my-server"]["do.thing"]`),
 * read from the `declare const tools: { … }` block that the gateway generates.
 */
export function toolAccessors(declarations: string): string[] {
  const lines = declarations.split("\n");
  const start = lines.indexOf("declare const tools: {");
  if (start < 0) return [];
  const out: string[] = [];
  let server: string | null = null;
  for (const line of lines.slice(start + 1)) {
    if (line === "};") break;
    const s = SERVER_LINE.exec(line);
    if (s) {
      server = s[1]!;
      continue;
    }
    const t = TOOL_LINE.exec(line);
    if (t && server) out.push(`tools${member(server)}${member(t[1]!)}`);
  }
  return out;
}

const SHOWN = 8;

/** The starting program; `accessors` null while the declarations load. */
export function exampleProgram(accessors: readonly string[] | null): string {
  if (!accessors) return "// Loading the tools these permissions may call…\n";
  const listed = accessors.slice(0, SHOWN).map((a) => `//   await ${a}({ … })`);
  const more = accessors.length > SHOWN ? [`//   … and ${accessors.length - SHOWN} more (see the types above)`] : [];
  const offer = accessors.length
    ? ["// The tools this program may call:", ...listed, ...more]
    : ["// No tools are open to these permissions yet; workspace and skills still work."];
  return [
    ...offer,
    "// workspace.get/set/list/delete keep JSON values between runs; skills.save/get/list/delete/run keep programs.",
    "// console.log is captured, and what you return is the result. Ctrl+Enter (⌘+Enter) runs.",
    "",
    "const keys = await workspace.list();",
    'console.log(`your workspace holds ${keys.length} key${keys.length === 1 ? "" : "s"}`);',
    `return { toolsOnOffer: ${accessors.length}, workspaceKeys: keys };`,
    "",
  ].join("\n");
}
