// workspace.* and skills.* of the program prelude: the caller's user's own entries, answered to the sandbox.
import type { BridgeAnswer } from "./executor";
import { WORKSPACE_SERVER, WorkspaceError, type Workspace } from "./workspace";

/** workspace.* and skills.* of the prelude: the caller's user's own entries. */
export async function workspaceCall(w: Workspace, userId: string, serverSlug: string, op: string, a: Record<string, unknown>): Promise<BridgeAnswer> {
  const ops: Record<string, () => Promise<unknown>> =
    serverSlug === WORKSPACE_SERVER
      ? { get: () => w.get(userId, a.key), set: () => w.set(userId, a.key, a.value), list: () => w.list(userId, a.prefix), delete: () => w.delete(userId, a.key) }
      : { save: () => w.saveSkill(userId, a.name, a.code, a.description ?? null), get: () => w.getSkill(userId, a.name), list: () => w.listSkills(userId), delete: () => w.deleteSkill(userId, a.name) };
  const fn = Object.hasOwn(ops, op) ? ops[op] : undefined;
  if (!fn) return { ok: false, error: { name: "TypeError", message: `${serverSlug === WORKSPACE_SERVER ? "workspace" : "skills"}.${op} does not exist.` } };
  try {
    return { ok: true, value: await fn() };
  } catch (err) {
    if (err instanceof WorkspaceError) return { ok: false, error: { name: err.name, message: err.message } };
    throw err;
  }
}
