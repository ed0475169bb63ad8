import { afterAll, expect, it } from "vitest";
import { loadConfig } from "../config";
import { GatewayError } from "../errors";
import { createGateway } from "../index";
import { createLogger } from "../logger";
import { insertUser } from "../test/contexts";
import { createTestDb, testDatabaseUrl, truncateAll } from "../test/test-db";

const db = createTestDb();
const SSO = { SSO_ISSUER: "https://idp.example.com", SSO_CLIENT_ID: "portcullis", SSO_CLIENT_SECRET: "a client secret" };
const gatewayWith = (env: Record<string, string>) => createGateway({ db, databaseUrl: testDatabaseUrl(), logger: createLogger("silent"), config: loadConfig({ NODE_ENV: "test", ...env }) });
const off = gatewayWith({ ...SSO, PASSWORD_SIGNIN: "off" });
const on = gatewayWith({});
afterAll(async () => {
  await Promise.all([off.close(), on.close()]);
  await db.$disconnect();
});

it("PASSWORD_SIGNIN=off refuses the right password in the server, and SSO still signs in", async () => {
  await truncateAll(db);
  await insertUser(db, { email: "ada@example.com", password: "the right password" });
  const err = await off.auth.verifyCredentials({ email: "ada@example.com", password: "the right password" }).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(GatewayError);
  expect((err as GatewayError).code).toBe("forbidden");
  expect((await off.auth.ssoSignIn({ claims: { sub: "1", email: "ada@example.com" } })).email).toBe("ada@example.com");
  // Without SSO configured there is no SSO sign-in, and the password works.
  expect(((await on.auth.ssoSignIn({ claims: { email: "ada@example.com" } }).catch((e: unknown) => e)) as GatewayError).code).toBe("not_found");
  expect((await on.auth.verifyCredentials({ email: "ada@example.com", password: "the right password" })).email).toBe("ada@example.com");
});
