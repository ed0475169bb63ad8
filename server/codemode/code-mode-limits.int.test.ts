// execute_code runs are themselves counted: at most CODE_MODE_CONCURRENT_RUNS at once and
// CODE_MODE_RUNS_PER_MINUTE a minute per agent session (in the shared rate-limit table), refused with a
// rate_limited tool error carrying a retry hint, audited as denied; other sessions and people are counted apart.
import { writeFile } from "node:fs/promises";
import path from "node:path";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isGatewayError } from "../errors";
import { agentToken, connectAgent, fixtureEvents, misbehavingServer, setUpGatewayTest, waitUntil, type Agent, type GatewayTestEnv } from "../test/gateway-harness";
import { createTestDb } from "../test/test-db";

describe("execute_code run limits", () => {
  const db = createTestDb();
  let env: GatewayTestEnv;
  let codeUrl: URL;

  /** An agent on /mcp/code with a session of its own (of the same USER as env.token). */
  const code = async (): Promise<Agent> => {
    const user = await db.user.findFirstOrThrow({ where: { role: "USER" } });
    const a = await connectAgent(codeUrl, await agentToken(db, user));
    env.agents.push(a);
    return a;
  };
  const execute = (a: Agent, program: string) => a.client.callTool({ name: "execute_code", arguments: { code: program, language: "js" } }) as Promise<CallToolResult>;
  const refusal = (r: CallToolResult) => r._meta?.["portcullis/error"] as { code: string; retryAfterSeconds?: number } | undefined;

  beforeAll(async () => {
    env = await setUpGatewayTest(db, "codemode-limits", { env: { CODE_MODE_RUNS_PER_MINUTE: "3", CODE_MODE_CONCURRENT_RUNS: "1" } });
    await env.gateways[0]!.gateway.registry.register(env.admin, misbehavingServer(env.dir, { slug: "ops" }));
    codeUrl = new URL("/mcp/code", env.gateways[0]!.mcpUrl);
  }, 60_000);

  afterAll(async () => {
    await env.close();
  });

  it("refuses a second program while the first runs, and a fourth in the minute, with a retry hint", async () => {
    const a = await code();
    // The first program holds its run until the test creates `release`: it is running (its tool call has
    // reached the upstream) for as long as the second one needs to be refused.
    const release = path.join(env.dir, "release-hold");
    const slow = execute(a, `await tools.ops.slow_read({ ms: 0, tag: "hold", until: ${JSON.stringify(release)} }); return "first"`);
    await waitUntil("the first program's tool call to reach the upstream", () =>
      fixtureEvents(env.dir).some((e) => e.event === "slow.start" && (e.args as { tag?: string }).tag === "hold"),
    );
    const busy = await execute(a, `return "second"`);
    expect(busy.isError).toBe(true);
    expect(refusal(busy)).toMatchObject({ code: "rate_limited", retryAfterSeconds: 1 });
    expect(JSON.stringify(busy.content)).toMatch(/at most 1/);
    await writeFile(release, "");
    expect((await slow).structuredContent).toMatchObject({ result: "first" });

    // The refused one did not use up the minute's budget: two more run, the next is refused until the window ends.
    expect((await execute(a, `return 2`)).structuredContent).toMatchObject({ result: 2 });
    expect((await execute(a, `return 3`)).structuredContent).toMatchObject({ result: 3 });
    const over = await execute(a, `return 4`);
    expect(over.isError).toBe(true);
    const info = refusal(over);
    expect(info?.code).toBe("rate_limited");
    expect(info?.retryAfterSeconds).toBeGreaterThan(0);
    expect(info?.retryAfterSeconds).toBeLessThanOrEqual(60);
    expect(JSON.stringify(over.content)).toMatch(/at most 3 runs a minute/);

    // Each refusal is audited as denied under its request.
    const denied = await db.auditEvent.findMany({ where: { toolName: "portcullis__execute_code", status: "denied" } });
    expect(denied.map((e) => e.errorCode)).toEqual(["rate_limited", "rate_limited"]);
    expect(denied.every((e) => e.decision === "deny")).toBe(true);

    // Another session of the same person has its own count.
    expect((await execute(await code(), `return "other"`)).structuredContent).toMatchObject({ result: "other" });
  });

  it("counts the console's playground runs per person: the fourth in a minute is refused with 429", async () => {
    const g = env.gateways[0]!.gateway;
    for (let i = 0; i < 3; i++) expect((await g.codeMode.run(env.admin, { code: `return ${String(i)}`, agentSessionId: null, language: "js" })).result).toBe(i);
    const err = await g.codeMode.run(env.admin, { code: "return 3", agentSessionId: null, language: "js" }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isGatewayError(err) && err.code).toBe("rate_limited");
    expect(isGatewayError(err) && err.status).toBe(429);
    expect(isGatewayError(err) && err.retryAfterSeconds).toBeGreaterThan(0);
  });
});
