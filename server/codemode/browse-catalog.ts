// browse_catalog: the catalog an agent pages through when search_tools does not find what it needs. Without
// `server`, the servers the session may use, a line each (catalog-summary.ts); with it, that server's tool names.
// "May use" is exactly search_tools' rule: the tools of the session's version whose gateway name passes the
// session's whitelist and the user's live grant; a server shows only if one of its tools does, with only those
// tools counted, so nothing the session cannot use is named. Pages are in code-unit order and resume after the
// cursor's last key.
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { compareCodeUnits } from "../../lib/compare-code-units";
import { toolError } from "../pipeline/tool-error";
import type { ToolCall } from "../pipeline/types";
import { sessionAccess } from "../policy/session-access";
import { parseGatewayName } from "../registry/gateway-name";
import { catalogSummary } from "./catalog-summary";
import { decodeCursor, encodeCursor } from "./catalog-cursor";
import { invalidArguments } from "./invalid-arguments";
import type { CodeModeDeps } from "./program-runner";

export const DEFAULT_SERVERS_PAGE = 25;
export const DEFAULT_TOOLS_PAGE = 50;
const MAX_PAGE = 200;

const ZBrowse = z
  .object({
    server: z.string().min(1).max(200).optional(),
    // Any string: one it did not hand out (empty, over-long, garbled) is refused invalid_cursor, not InvalidParams.
    cursor: z.string().optional(),
    limit: z.number().int().min(1).max(MAX_PAGE).optional(),
  })
  .strict();

type Grant = NonNullable<ToolCall["grant"]>;

/** The session's usable tool names by server slug, each list sorted. */
export async function usableToolsByServer(deps: CodeModeDeps, grant: Grant, bucket: number): Promise<Map<string, string[]>> {
  const { mayUse } = await sessionAccess(deps.policy, grant);
  const byServer = new Map<string, string[]>();
  for (const t of await deps.registry.visibleTools(bucket)) {
    const p = mayUse(t.name) ? parseGatewayName(t.name) : null;
    if (!p) continue;
    const names = byServer.get(p.slug) ?? [];
    names.push(p.tool);
    byServer.set(p.slug, names);
  }
  for (const names of byServer.values()) names.sort(compareCodeUnits);
  return byServer;
}

/** The session may not use `server`, or it does not exist: one answer for both. */
export const unknownServer = (): CallToolResult =>
  toolError("unknown_server", "You may use no server by that name. browse_catalog() without server lists the servers you may use.");

function page<T>(items: readonly T[], keyOf: (item: T) => string, after: string | undefined, limit: number) {
  const start = after === undefined ? 0 : items.findIndex((item) => compareCodeUnits(keyOf(item), after) > 0);
  const from = start === -1 ? items.length : start;
  const shown = items.slice(from, from + limit);
  const more = from + shown.length < items.length;
  return { shown, from, more, last: shown.length ? keyOf(shown[shown.length - 1]!) : undefined };
}

const text = (s: string): CallToolResult => ({ content: [{ type: "text", text: s }] });

export async function browseCatalog(deps: CodeModeDeps, grant: Grant, bucket: number, args: Record<string, unknown>): Promise<CallToolResult> {
  const parsed = ZBrowse.safeParse(args);
  if (!parsed.success) invalidArguments(parsed.error);
  const { server, cursor, limit } = parsed.data;
  const listing = server ?? "";
  const position = cursor === undefined ? undefined : decodeCursor(cursor, listing);
  if (position && "problem" in position) return toolError("invalid_cursor", `This cursor ${position.problem}. Start again without a cursor.`);
  const after = position?.after;
  const usable = await usableToolsByServer(deps, grant, bucket);

  if (server !== undefined) {
    const names = usable.get(server);
    if (!names) return unknownServer();
    const p = page(names, (n) => n, after, limit ?? DEFAULT_TOOLS_PAGE);
    if (p.shown.length === 0) return text(`${server}: no more tools after this cursor (${String(names.length)} in all).`);
    const head = `${server}: tools ${String(p.from + 1)}–${String(p.from + p.shown.length)} of ${String(names.length)}; call tools[${JSON.stringify(server)}][name](args), arguments: search_tools({query, server: ${JSON.stringify(server)}, detail: "full"})`;
    const more = p.more ? `\nMore: browse_catalog({server: ${JSON.stringify(server)}, cursor: ${JSON.stringify(encodeCursor(listing, p.last!))}})` : "";
    return text(`${head}\n${p.shown.join("\n")}${more}`);
  }

  const routes = new Map((await deps.registry.visibleServers(bucket)).map((r) => [r.slug, r]));
  const slugs = [...usable.keys()].filter((s) => routes.has(s)).sort(compareCodeUnits);
  if (slugs.length === 0) return text("You may use no server's tools in this session.");
  const p = page(slugs, (s) => s, after, limit ?? DEFAULT_SERVERS_PAGE);
  if (p.shown.length === 0) return text(`No more servers after this cursor (${String(slugs.length)} in all).`);
  const lines = p.shown.map((slug) => {
    const names = usable.get(slug)!;
    const route = routes.get(slug)!;
    return `${slug} (${String(names.length)}) — ${catalogSummary({ summary: route.summary, instructions: route.defs.instructions }, names)}`;
  });
  const head = `Servers you may use ${String(p.from + 1)}–${String(p.from + p.shown.length)} of ${String(slugs.length)} (tools you may use); browse_catalog({server}) lists one's tools:`;
  const more = p.more ? `\nMore: browse_catalog({cursor: ${JSON.stringify(encodeCursor(listing, p.last!))}})` : "";
  return text(`${head}\n${lines.join("\n")}${more}`);
}
