// The embedded authorization server on two gateway processes sharing one database and one secrets key: their
// first OAuth requests, at the same moment, agree on one signing key; a rotation made elsewhere is published by
// both on their next request; a client blocked (by many admins at once) is refused by both on their next lookup.
import type { ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseSecretsKey, secretKey } from "../../secrets/secret-crypto";
import { insertUser, userContext } from "../../test/contexts";
import { spawnGatewayProcess } from "../../test/gateway-harness";
import { createTestDb, truncateAll } from "../../test/test-db";
import { rotateSigningKey } from "./signing-keys";
import { blockOAuthClient, unblockOAuthClient } from "./block-oauth-client";

const SECRETS_KEY = randomBytes(32).toString("base64");

describe("embedded authorization server on two processes", () => {
  const db = createTestDb();
  const children: ChildProcess[] = [];
  const urls: string[] = [];
  let dataDir = "";
  const kids = async (url: string) => ((await (await fetch(`${url}/oauth/jwks`)).json()) as { keys: { kid: string }[] }).keys.map((k) => k.kid);

  beforeAll(async () => {
    await truncateAll(db);
    dataDir = await mkdtemp(path.join(os.tmpdir(), "oauth-as-"));
    const env = { PUBLIC_URL: "http://gateway.test", SECRETS_KEY, DATA_DIR: dataDir };
    for (const p of await Promise.all([spawnGatewayProcess(env), spawnGatewayProcess(env)])) {
      children.push(p.child);
      urls.push(p.url);
    }
  }, 90_000);

  afterAll(async () => {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill("SIGKILL");
    await db.$disconnect();
    await rm(dataDir, { recursive: true, force: true });
  });

  it("concurrent first requests on both processes publish the same single key", async () => {
    const [a, b] = await Promise.all(urls.map(kids));
    expect(a).toHaveLength(1);
    expect(b).toEqual(a);
    expect(await db.oAuthSigningKey.count()).toBe(1);
  });

  it("a rotation is published by both processes, the new key first, the retired one still there", async () => {
    const [before] = await kids(urls[0]!);
    const { kid } = await rotateSigningKey(db, userContext(await insertUser(db, { role: "ADMIN" })), secretKey(parseSecretsKey(SECRETS_KEY)!));
    for (const url of urls) expect(await kids(url)).toEqual([kid, before]);
  });

  it("a block made elsewhere, by ten concurrent callers, is one row and one audit event, and both processes refuse the client at once", async () => {
    const registered = await fetch(`${urls[0]!}/oauth/register`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ client_name: "Two", redirect_uris: ["http://127.0.0.1:53682/callback"], token_endpoint_auth_method: "none" }) });
    expect(registered.status).toBe(201);
    const clientId = ((await registered.json()) as { client_id: string }).client_id;
    const query = new URLSearchParams({ client_id: clientId, response_type: "code", redirect_uri: "http://127.0.0.1:53682/callback", scope: "mcp", code_challenge: "a".repeat(43), code_challenge_method: "S256" });
    const authorize = (url: string) => fetch(`${url}/oauth/authorize?${query.toString()}`, { redirect: "manual" }).then(async (r) => ({ status: r.status, text: await r.text() }));
    for (const url of urls) expect((await authorize(url)).status).toBe(303);
    const admin = userContext(await insertUser(db, { role: "ADMIN" }));
    await Promise.all(Array.from({ length: 10 }, () => blockOAuthClient(db, admin, clientId)));
    expect(await db.oAuthBlockedClient.count({ where: { clientId } })).toBe(1);
    expect(await db.auditEvent.count({ where: { action: "oauth.client_blocked", targetId: clientId } })).toBe(1);
    for (const url of urls) {
      const refused = await authorize(url);
      expect(refused.status).toBe(400);
      expect(refused.text).toContain("blocked by an administrator");
    }
    await unblockOAuthClient(db, admin, clientId);
    for (const url of urls) expect((await authorize(url)).status).toBe(303);
  });
});
