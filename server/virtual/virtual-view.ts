// A virtual server as its endpoint serves it: which upstream names its served names stand for, and back.
import { toGatewayName } from "../registry/gateway-name";
import { servedName } from "./served-name";
import type { VirtualServerRow } from "./virtual-server-dto";

type Named = { gatewayName: string; served: string; description: string | null };

export type VirtualView = {
  id: string;
  name: string;
  instructions: string;
  /** Tools and prompts by served name, and by gateway name (`<slug>__<name>`). */
  tools: { byServed: Map<string, Named>; byGateway: Map<string, Named> };
  prompts: { byServed: Map<string, Named>; byGateway: Map<string, Named> };
  /** Resources by `<slug> <uri>`: a URI is a member only as offered by its server. */
  resources: Map<string, { description: string | null }>;
};

export const resourceKey = (slug: string, uri: string) => `${slug} ${uri}`;

function gatewayNameOf(slug: string, name: string): string | null {
  try {
    return toGatewayName(slug, name);
  } catch {
    return null; // a member whose name no upstream tool could have: never served
  }
}

export function virtualViewOf(row: VirtualServerRow): VirtualView {
  const index = () => ({ byServed: new Map<string, Named>(), byGateway: new Map<string, Named>() });
  const view: VirtualView = { id: row.id, name: row.name, instructions: row.instructions, tools: index(), prompts: index(), resources: new Map() };
  for (const m of row.members) {
    if (m.kind === "RESOURCE") {
      view.resources.set(resourceKey(m.serverSlug, m.name), { description: m.description });
      continue;
    }
    const gatewayName = gatewayNameOf(m.serverSlug, m.name);
    if (!gatewayName) continue;
    const named = { gatewayName, served: servedName(m), description: m.description };
    const at = m.kind === "TOOL" ? view.tools : view.prompts;
    at.byServed.set(named.served, named);
    at.byGateway.set(gatewayName, named);
  }
  return view;
}
