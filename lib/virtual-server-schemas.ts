// Virtual servers (issue 23): named compositions of upstream tools, prompts and resources served at
// /mcp/v/<name>. Contracts for REST and the console.
import { z } from "zod";

export const VIRTUAL_NAME_MAX = 63;
const VIRTUAL_NAME_RE = /^[a-z0-9][a-z0-9-]*$/;
const TOOL_NAME_RE = /^[A-Za-z0-9_.-]{1,128}$/;

/** Stable codes of a name that is not a slug, reported in the 422's issues (`code`). */
export function virtualNameProblem(name: string): { code: string; message: string } | null {
  if (name === "") return { code: "name_empty", message: "is empty" };
  if (name.length > VIRTUAL_NAME_MAX) return { code: "name_too_long", message: `is longer than ${String(VIRTUAL_NAME_MAX)} characters` };
  // Anything outside ASCII may be a look-alike of another name (Cyrillic "а" for "a"), a control or a surrogate.
  if (/[^\x20-\x7e]/.test(name)) return { code: "name_not_ascii", message: "may hold only ASCII lower-case letters, digits and '-' (no look-alike or invisible characters)" };
  if (!VIRTUAL_NAME_RE.test(name)) return { code: "name_not_slug", message: "must be lower-case letters a–z, digits and '-', starting with a letter or digit" };
  return null;
}

export const ZVirtualServerName = z.string().superRefine((name, ctx) => {
  const problem = virtualNameProblem(name);
  if (problem) ctx.addIssue({ code: "custom", message: problem.message, params: { code: problem.code } });
});

export const ZVirtualMemberKind = z.enum(["tool", "prompt", "resource"]).meta({ id: "VirtualMemberKind" });

export const ZVirtualMemberInput = z
  .object({
    kind: ZVirtualMemberKind,
    server: z.string().min(1).max(63).meta({ description: "The upstream server's slug" }),
    name: z.string().min(1).max(2048).meta({ description: "The tool's or prompt's name on its server, or the resource's URI" }),
    exposedName: z
      .string()
      .regex(TOOL_NAME_RE, "1–128 characters of A–Z, a–z, 0–9, '_', '-' and '.'")
      .optional()
      .meta({ description: "The name agents see (tools and prompts); default: the upstream name" }),
    description: z.string().min(1).max(4000).optional().meta({ description: "Replaces the upstream description (scanned for poisoning)" }),
  })
  .strict()
  .refine((m) => m.kind !== "resource" || m.exposedName === undefined, { message: "a resource keeps its URI; it cannot be renamed", path: ["exposedName"] })
  .meta({ id: "VirtualMemberInput" });

const fields = {
  description: z.string().max(500).optional(),
  instructions: z.string().max(8000).optional().meta({ description: "The virtual server's instructions to the agent (initialize)" }),
  members: z.array(ZVirtualMemberInput).max(500).optional(),
  overrideReason: z
    .string()
    .trim()
    .min(1)
    .max(1000)
    .optional()
    .meta({ description: "Saves despite high-severity poisoning findings in renamed names, descriptions or instructions (audited)" }),
};

export const ZCreateVirtualServer = z.object({ name: ZVirtualServerName, ...fields }).strict().meta({ id: "CreateVirtualServer" });
export type TCreateVirtualServer = z.infer<typeof ZCreateVirtualServer>;

// The name is not changeable: clients and sessions know the server by it.
export const ZUpdateVirtualServer = z.object(fields).strict().meta({ id: "UpdateVirtualServer" });
export type TUpdateVirtualServer = z.infer<typeof ZUpdateVirtualServer>;
export type TVirtualMemberInput = z.infer<typeof ZVirtualMemberInput>;

export const ZVirtualMember = z
  .object({
    kind: ZVirtualMemberKind,
    server: z.string(),
    name: z.string(),
    exposedName: z.string().nullable(),
    description: z.string().nullable(),
    servedAs: z.string().meta({ description: "The name (or, for a resource, the URI) agents see" }),
  })
  .meta({ id: "VirtualMember" });

export const ZVirtualServer = z
  .object({
    id: z.string(),
    name: z.string(),
    description: z.string(),
    instructions: z.string(),
    path: z.string().meta({ description: "Where agents connect: /mcp/v/<name>" }),
    members: z.array(ZVirtualMember),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: "VirtualServer" });
export type TVirtualServer = z.infer<typeof ZVirtualServer>;
export type TVirtualMember = z.infer<typeof ZVirtualMember>;

export const ZVirtualServerList = z.object({ items: z.array(ZVirtualServer) }).meta({ id: "VirtualServerList" });
export type TVirtualServerList = z.infer<typeof ZVirtualServerList>;
