// The Portcullis under test of the conformance suite's client auth scenarios: a gateway (the test's) behind a small
// HTTP endpoint that scripts/conformance-upstream-client.mjs (the command the suite runs) hands each scenario's
// server URL to. For each: the server is registered as an upstream (disabled until its auth is set), in mode
// per_user (client_credentials for the client-credentials scenarios; a pre-registered client when the scenario
// gives one), a user's account is connected by following the authorization URL headlessly (the suite's
// authorization endpoint redirects at once), the server is enabled (its tools listed with that connection) and its
// tool is called through the gateway's pipeline. A call answered upstream_auth_required is answered as a user
// would: connecting again, once.
import { randomUUID } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { RequestContext } from "../../server/context";
import type { Db } from "../../server/db/client";
import type { Gateway } from "../../server/index";
import { upstreamRedirectUri } from "../../server/upstream-auth/upstream-client-document";
import { waitUntil } from "./wait-until";

export type ScenarioRun = { serverUrl: string; scenario: string; context: { client_id?: string; client_secret?: string } };

async function runScenario(gateway: Gateway, db: Db, run: ScenarioRun, log: (m: string) => void): Promise<boolean> {
  const auth = gateway.upstreamAuth();
  const user = await db.user.create({ data: { email: `conformance-${randomUUID()}@portcullis.test`, name: "conformance", role: "ADMIN", passwordHash: "!" } });
  const ctx: RequestContext = { actor: { type: "user", userId: user.id, email: user.email, role: user.role }, requestId: randomUUID(), via: "system" };
  const slug = `conf-${randomUUID().slice(0, 8)}`;
  const { server } = await gateway.registry.register(ctx, { slug, name: slug, transport: "http", url: run.serverUrl, enabled: false });
  const clientCredentials = run.scenario.startsWith("auth/client-credentials");
  await auth.updateServerAuth(ctx, server.id, { mode: clientCredentials ? "client_credentials" : "per_user", ...(run.context.client_id && { clientId: run.context.client_id }), ...(run.context.client_secret && { clientSecret: run.context.client_secret }) });
  const connect = async () => {
    const { authorizationUrl } = await auth.connect(user.id, server.id);
    const res = await fetch(authorizationUrl, { redirect: "manual" });
    const location = res.headers.get("location");
    if (!location?.startsWith(upstreamRedirectUri(gateway.config.publicUrl))) throw new Error(`the authorization endpoint did not redirect to the callback (${String(res.status)})`);
    const q = new URL(location).searchParams;
    await auth.callback(ctx, user.id, { state: q.get("state"), code: q.get("code"), iss: q.get("iss"), error: q.get("error") });
    log("connected");
  };
  if (!clientCredentials) await connect();
  await gateway.registry.update(ctx, slug, { enabled: true });
  for (let attempt = 0; ; attempt++) {
    const result = await gateway.tryToolCall(ctx, `${slug}__test-tool`, {}).catch(async (err: unknown) => {
      // The connection's first listing was refused for its account (the gateway's first authenticated request, its
      // server/discover probe, can be the one after which a server changes its authorization server): the server
      // has no tools yet. A user connects again, which reconnects the server waiting for an account (D139).
      if (attempt > 0 || !String(err).includes("Unknown tool")) throw err;
      log(`no tools listed yet (${String(err).slice(0, 120)}): connecting again`);
      await connect();
      await waitUntil("the server's tools to be listed after connecting again", async () => ("error" in (await gateway.registry.resolveTool(`${slug}__test-tool`, 0)) ? undefined : true), { timeoutMs: 30_000, intervalMs: 100 });
      return null;
    });
    if (!result) continue;
    log(`test-tool answered ${JSON.stringify(result).slice(0, 300)}`);
    if (result.isError && JSON.stringify(result).includes("upstream_auth_required") && attempt === 0) {
      await connect();
      continue;
    }
    return !result.isError;
  }
}

/** Serves POST /run (a ScenarioRun) → 200 { ok, log } until close(). */
export async function startConformancePortcullis(gateway: Gateway, db: Db): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8").on("data", (c: string) => (body += c));
    req.on("end", () => {
      const lines: string[] = [];
      const log = (m: string) => lines.push(m);
      void runScenario(gateway, db, JSON.parse(body) as ScenarioRun, log)
        .catch((err: unknown) => {
          log(`failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
          return false;
        })
        .then((ok) => res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ ok, log: lines })));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${String((server.address() as AddressInfo).port)}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
