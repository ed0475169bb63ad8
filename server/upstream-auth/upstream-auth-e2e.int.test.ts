// Issue 22 through the whole gateway: a per_user server (a real protected upstream behind a real authorization
// server process), the admin's connection listing its tools, two users who connected their own accounts through
// the provider's login pages calling it over /mcp and each seeing their own identity, a third user told
// upstream_auth_required with the connect URL, and each call's audit event naming the credential it used.
import { randomBytes } from "node:crypto";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { User } from "../db/client";
import { insertUser, userContext } from "../test/contexts";
import { agentToken, connectAgent, errorMeta, grantEverything, removeTempDirs, startTestGateway, type Agent, type TestGateway } from "../test/gateway-harness";
import { followIdpPages } from "../test/fixtures/oidc-code-flow";
import { createTestDb, truncateAll } from "../test/test-db";
import { startUpstreamIdp, type UpstreamIdp } from "../test/upstream-idp";
import { upstreamRedirectUri } from "./upstream-client-document";

const PUBLIC_URL = "http://portcullis.test";

describe("per_user upstream through the gateway", () => {
  const db = createTestDb();
  let idp: UpstreamIdp;
  let t: TestGateway;
  const agents: Agent[] = [];
  let serverId = "";

  async function connectAccount(user: User, login: string) {
    const { authorizationUrl } = await t.gateway.upstreamAuth().connect(user.id, serverId);
    const q = new URL(await followIdpPages(authorizationUrl, login, (u) => u.startsWith(upstreamRedirectUri(PUBLIC_URL)))).searchParams;
    await t.gateway.upstreamAuth().callback(userContext(user), user.id, { state: q.get("state"), code: q.get("code"), iss: q.get("iss") });
  }
  async function agentOf(user: User) {
    await grantEverything(db, user.id);
    const a = await connectAgent(t.mcpUrl, await agentToken(db, user));
    agents.push(a);
    return a;
  }

  beforeAll(async () => {
    await truncateAll(db);
    idp = await startUpstreamIdp({ accounts: { root: { email: "root@corp.test" }, alice: { email: "alice@corp.test" }, bob: { email: "bob@corp.test" } }, clients: [] });
    t = await startTestGateway({ env: { PUBLIC_URL, SECRETS_KEY: randomBytes(32).toString("base64") } });
  }, 90_000);

  afterAll(async () => {
    for (const a of agents) await a.close();
    await t?.close();
    await idp?.stop();
    await removeTempDirs();
  });

  it("each user's agent sees only its own identity; a user with no connection gets upstream_auth_required", async () => {
    const [root, alice, bob, carol] = [await insertUser(db, { role: "ADMIN" }), await insertUser(db), await insertUser(db), await insertUser(db)];
    serverId = (await db.upstreamServer.create({ data: { slug: "tracker", name: "Tracker", transport: "HTTP", url: idp.upstreamUrl, authMode: "per_user", authConfig: { scopes: ["mcp"] } } })).id;
    await connectAccount(root, "root");
    await t.gateway.startUpstreams();
    expect(await db.upstreamServer.findUniqueOrThrow({ where: { id: serverId }, select: { status: true } })).toEqual({ status: "HEALTHY" });
    await connectAccount(alice, "alice");
    await connectAccount(bob, "bob");
    const [a, b, c] = [await agentOf(alice), await agentOf(bob), await agentOf(carol)];
    const call = (ag: Agent) => ag.client.callTool({ name: "tracker__whoami", arguments: {} }) as Promise<CallToolResult>;
    expect((await call(a)).structuredContent).toMatchObject({ sub: "alice", email: "alice@corp.test" });
    expect((await call(b)).structuredContent).toMatchObject({ sub: "bob", email: "bob@corp.test" });
    const refused = await call(c);
    expect(refused.isError).toBe(true);
    expect(errorMeta(refused)).toMatchObject({ code: "upstream_auth_required" });
    expect(JSON.stringify(refused)).toContain(`${PUBLIC_URL}/connections?server=tracker`);
    // The Connections page offers the server to carol, who may call its tools, and not to dave, who may call none.
    const dave = await insertUser(db);
    expect((await t.gateway.upstreamAuth().listMine(carol.id)).available).toEqual([{ serverId, serverSlug: "tracker", serverName: "Tracker" }]);
    expect((await t.gateway.upstreamAuth().listMine(dave.id)).available).toEqual([]);
    const aliceConn = await db.upstreamConnection.findFirstOrThrow({ where: { userId: alice.id } });
    const events = await db.auditEvent.findMany({ where: { action: "tool.called", userId: alice.id } });
    expect(JSON.stringify(events.map((e) => e.details))).toContain(aliceConn.id);
  }, 60_000);
});
