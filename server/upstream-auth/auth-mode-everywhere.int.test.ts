// A server's upstream auth mode changed through one gateway process holds on another from its next call: the
// change answers only once every process listening on the change bus has confirmed it (a third listener holds its
// confirmation back until the test releases it), and a process's calls wait for the reload of the modes the change
// started. Here a server moves from the shared account to each user's own: the next call on the other process
// must not go out under the shared account.
import { randomBytes } from "node:crypto";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertUser, userContext } from "../test/contexts";
import { followIdpPages } from "../test/fixtures/oidc-code-flow";
import type { UpstreamAuthMode } from "./upstream-credentials";
import { fixtureCredentials } from "../test/fixture-upstream-credentials";
import { agentToken, busHears, connectAgent, errorMeta, grantEverything, removeTempDirs, startTestGateway, waitUntil, type Agent, type TestGateway } from "../test/gateway-harness";
import { startProtectedUpstream, type ProtectedUpstream } from "../test/protected-upstream";
import { orderBehindSlowListener } from "../test/slow-bus-listener";
import { createTestDb, testDatabaseUrl, truncateAll } from "../test/test-db";
import { startUpstreamIdp, type UpstreamIdp } from "../test/upstream-idp";
import { upstreamRedirectUri } from "./upstream-client-document";

const PUBLIC_URL = "http://portcullis.test";

describe("an upstream auth mode changed on one process", () => {
  const db = createTestDb();
  let idp: UpstreamIdp;
  let a: TestGateway;
  let b: TestGateway;
  let agent: Agent | undefined;

  beforeAll(async () => {
    await truncateAll(db);
    idp = await startUpstreamIdp({ accounts: { root: { email: "root@corp.test" } }, clients: [] });
    const env = { PUBLIC_URL, SECRETS_KEY: randomBytes(32).toString("base64") };
    a = await startTestGateway({ env });
    b = await startTestGateway({ env });
    for (const g of [a, b]) await busHears(db, g.gateway);
  }, 90_000);

  afterAll(async () => {
    await agent?.close();
    await b?.close();
    await a?.close();
    await idp?.stop();
    await db.$disconnect();
    await removeTempDirs();
  });

  it("holds on the other process from its next call: shared → per_user, and the call no longer goes out as the shared account", async () => {
    const root = await insertUser(db, { role: "ADMIN" });
    const { id: serverId } = await db.upstreamServer.create({ data: { slug: "tracker", name: "Tracker", transport: "HTTP", url: idp.upstreamUrl, authMode: "shared", authConfig: { scopes: ["mcp"] } } });
    // The admin connects the shared account through A.
    const { authorizationUrl } = await a.gateway.upstreamAuth().connectShared(root.id, serverId);
    const q = new URL(await followIdpPages(authorizationUrl, "root", (u) => u.startsWith(upstreamRedirectUri(PUBLIC_URL)))).searchParams;
    await a.gateway.upstreamAuth().callback(userContext(root), root.id, { state: q.get("state"), code: q.get("code"), iss: q.get("iss") });
    // The row was written behind the registry's back (no change event): B reads the modes once more.
    await b.gateway.upstreamAuth().modes.reload();
    await b.gateway.startUpstreams();
    const started = await db.upstreamServer.findUniqueOrThrow({ where: { id: serverId }, select: { status: true, lastError: true } });
    expect(started.status, started.lastError ?? "").toBe("HEALTHY");

    const alice = await insertUser(db, { email: "alice@corp.test" });
    await grantEverything(db, alice.id);
    agent = await connectAgent(b.mcpUrl, await agentToken(db, alice));
    const call = () => agent!.client.callTool({ name: "tracker__whoami", arguments: {} }) as Promise<CallToolResult>;
    expect((await call()).structuredContent).toMatchObject({ sub: "root" });

    expect(await orderBehindSlowListener(testDatabaseUrl(), () => a.gateway.upstreamAuth().updateServerAuth(userContext(root), serverId, { mode: "per_user" }))).toEqual(["confirmed", "answered"]);
    // alice has no account of her own: refused, instead of answered as root.
    const refused = await call();
    expect(refused.isError).toBe(true);
    expect(errorMeta(refused)).toMatchObject({ code: "upstream_auth_required" });
  }, 60_000);
});

describe("a call while the modes are being reloaded after a change", () => {
  const db = createTestDb();
  let up: ProtectedUpstream;
  let gw: TestGateway;
  let agent: Agent | undefined;
  const modes: Record<string, UpstreamAuthMode> = { moving: "shared" };
  let settling: Promise<void> | undefined;
  let asked = 0;

  beforeAll(async () => {
    await truncateAll(db);
    up = await startProtectedUpstream([
      { client_id: "ann", client_secret: "ann-secret", email: "ann@corp.test", scope: "read" },
      { client_id: "admin-conn", client_secret: "admin-secret", email: "admin@corp.test", scope: "read" },
      { client_id: "service", client_secret: "service-secret", email: "service@corp.test", scope: "read" },
    ]);
    const creds = fixtureCredentials(db, up, { modes, sharedClient: "service", adminClient: "admin-conn", connectUrl: (slug) => `${PUBLIC_URL}/connections?server=${slug}` });
    const authModesSettling = () => {
      asked++;
      return settling;
    };
    gw = await startTestGateway({ upstreamAuth: { credentials: creds, authModeOf: (server) => creds.modeOf(server), authModesSettling } });
    const admin = userContext(await insertUser(db, { role: "ADMIN" }));
    const { server } = await gw.gateway.registry.register(admin, { slug: "moving", name: "moving", transport: "http", url: `${up.url}?as=moving` });
    if (server.status !== "HEALTHY") throw new Error(`moving is ${server.status}: ${server.lastError ?? ""}`);
    const ann = await insertUser(db, { email: "ann@corp.test" });
    await grantEverything(db, ann.id);
    creds.connect(ann.id, "ann");
    agent = await connectAgent(gw.mcpUrl, await agentToken(db, ann));
  }, 90_000);

  afterAll(async () => {
    await agent?.close();
    await gw?.close();
    await up?.stop();
    await db.$disconnect();
    await removeTempDirs();
  });

  it("waits for the reload before it reads the mode: it goes out with the new mode's credential", async () => {
    const call = () => agent!.client.callTool({ name: "moving__whoami", arguments: {} }) as Promise<CallToolResult>;
    expect((await call()).structuredContent).toMatchObject({ sub: "service" });
    let release = () => {};
    settling = new Promise<void>((resolve) => (release = resolve));
    const before = asked;
    const pending = call();
    // The call has reached the pool and is waiting on the reload: the reload now ends with the new mode.
    await waitUntil("the call to wait for the reload", () => asked > before);
    modes.moving = "per_user";
    settling = undefined;
    release();
    expect((await pending).structuredContent).toMatchObject({ sub: "ann" });
  });
});
