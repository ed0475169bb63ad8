// What a listen stream compares after each change (list-fingerprint.ts): the tools, prompts and resources an
// agent session sees on its endpoint, read from the registry's snapshot and the policy (no upstream is asked,
// nothing is audited) and filtered as the endpoint filters its lists — by the session's grant and whitelist,
// the endpoint's server, or the virtual server's members.
import type { SessionGrant } from "../../policy/evaluate";
import type { PolicyCache } from "../../policy/policy-cache";
import { sessionAccess } from "../../policy/session-access";
import type { Registry } from "../../registry/create-registry";
import { resourceKey, type VirtualView } from "../../virtual/virtual-view";
import type { McpEndpoint } from "../mcp-endpoint";
import { listFingerprint, type ListFingerprint, type ListView } from "./list-fingerprint";

export type ListViewDeps = { registry: Pick<Registry, "visibleTools" | "visibleServers">; policy: PolicyCache; virtual(name: string): Promise<VirtualView | null> };

export async function listenView(deps: ListViewDeps, endpoint: McpEndpoint, grant: SessionGrant, bucket: number): Promise<ListView> {
  const [access, tools, servers, virtual] = await Promise.all([
    sessionAccess(deps.policy, grant),
    deps.registry.visibleTools(bucket),
    deps.registry.visibleServers(bucket),
    endpoint.kind === "virtual" ? deps.virtual(endpoint.name) : Promise.resolve(null),
  ]);
  const inScope = (slug: string) => endpoint.kind !== "server" || endpoint.slug === slug;
  const member = (kind: "tools" | "prompts", gatewayName: string) => endpoint.kind !== "virtual" || (virtual?.[kind].byGateway.has(gatewayName) ?? false);
  const view: ListView = { tools: [], prompts: [], resources: [] };
  for (const t of tools) if ((endpoint.kind !== "server" || t.name.startsWith(`${endpoint.slug}__`)) && access.mayUse(t.name) && member("tools", t.name)) view.tools.push(t);
  for (const s of servers) {
    if (!inScope(s.slug)) continue;
    for (const p of s.defs.prompts) if (access.mayUse(`${s.slug}__${p.name}`) && member("prompts", `${s.slug}__${p.name}`)) view.prompts.push([s.slug, p]);
    for (const r of s.defs.resources) {
      if (access.mayRead(r.uri) && (endpoint.kind !== "virtual" || virtual?.resources.has(resourceKey(s.slug, r.uri)))) view.resources.push([s.slug, r]);
    }
    for (const t of s.defs.resourceTemplates) view.resources.push([s.slug, t]);
  }
  return view;
}

/** The session's view as a listen stream compares it, and what it may read now (resource updates are sent by it). */
export async function listenLook(deps: ListViewDeps, endpoint: McpEndpoint, grant: SessionGrant, bucket: number): Promise<{ fingerprint: ListFingerprint; mayRead: (uri: string) => boolean }> {
  const [view, access] = await Promise.all([listenView(deps, endpoint, grant, bucket), sessionAccess(deps.policy, grant)]);
  return { fingerprint: listFingerprint(view), mayRead: access.mayRead };
}
