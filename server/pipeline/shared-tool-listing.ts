// Each call checked against its pinned definition (check-pinned-definition.ts) needs the upstream's tools/list as it
// is after the call arrived. Calls over one connection shared by all callers share it: the first call's listing is
// sent at once, and the calls that arrive while it is out go together in the next one (group-batches.ts). Every
// listing is therefore sent after each call it answers had arrived, so no call is checked against an answer older
// than itself, as with a listing of its own; under load a listing per call becomes a listing per batch.
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { ToolSchema, type Tool } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { groupBatches } from "../db/group-batches";

const MAX_PAGES = 100;

/**
 * A listing page as a call's check reads it: the envelope and each tool's name. Only the tools a call names are
 * parsed whole (ToolSchema); the SDK's ListToolsResultSchema parsed every tool's schemas on every call, 33–66 µs
 * per listing of a 26-tool server here, against a few µs for this.
 */
const ListingPageSchema = z.looseObject({
  tools: z.array(z.looseObject({ name: z.string() })),
  nextCursor: z.string().optional(),
});

/** The tools named in `names` from a connection's tools/list, following pages until all are found or none are left. */
export async function listNamedTools(client: Client, names: ReadonlySet<string>, signal: AbortSignal | undefined, timeoutMs: number): Promise<Map<string, Tool>> {
  const found = new Map<string, Tool>();
  let cursor: string | undefined;
  for (let i = 0; i < MAX_PAGES; i++) {
    // A plain request, not client.listTools: that one also compiles a JSON Schema validator for every tool's output
    // schema, and Ajv keeps each compiled schema keyed by its object, so a listing per call would compile and keep
    // them all on every call. The validators the connection's calls use come from its discovery listing.
    const page = await client.request({ method: "tools/list", params: cursor ? { cursor } : {} }, ListingPageSchema, { ...(signal && { signal }), timeout: timeoutMs });
    // A named tool that is not a valid definition fails the listing, as a whole-page parse did; another one does not.
    for (const t of page.tools) if (names.has(t.name)) found.set(t.name, ToolSchema.parse(t));
    if (found.size === names.size || !page.nextCursor) return found;
    cursor = page.nextCursor;
  }
  return found;
}

/** The tool named `name` in a connection's tools/list. */
export async function findListedTool(client: Client, name: string, signal: AbortSignal, timeoutMs: number): Promise<Tool | undefined> {
  return (await listNamedTools(client, new Set([name]), signal, timeoutMs)).get(name);
}

/** Lists the named tools over the shared connection; no caller's signal, since it answers several callers. */
export type ListShared = (names: ReadonlySet<string>, timeoutMs: number) => Promise<Map<string, Tool>>;

type Want = { name: string; timeoutMs: number; list: ListShared };

/**
 * `offered(key, want, signal)`: the tool as the connection `key` lists it now, from a listing shared with the calls
 * that arrived with it. A caller whose signal aborts stops waiting; the listing goes on for the others.
 */
export function createSharedToolListing() {
  const groups = new Map<string, (want: Want) => Promise<Tool | undefined>>();
  const groupOf = (key: string) => {
    let g = groups.get(key);
    if (!g) {
      g = groupBatches<Want, Tool | undefined>(async (wants) => {
        const found = await wants[0]!.list(new Set(wants.map((w) => w.name)), Math.max(...wants.map((w) => w.timeoutMs)));
        return wants.map((w) => found.get(w.name));
      }, 1024);
      groups.set(key, g);
    }
    return g;
  };
  return (key: string, want: Want, signal: AbortSignal): Promise<Tool | undefined> => (signal.aborted ? Promise.reject(signal.reason as Error) : untilAborted(groupOf(key)(want), signal));
}

/** `p`, or the signal's reason once it aborts first (`p` goes on; its outcome is then nobody's). */
export function untilAborted<T>(p: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason as Error);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason as Error);
    signal.addEventListener("abort", onAbort, { once: true });
    p.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}
export type SharedToolListing = ReturnType<typeof createSharedToolListing>;
