// The program the editor starts with: what the declarations offer, as a comment, and a tiny program that
// runs with any permissions (it lists the workspace, so it calls no tool with side effects).

import { declarationTree, memberAccess } from "./declaration-tree";

/**
 * How a program reaches each tool of `declarations` (`tools.orders.create_order`, `tools["my-server"]["do.thing"]`),
 * read from the `declare const tools: { … }` block that the gateway generates.
 */
export function toolAccessors(declarations: string): string[] {
  const tools = declarationTree(declarations).find((root) => root.name === "tools");
  return (tools?.children ?? []).flatMap((server) =>
    server.children.filter((t) => t.kind === "method").map((t) => `tools${memberAccess(server.name)}${memberAccess(t.name)}`),
  );
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
