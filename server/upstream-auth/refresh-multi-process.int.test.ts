// One refresh per token across gateway processes (issue 22): a connection whose access token has expired, asked
// for by 10 concurrent calls on each of two gateway processes at once, is refreshed exactly once at the provider
// (a per-connection advisory lock; the process that waited re-reads the row and takes the new token), and every
// caller gets that one new token.
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { compiledScript } from "../test/compiled-script";
import { createInterface } from "node:readline";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertUser, userContext } from "../test/contexts";
import { REPO_ROOT, startTestGateway, type TestGateway } from "../test/gateway-harness";
import { followIdpPages } from "../test/fixtures/oidc-code-flow";
import { createTestDb, testDatabaseUrl, truncateAll } from "../test/test-db";
import { startUpstreamIdp, type UpstreamIdp } from "../test/upstream-idp";
import { upstreamRedirectUri } from "./upstream-client-document";

const PUBLIC_URL = "http://portcullis.test";
const ENV = { DATABASE_URL: testDatabaseUrl(), SECRETS_KEY: randomBytes(32).toString("base64"), PUBLIC_URL };

type Worker = { child: ChildProcessWithoutNullStreams; ask(req: object): Promise<string[]> };

async function startWorker(): Promise<Worker> {
  const child = spawn(process.execPath, [await compiledScript("server/test/fixtures/upstream-credentials-process.ts")], { cwd: REPO_ROOT, env: { ...process.env, ...ENV } });
  let stderr = "";
  await new Promise<void>((resolve, reject) => {
    child.stderr.on("data", (c: Buffer) => {
      stderr += c.toString();
      if (stderr.includes("ready")) resolve();
    });
    child.once("exit", () => reject(new Error(`the worker exited: ${stderr}`)));
  });
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  return {
    child,
    async ask(req) {
      child.stdin.write(`${JSON.stringify(req)}\n`);
      const next = await lines.next();
      return JSON.parse(String(next.value)) as string[];
    },
  };
}

describe("upstream token refresh on two gateway processes", () => {
  const db = createTestDb();
  let idp: UpstreamIdp;
  let t: TestGateway;
  const workers: Worker[] = [];

  beforeAll(async () => {
    await truncateAll(db);
    idp = await startUpstreamIdp({ accounts: { alice: { email: "alice@corp.test" } }, clients: [] });
    t = await startTestGateway({ env: ENV });
    workers.push(...(await Promise.all([startWorker(), startWorker()])));
  }, 90_000);

  afterAll(async () => {
    for (const w of workers) {
      w.child.stdin.end();
      if (w.child.exitCode === null) await new Promise((r) => w.child.once("exit", r));
    }
    await t?.close();
    await idp?.stop();
  });

  it("20 concurrent callers on two processes: exactly one refresh at the provider, one new token for all", async () => {
    const alice = await insertUser(db);
    const serverId = (await db.upstreamServer.create({ data: { slug: "tracker", name: "Tracker", transport: "HTTP", url: idp.upstreamUrl, authMode: "per_user", authConfig: { scopes: ["mcp"] } } })).id;
    const { authorizationUrl } = await t.gateway.upstreamAuth().connect(alice.id, serverId);
    const q = new URL(await followIdpPages(authorizationUrl, "alice", (u) => u.startsWith(upstreamRedirectUri(PUBLIC_URL)))).searchParams;
    await t.gateway.upstreamAuth().callback(userContext(alice), alice.id, { state: q.get("state"), code: q.get("code"), iss: q.get("iss") });
    const old = await t.gateway.upstreamCredentials().forCall({ serverId, userId: alice.id, agentSessionId: "s" });
    if (old.kind !== "bearer") throw new Error("no bearer");
    await db.upstreamConnection.updateMany({ where: { userId: alice.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const before = (await idp.stats()).refresh_token;

    const answers = (await Promise.all(workers.map((w) => w.ask({ serverId, userId: alice.id, calls: 10 })))).flat();

    expect(answers).toHaveLength(20);
    expect(new Set(answers).size).toBe(1);
    expect(answers[0]).not.toBe(createHash("sha256").update(old.accessToken).digest("hex"));
    expect(answers[0]).toMatch(/^[0-9a-f]{64}$/);
    expect((await idp.stats()).refresh_token).toBe(before + 1);
    expect(await db.auditEvent.count({ where: { action: "upstream.token_refreshed" } })).toBe(1);
  }, 60_000);
});
