// tools/list on any MCP endpoint: the upstream tools the session may use, under the endpoint's names (as
// tasks when an agent session can follow them), and the gateway's own tools the endpoint offers, less those an
// admin disabled. Least privilege: what the session may not use is not listed either.
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { builtinGatewayName } from "../builtin/builtin-server";
import type { PolicyCache } from "../policy/policy-cache";
import { sessionAccess } from "../policy/session-access";
import type { Registry } from "../registry/create-registry";
import { asTaskCapable } from "../tasks/task-tools";
import type { DispatchSession } from "./dispatch-tool-call";
import type { EndpointNaming } from "./endpoint-naming";

export type ListDeps = { registry: Registry; policy: PolicyCache; builtinReady?: (() => Promise<void>) | undefined };

export async function listEndpointTools(deps: ListDeps, naming: EndpointNaming, session: Pick<DispatchSession, "grant" | "bucket">): Promise<Tool[]> {
  await deps.builtinReady?.();
  const [{ mayUse }, visible] = await Promise.all([sessionAccess(deps.policy, session.grant), deps.registry.visibleTools(session.bucket)]);
  const upstream = naming.expose(visible.filter((t) => mayUse(t.name)));
  const builtins: Tool[] = [];
  for (const t of naming.builtins) {
    const r = await deps.registry.resolveTool(builtinGatewayName(t.name), session.bucket);
    if (!("error" in r) && !r.refusal) builtins.push(t);
  }
  // Sorted by name (code units, not locale): the same list in the same order for every call, which clients
  // cache and models' prompt caches hit on (2026-07-28 asks for a deterministic order; 2025 clients gain too).
  return [...(session.grant.agentSessionId ? upstream.map(asTaskCapable) : upstream), ...builtins].sort(byName);
}

const byName = (a: Tool, b: Tool) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
