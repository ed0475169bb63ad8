// What a code-mode program keeps outside the model's context: a small key-value workspace per user and saved
// skills (named programs), persistent across sessions. Programs reach them as `workspace.*` and `skills.*`,
// through the same bridge as tools (server/codemode/code-server.ts), bounded here.
import type { Db } from "../db/client";
import { toJson } from "../db/client";
import { SKILLS_SERVER, WORKSPACE_SERVER } from "./prelude-servers";

export const WORKSPACE_LIMITS = { keyChars: 200, valueBytes: 64 * 1024, entries: 1000, skillChars: 50_000, skills: 200 } as const;

const KEY_RE = /^[\w.:/-]{1,200}$/;
const SKILL_RE = /^[a-z][a-z0-9_-]{0,63}$/;

export class WorkspaceError extends Error {
  override name = "WorkspaceError";
}

function checkKey(key: unknown): string {
  if (typeof key !== "string" || !KEY_RE.test(key)) throw new WorkspaceError(`A workspace key is 1–200 letters, digits or _ . : / - (got ${typeof key === "string" ? JSON.stringify(key.slice(0, 60)) : typeof key}).`);
  return key;
}

function checkSkillName(name: unknown): string {
  if (typeof name !== "string" || !SKILL_RE.test(name)) throw new WorkspaceError("A skill name is lower-case letters, digits, _ or -, starting with a letter (at most 64).");
  return name;
}

export function createWorkspace(db: Db) {
  return {
    async get(userId: string, key: unknown): Promise<unknown> {
      const row = await db.workspaceEntry.findUnique({ where: { userId_key: { userId, key: checkKey(key) } } });
      return row ? row.value : null;
    },
    async set(userId: string, key: unknown, value: unknown): Promise<{ key: string; bytes: number }> {
      const k = checkKey(key);
      if (value === undefined) throw new WorkspaceError("workspace.set needs a value (use workspace.delete to remove a key).");
      const text = JSON.stringify(value);
      const bytes = Buffer.byteLength(text);
      if (bytes > WORKSPACE_LIMITS.valueBytes) throw new WorkspaceError(`A workspace value is at most ${String(WORKSPACE_LIMITS.valueBytes)} bytes of JSON (this one is ${String(bytes)}).`);
      const exists = await db.workspaceEntry.findUnique({ where: { userId_key: { userId, key: k } }, select: { id: true } });
      if (!exists && (await db.workspaceEntry.count({ where: { userId } })) >= WORKSPACE_LIMITS.entries) {
        throw new WorkspaceError(`The workspace holds at most ${String(WORKSPACE_LIMITS.entries)} keys: delete some first.`);
      }
      const json = toJson(JSON.parse(text));
      await db.workspaceEntry.upsert({ where: { userId_key: { userId, key: k } }, create: { userId, key: k, value: json }, update: { value: json } });
      return { key: k, bytes };
    },
    async list(userId: string, prefix: unknown = ""): Promise<string[]> {
      if (typeof prefix !== "string" || prefix.length > WORKSPACE_LIMITS.keyChars) throw new WorkspaceError("workspace.list takes a key prefix (a string).");
      const rows = await db.workspaceEntry.findMany({ where: { userId, key: { startsWith: prefix } }, select: { key: true }, orderBy: { key: "asc" }, take: WORKSPACE_LIMITS.entries + 100 });
      // Keys starting with $ are the gateway's own (privacy placeholders): a program cannot name them.
      return rows.map((r) => r.key).filter((k) => !k.startsWith("$"));
    },
    async delete(userId: string, key: unknown): Promise<boolean> {
      const { count } = await db.workspaceEntry.deleteMany({ where: { userId, key: checkKey(key) } });
      return count > 0;
    },

    async saveSkill(userId: string, name: unknown, code: unknown, description: unknown = null): Promise<{ name: string }> {
      const n = checkSkillName(name);
      if (typeof code !== "string" || code.length === 0 || code.length > WORKSPACE_LIMITS.skillChars) throw new WorkspaceError(`A skill's code is 1–${String(WORKSPACE_LIMITS.skillChars)} characters.`);
      if (description !== null && (typeof description !== "string" || description.length > 500)) throw new WorkspaceError("A skill's description is a string of at most 500 characters.");
      const exists = await db.skill.findUnique({ where: { userId_name: { userId, name: n } }, select: { id: true } });
      if (!exists && (await db.skill.count({ where: { userId } })) >= WORKSPACE_LIMITS.skills) throw new WorkspaceError(`At most ${String(WORKSPACE_LIMITS.skills)} skills per user.`);
      await db.skill.upsert({ where: { userId_name: { userId, name: n } }, create: { userId, name: n, code, description }, update: { code, description } });
      return { name: n };
    },
    async getSkill(userId: string, name: unknown): Promise<{ name: string; description: string | null; code: string }> {
      const row = await db.skill.findUnique({ where: { userId_name: { userId, name: checkSkillName(name) } } });
      if (!row) throw new WorkspaceError(`No skill named ${String(name)}: skills.list() shows yours.`);
      return { name: row.name, description: row.description, code: row.code };
    },
    async listSkills(userId: string): Promise<{ name: string; description: string | null; updatedAt: string }[]> {
      const rows = await db.skill.findMany({ where: { userId }, orderBy: { name: "asc" }, select: { name: true, description: true, updatedAt: true } });
      return rows.map((r) => ({ name: r.name, description: r.description, updatedAt: r.updatedAt.toISOString() }));
    },
    async deleteSkill(userId: string, name: unknown): Promise<boolean> {
      const { count } = await db.skill.deleteMany({ where: { userId, name: checkSkillName(name) } });
      return count > 0;
    },
  };
}

export type Workspace = ReturnType<typeof createWorkspace>;

export { SKILLS_SERVER, WORKSPACE_SERVER };

/**
 * Defines `workspace` and `skills` inside the program, over the bridge. A skill runs in the same sandbox, with
 * the same limits, as `async (tools, workspace, skills, input) => { <its code> }`.
 */
export const PROGRAM_PRELUDE = `const workspace = Object.freeze({
  get: (key) => tools["${WORKSPACE_SERVER}"].get({ key }),
  set: (key, value) => tools["${WORKSPACE_SERVER}"].set({ key, value }),
  list: (prefix = "") => tools["${WORKSPACE_SERVER}"].list({ prefix }),
  delete: (key) => tools["${WORKSPACE_SERVER}"].delete({ key }),
});
const skills = Object.freeze({
  save: (name, code, description = null) => tools["${SKILLS_SERVER}"].save({ name, code, description }),
  get: (name) => tools["${SKILLS_SERVER}"].get({ name }),
  list: () => tools["${SKILLS_SERVER}"].list({}),
  delete: (name) => tools["${SKILLS_SERVER}"].delete({ name }),
  run: async (name, input) => {
    const { code } = await tools["${SKILLS_SERVER}"].get({ name });
    const AsyncFunction = Object.getPrototypeOf(async function () {}).constructor;
    return new AsyncFunction("tools", "workspace", "skills", "input", code)(tools, workspace, skills, input);
  },
});
`;
