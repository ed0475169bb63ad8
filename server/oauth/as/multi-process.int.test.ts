// The embedded authorization server on two gateway processes sharing one database and one secrets key: their
// first OAuth requests, at the same moment, agree on one signing key; a rotation made elsewhere is published by
// both on their next request.
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
});
