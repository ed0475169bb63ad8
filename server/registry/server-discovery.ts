// What the upstreams offer, recorded: every enabled server connected at start-up (active and canary), and
// the definitions a connected upstream announces later (list_changed, a reconnect) stored as a new version.
import type { UpstreamLaunch } from "../upstream/upstream-client";
import type { UpstreamSpec } from "../upstream/upstream-pool";
import type { UpstreamDefinitions } from "./definitions";
import { launchOf } from "./registry-dto";
import type { RegistryScope } from "./registry-scope";
import { syncDefinitions } from "./sync-definitions";

/** Pool callback: the upstream's definitions changed. */
export async function onDefinitions({ db, log, changed, reviewWebhookUrl }: RegistryScope, spec: UpstreamSpec, defs: UpstreamDefinitions) {
  const res = await db.$transaction((tx) => syncDefinitions(tx, spec.serverId, spec.role, spec.launch, defs, { reviewWebhookUrl }));
  // Agents keep the pinned definitions: nothing they see changed, so nothing is announced to them.
  if (res.changed && res.pending) log.warn({ server: spec.slug, role: spec.role, version: res.version }, "definitions changed: new version pending review");
  else if (res.changed) {
    log.info({ server: spec.slug, role: spec.role, version: res.version }, "definitions changed: new version");
    await changed(spec.serverId);
  }
}

/** Connects every enabled server (active and canary). Called once at start-up. */
export async function startAll({ db, whileBusy, connectAndSync, changed }: RegistryScope) {
  const rows = await db.upstreamServer.findMany({ where: { enabled: true, transport: { not: "BUILTIN" } }, include: { activeVersion: true, canaryVersion: true } });
  await Promise.all(
    rows.map((s) =>
      whileBusy(s.id, () =>
        Promise.all([
          connectAndSync(s, "active", (s.activeVersion?.launch as UpstreamLaunch | undefined) ?? launchOf(s)),
          ...(s.canaryVersion ? [connectAndSync(s, "canary", s.canaryVersion.launch as UpstreamLaunch)] : []),
        ]),
      ),
    ),
  );
  await changed();
}
