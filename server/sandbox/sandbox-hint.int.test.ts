// A sandboxed launch that fails for a sandbox reason says so, for real: node under bwrap reads a file in the
// host's /tmp (the sandbox has its own) and crashes; the server's status names the error and how to fix it,
// and the same launch without the sandbox gets no hint.
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TCreateServer } from "../../lib/schemas";
import { setUpGatewayTest, type GatewayTestEnv } from "../test/gateway-harness";
import { createTestDb } from "../test/test-db";

describe("sandbox hints in a failed launch's status", () => {
  const db = createTestDb();
  let env: GatewayTestEnv;
  let config = "";

  // The path goes inside the program text: a file argument in a hidden directory is refused before the start,
  // and an env value would be redacted as a possible secret.
  const reader = (slug: string, profile: "bwrap" | "none"): TCreateServer => ({
    slug,
    name: slug,
    transport: "stdio",
    command: process.execPath,
    args: ["-e", `require("node:fs").readFileSync(${JSON.stringify(config)})`],
    isolation: { profile },
  });

  beforeAll(async () => {
    env = await setUpGatewayTest(db, "sandbox-hint");
    config = path.join(env.dir, "config.json");
    await writeFile(config, "{}");
  }, 60_000);

  afterAll(async () => {
    await env.close();
  });

  it("ENOENT on a file in the host's /tmp under bwrap: the status says /tmp is private and what to do", async () => {
    const { server } = await env.gateways[0]!.gateway.registry.register(env.admin, reader("boxed", "bwrap"));
    expect(server.status).toBe("DOWN");
    expect(server.lastError).toContain(`ENOENT: no such file or directory, open '${config}'`);
    expect(server.lastError).toMatch(/sandbox: .*\/tmp is private .*mount the file's directory/);
  });

  it("the same launch unsandboxed reads the file (and then fails as an MCP server) with no sandbox hint", async () => {
    const { server } = await env.gateways[0]!.gateway.registry.register(env.admin, reader("plain", "none"));
    expect(server.status).toBe("DOWN");
    expect(server.lastError).not.toContain("sandbox:");
  });
});
