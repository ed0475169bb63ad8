// A server's recent stderr (GET /api/v1/servers/{slug}/logs): the current process and the last one that exited.
import { z } from "zod";

export const ZStderrProcess = z
  .object({
    startedAt: z.string(),
    endedAt: z.string().nullable().meta({ description: "When the process ended (exit, crash, failed connect); null while it runs" }),
    endReason: z.string().nullable(),
    lines: z.array(z.string()).meta({ description: "Its stderr lines, oldest first, with known secrets and personal data redacted" }),
    droppedLines: z.number().int().meta({ description: "Older lines pushed out by the bound (500 lines / 256 KB per process)" }),
  })
  .meta({ id: "StderrProcess" });
export type TStderrProcess = z.infer<typeof ZStderrProcess>;

export const ZSessionStderrProcess = ZStderrProcess.extend({
  session: z.string().meta({ description: "The transparent session (/mcp/s/<slug>) the process served: the first 8 characters of its MCP session id" }),
}).meta({ id: "SessionStderrProcess" });
export type TSessionStderrProcess = z.infer<typeof ZSessionStderrProcess>;

export const ZServerLogs = z
  .object({
    slug: z.string(),
    held: z.boolean().meta({ description: "Whether the gateway process that answered runs this server (each process runs its own)" }),
    current: ZStderrProcess.nullable(),
    previous: ZStderrProcess.nullable().meta({ description: "The last process that exited" }),
    sessions: z.array(ZSessionStderrProcess).meta({
      description: "Processes of transparent sessions (one per agent session on /mcp/s/<slug>) on this gateway process, newest first: the running ones and the last 10 ended",
    }),
  })
  .meta({ id: "ServerLogs" });
export type TServerLogs = z.infer<typeof ZServerLogs>;
