// A per_user server registered before anyone connected an account cannot be listed: its connect fails and the pool
// retries with backoff (here ten minutes, so only the event can bring it up within the test). When an admin
// connects their account, through another gateway process, the process holding the server connects it at once
// (change bus `upstream_account`, registry/retry-waiting-server.ts): the server is HEALTHY and its tools recorded.
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { User } from "../db/client";
import { insertUser, userContext } from "../test/contexts";
import { followIdpPages } from "../test/fixtures/oidc-code-flow";
import { agentToken, connectAgent, grantEverything, removeTempDirs, startTestGateway, waitUntil, type TestGateway } from "../test/gateway-harness";
import { createTestDb, truncateAll } from "../test/test-db";
import { startUpstreamIdp, type UpstreamIdp } from "../test/upstream-idp";
import { upstreamRedirectUri } from "./upstream-client-document";

const PUBLIC_URL = "http://portcullis.test";

describe("the first account connected for a per_user server", () => {
  const db = createTestDb();
  let idp: UpstreamIdp;
  let holder: TestGateway;
  let other: TestGateway;

  beforeAll(async () => {
    await truncateAll(db);
    idp = await startUpstreamIdp({ accounts: { root: { email: "root@corp.test" } }, clients: [] });
    const env = { PUBLIC_URL, SECRETS_KEY: randomBytes(32).toString("base64") };
    const pool = { reconnectDelayMs: 600_000, maxReconnectDelayMs: 600_000 };
    holder = await startTestGateway({ env, pool });
    other = await startTestGateway({ env, pool });
  }, 90_000);

  afterAll(async () => {
    await holder?.close();
    await other?.close();
    await idp?.stop();
    await removeTempDirs();
  });

  async function connectAccount(gw: TestGateway, user: User, serverId: string) {
    const { authorizationUrl } = await gw.gateway.upstreamAuth().connect(user.id, serverId);
    const q = new URL(await followIdpPages(authorizationUrl, "root", (u) => u.startsWith(upstreamRedirectUri(PUBLIC_URL)))).searchParams;
    await gw.gateway.upstreamAuth().callback(userContext(user), user.id, { state: q.get("state"), code: q.get("code"), iss: q.get("iss") });
  }

  it("is connected at once by the process holding it, not at its next backoff step", async () => {
    const root = await insertUser(db, { role: "ADMIN" });
    const { id: serverId } = await db.upstreamServer.create({ data: { slug: "tracker", name: "Tracker", transport: "HTTP", url: idp.upstreamUrl, authMode: "per_user", authConfig: { scopes: ["mcp"] } } });
    await holder.gateway.startUpstreams();
    const down = await db.upstreamServer.findUniqueOrThrow({ where: { id: serverId }, select: { status: true, activeVersionId: true } });
    expect(down).toEqual({ status: "DOWN", activeVersionId: null });

    await connectAccount(other, root, serverId);
    const up = await waitUntil("the holding process to connect the server", async () => {
      const s = await db.upstreamServer.findUniqueOrThrow({ where: { id: serverId }, select: { status: true, activeVersionId: true } });
      return s.status === "HEALTHY" && s.activeVersionId ? s : undefined;
    }, 20_000);
    expect(up.status).toBe("HEALTHY");
    expect((await db.tool.findMany({ where: { serverId }, select: { name: true } })).map((t) => t.name)).toContain("whoami");
    // Both processes' agents are offered the tools and reach the upstream as the admin.
    await grantEverything(db, root.id);
    for (const gw of [holder, other]) {
      const agent = await connectAgent(gw.mcpUrl, await agentToken(db, root));
      try {
        expect((await agent.client.listTools()).tools.map((t) => t.name)).toContain("tracker__whoami");
        expect((await agent.client.callTool({ name: "tracker__whoami", arguments: {} })).structuredContent).toMatchObject({ sub: "root" });
      } finally {
        await agent.close();
      }
    }
  });
});
