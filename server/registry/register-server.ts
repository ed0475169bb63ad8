// A new upstream server: checked (slug, isolation, secrets, a package range resolved once), stored with its
// audit event in one transaction, then connected and its definitions recorded as its first version.
import { recognizePackageCommand } from "../../lib/package-command";
import { ZCreateServer, type TCreateServer, type TServerHint } from "../../lib/schemas";
import { storedSummary } from "../../lib/server-summary";
import { recordAudit } from "../audit/record-audit";
import { assertSlugNotReserved } from "../builtin/builtin-server";
import type { RequestContext } from "../context";
import { toJson } from "../db/client";
import { GatewayError } from "../errors";
import { launchOf } from "./registry-dto";
import type { RegistryScope } from "./registry-scope";
import { assertPackageProfile, checkSecretRefs, isolationFor, requirePackages } from "./server-checks";
import { serverWithTools, withOwnConnect } from "./server-rows";

export async function registerServer(scope: RegistryScope, ctx: RequestContext, input: TCreateServer) {
  const { db, whileBusy, connectAndSync, changed } = scope;
  const data = ZCreateServer.parse(input);
  assertSlugNotReserved(data.slug);
  if (await db.upstreamServer.findUnique({ where: { slug: data.slug }, select: { id: true } })) {
    throw new GatewayError("conflict", `A server with slug "${data.slug}" already exists.`);
  }
  const stdio = data.transport === "stdio";
  const pkg = data.transport === "npm" || data.transport === "pypi" ? data.package : undefined;
  if (pkg && data.isolation) assertPackageProfile(data.isolation);
  const isolation = stdio || pkg ? await isolationFor(scope, data.isolation) : undefined;
  if (pkg && isolation) assertPackageProfile(isolation); // the host's default
  await checkSecretRefs(scope, [data.env, data.headers], data.taskCredentials);
  // The range is resolved once, here: the server runs that exact version until an admin upgrades it.
  const resolved = pkg ? await requirePackages(scope).resolve(data.transport as "npm", pkg.name, pkg.version) : undefined;
  const recognised = stdio && data.command ? recognizePackageCommand(data.command, data.args) : null;
  const hints: TServerHint[] = recognised
    ? [{ code: "package_command", message: `${data.command ?? ""} fetches and runs the ${recognised.ecosystem} package ${recognised.name} at every start; register it as a ${recognised.ecosystem} package server to install it once and run it read-only.`, package: recognised }]
    : [];
  const row = await db.$transaction(async (tx) => {
    const created = await tx.upstreamServer.create({
      data: {
        slug: data.slug,
        name: data.name,
        summary: storedSummary(data.summary) ?? null,
        transport: data.transport.toUpperCase() as "STDIO",
        command: data.command ?? null,
        args: pkg ? pkg.args : data.args,
        ...(pkg &&
          resolved && { packageName: pkg.name, packageRange: pkg.version, packageVersion: resolved.version, packageIntegrity: resolved.integrity, packageBin: pkg.bin ?? null }),
        ...(data.connectTimeoutMs !== undefined && { connectTimeoutMs: data.connectTimeoutMs }),
        env: toJson(data.env),
        cwd: data.cwd ?? null,
        url: data.url ?? null,
        headers: toJson(data.headers),
        ...(isolation && { isolation: toJson(isolation) }),
        ...(stdio && data.taskCredentials && { taskCredentials: toJson(data.taskCredentials) }),
        enabled: data.enabled,
        status: data.enabled ? "CONNECTING" : "DISABLED",
        ...(data.timeoutMs !== undefined && { timeoutMs: data.timeoutMs }),
        ...(data.maxConcurrency !== undefined && { maxConcurrency: data.maxConcurrency }),
        ...(data.definitionReview !== undefined && { definitionReview: data.definitionReview }),
        ...(data.changedDefinitionCalls !== undefined && { changedDefinitionCalls: data.changedDefinitionCalls }),
      },
    });
    await recordAudit(tx, ctx, {
      action: "server.registered",
      targetType: "server",
      targetId: created.id,
      details: { slug: created.slug, transport: data.transport, ...(isolation && { isolation: isolation.profile }), ...(resolved && { package: `${resolved.name}@${resolved.version}` }) },
    });
    return created;
  });
  return whileBusy(row.id, async () => {
    const failed = row.enabled ? await connectAndSync(row, "active", launchOf(row)) : undefined;
    await changed(row.id);
    return { ...withOwnConnect(await serverWithTools(scope, row.slug), failed), ...(hints.length > 0 && { hints }) };
  });
}
