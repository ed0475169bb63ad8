// token_exchange's subject token (issue 22): in enterprise mode the agent's own bearer from the external identity
// provider is carried to the upstream credentials with the call, and is never logged or audited. The provider
// is the real oidc-provider process; the gateway verifies the agent's token against it, the upstream its own.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLogger } from "../logger";
import { insertUser, userContext } from "../test/contexts";
import { fixtureCredentials, type FixtureCredentials } from "../test/fixture-upstream-credentials";
import { connectAgent, errorMeta, grantEverything, removeTempDirs, startTestGateway, type Agent, type TestGateway } from "../test/gateway-harness";
import { startProtectedUpstream, type ProtectedUpstream } from "../test/protected-upstream";
import { createTestDb, truncateAll } from "../test/test-db";

const CLIENTS = [{ client_id: "dee", client_secret: "dee-secret", email: "dee@corp.test", scope: "read" }];

describe("token_exchange: the agent's external bearer reaches the credentials with the call, and nowhere else", () => {
  const db = createTestDb();
  let up: ProtectedUpstream;
  let creds: FixtureCredentials;
  let gw: TestGateway;
  let agent: Agent;
  let agentBearer = "";
  const logLines: string[] = [];

  beforeAll(async () => {
    await truncateAll(db);
    up = await startProtectedUpstream(CLIENTS);
    creds = fixtureCredentials(db, up, { modes: { exchanged: "token_exchange" }, sharedClient: "dee", adminClient: "dee", connectUrl: (slug) => `https://portcullis.test/connections?server=${slug}` });
    gw = await startTestGateway({
      publicUrlIsServed: true,
      env: { OAUTH_ISSUER: up.issuer },
      logger: createLogger("debug", {}, { write: (line: string) => void logLines.push(line) }),
      upstreamAuth: { credentials: creds, authModeOf: (s) => creds.modeOf(s) },
    });
    const admin = userContext(await insertUser(db, { role: "ADMIN" }));
    const { server } = await gw.gateway.registry.register(admin, { slug: "exchanged", name: "exchanged", transport: "http", url: up.url });
    if (server.status !== "HEALTHY") throw new Error(`exchanged is ${server.status}: ${server.lastError ?? ""}`);
    await grantEverything(db, (await insertUser(db, { email: "dee@corp.test" })).id);
    agentBearer = await up.token("dee", new URL("/mcp", gw.http.url).href);
    agent = await connectAgent(gw.mcpUrl, agentBearer);
  });

  afterAll(async () => {
    await agent?.close();
    await gw?.close();
    await up?.stop();
    await db.$disconnect();
    await removeTempDirs();
  });

  it("the call's identity carries the agent's bearer as subjectToken; the upstream answers the exchanged identity", async () => {
    const result = await agent.client.callTool({ name: "exchanged__whoami", arguments: {} });
    expect(errorMeta(result)).toEqual({});
    expect(result.structuredContent).toMatchObject({ sub: "dee", email: "dee@corp.test" });
    expect(creds.asked.forCall.at(-1)?.subjectToken).toBe(agentBearer);
    const event = await db.auditEvent.findFirstOrThrow({ where: { action: "tool.called", toolName: "exchanged__whoami" } });
    expect(event.details).toMatchObject({ credential: { mode: "token_exchange", connectionId: null } });
  });

  it("the subject token is in no audit event and no log line", async () => {
    const signature = agentBearer.split(".")[2]!;
    const stored = JSON.stringify(await db.auditEvent.findMany(), (_k, v: unknown) => (typeof v === "bigint" ? String(v) : v));
    expect(stored).not.toContain(signature);
    expect(logLines.length).toBeGreaterThan(0);
    expect(logLines.join("\n")).not.toContain(signature);
  });
});
