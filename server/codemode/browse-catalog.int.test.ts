// browse_catalog and search_tools' server filter over real MCP: an SDK agent on /mcp/code pages through the
// servers it may use and their tools, against real stdio upstreams (server-everything with its own instructions,
// the misbehaving fixture with and without instructions) and the session whitelist ∩ the user's live grant.
// Last, 500 realistic tools are registered and /mcp/code's whole tools/list is measured in tokens.
import { ZodError } from "zod";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { jsonTokens } from "../../bench/codemode/tokens";
import { realisticUpstreams } from "../../bench/codemode/upstreams";
import type { User } from "../db/client";
import { insertUser } from "../test/contexts";
import { agentToken, busHears, connectAgent, errorMeta, everythingServer, firstText, misbehavingServer, setUpGatewayTest, type Agent, type GatewayTestEnv } from "../test/gateway-harness";
import { createTestDb } from "../test/test-db";
import { encodeCursor } from "./catalog-cursor";

const FIXTURE_TOOLS = ["add_tool", "big", "counted", "crash", "fail", "flap", "hang", "slow_read", "slow_write", "whoami"];

describe("browse_catalog (/mcp/code)", () => {
  const db = createTestDb();
  let env: GatewayTestEnv;
  let codeUrl: URL;
  let agent: Agent;

  const browse = (ag: Agent, args: Record<string, unknown> = {}) => ag.client.callTool({ name: "browse_catalog", arguments: args });
  const browseText = async (ag: Agent, args: Record<string, unknown> = {}) => {
    const r = await browse(ag, args);
    expect(r.isError ?? false, firstText(r)).toBe(false);
    return firstText(r);
  };
  /** The servers a listing names, in order (each line `slug (n) — summary`). */
  const slugsOf = (text: string) => [...text.matchAll(/^([a-z0-9-]+) \((\d+)\) — /gm)].map((m) => m[1]);
  const lineOf = (text: string, slug: string) => text.split("\n").find((l) => l.startsWith(`${slug} (`));
  const cursorOf = (text: string) => /cursor: ("[^"]+")/.exec(text)?.[1] && (JSON.parse(/cursor: ("[^"]+")/.exec(text)![1]!) as string);
  /** Every tool name of `server`, following the cursors `limit` at a time. */
  async function allTools(ag: Agent, server: string, limit: number): Promise<{ names: string[]; pages: number }> {
    const names: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const text = await browseText(ag, { server, limit, ...(cursor && { cursor }) });
      pages++;
      names.push(...text.split("\n").slice(1).filter((l) => !l.startsWith("More: ")));
      cursor = cursorOf(text) || undefined;
    } while (cursor);
    return { names, pages };
  }

  let narrowUser: User;
  let opsGrantId: string;

  beforeAll(async () => {
    // Two gateways, as two processes: as at start-up, the built-in server and its tool rows exist.
    env = await setUpGatewayTest(db, "catalog", { gateways: 2, startUpstreams: true });
    const g = env.gateways[0]!.gateway;
    const withInstructions = (slug: string, instructions: string) => {
      const s = misbehavingServer(env.dir, { slug });
      return { ...s, env: { ...s.env, FIXTURE_INSTRUCTIONS: instructions } };
    };
    await g.registry.register(env.admin, everythingServer());
    // Hostile instructions: a tab, a bell and a bidi override inside the first sentence, more lines after it.
    await g.registry.register(env.admin, withInstructions("ops", "Runs slow\tand failing calls\u0007 for \u202etests. Never call crash in production.\nSecond line."));
    // The bidi override is a high-severity poisoning finding: its first set waits for review (D130); an admin
    // approves it with a reason, so the catalog's sanitising of such text is what is tested here.
    for (const r of await g.registry.reviews("ops")) await g.registry.approveDefinitions(env.admin, "ops", r.id, { overrideReason: "hostile instructions on purpose: the catalog test" });
    await g.registry.register(env.admin, { ...withInstructions("shop", "Instructions that lose to the admin's line."), summary: "  Invoices and refunds for the shop  " });
    await g.registry.register(env.admin, misbehavingServer(env.dir, { slug: "bare" }));
    await g.registry.register(env.admin, misbehavingServer(env.dir, { slug: "hidden" }));
    codeUrl = new URL("/mcp/code", env.gateways[0]!.mcpUrl);
    agent = await connectAgent(codeUrl, env.token);
    env.agents.push(agent);
    // A user granted everything, ops and shop; their session whitelists everything, ops and bare.
    narrowUser = await insertUser(db, { role: "USER" });
    for (const pattern of ["everything__*", "shop__*"]) await g.policy.createGrant(env.admin, { kind: "tool", pattern, userId: narrowUser.id });
    opsGrantId = (await g.policy.createGrant(env.admin, { kind: "tool", pattern: "ops__*", userId: narrowUser.id })).id;
  }, 120_000);

  afterAll(async () => {
    await env.close();
  });

  // First, while the tool's budget is untouched: the rate-limit step leases a minute's budget under the limit it
  // sees, so a lower limit set after calls in the same minute would only apply from the next lease.
  it("browse_catalog passes the rate-limit step: an admin's per-tool limit refuses the call after it", async () => {
    const g = env.gateways[0]!.gateway;
    await g.registry.updateTool(env.admin, "portcullis__browse_catalog", { rateLimitPerMinute: 1 });
    try {
      expect((await browse(agent)).isError ?? false).toBe(false);
      // One call a minute: of the next two at least one is refused, even when a minute's window ends between them.
      const next = [errorMeta(await browse(agent)), errorMeta(await browse(agent))];
      expect(next).toContainEqual(expect.objectContaining({ code: "rate_limited", retryAfterSeconds: expect.any(Number) as unknown }));
    } finally {
      // A raised limit takes effect at once (the step leases again), so the tests below are not held up.
      await g.registry.updateTool(env.admin, "portcullis__browse_catalog", { rateLimitPerMinute: null });
    }
    expect((await browse(agent)).isError ?? false).toBe(false);
  });

  it("lists the servers a line each: the admin's summary, else the first sentence of the instructions, else the tool names", async () => {
    const text = await browseText(agent);
    const lines = text.split("\n");
    expect(lines[0]).toMatch(/^Servers you may use 1–5 of 5/);
    expect(slugsOf(text)).toEqual(["bare", "everything", "hidden", "ops", "shop"]);
    expect(lineOf(text, "shop")).toBe("shop (10) — Invoices and refunds for the shop");
    expect(text).not.toContain("Instructions that lose");
    // Flattened to one printable line, cut at the first sentence.
    expect(lineOf(text, "ops")).toBe("ops (10) — Runs slow and failing calls for tests.");
    expect(text).toMatch(/^everything \(\d+\) — Everything Server – Server Instructions$/m);
    expect(text).toContain(`bare (10) — 10 tools: ${FIXTURE_TOOLS.join(", ")}`);
    // eslint-disable-next-line no-control-regex
    expect(text).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u202e]/);
    expect(text).not.toContain("portcullis");
  });

  it("an admin's summary replaces the derived line at once, and clearing it brings the instructions back", async () => {
    const g = env.gateways[0]!.gateway;
    await g.registry.update(env.admin, "ops", { summary: "Operations fixture for resilience tests" });
    expect(lineOf(await browseText(agent), "ops")).toBe("ops (10) — Operations fixture for resilience tests");
    await g.registry.update(env.admin, "ops", { summary: "" });
    expect(lineOf(await browseText(agent), "ops")).toBe("ops (10) — Runs slow and failing calls for tests.");
    expect((await db.upstreamServer.findUniqueOrThrow({ where: { slug: "ops" } })).summary).toBeNull();
  });

  it("a summary changed through one gateway process is what agents of another process see next", async () => {
    const other = await connectAgent(new URL("/mcp/code", env.gateways[1]!.mcpUrl), env.token);
    env.agents.push(other);
    expect(lineOf(await browseText(other), "ops")).toBe("ops (10) — Runs slow and failing calls for tests.");
    await env.gateways[0]!.gateway.registry.update(env.admin, "ops", { summary: "Changed on the first process" });
    await busHears(db, env.gateways[1]!.gateway); // heard after the registry change it follows
    expect(lineOf(await browseText(other), "ops")).toBe("ops (10) — Changed on the first process");
    await env.gateways[0]!.gateway.registry.update(env.admin, "ops", { summary: null });
    await busHears(db, env.gateways[1]!.gateway);
    expect(lineOf(await browseText(other), "ops")).toBe("ops (10) — Runs slow and failing calls for tests.");
  });

  it("an admin's example requests find a tool by words its definition lacks, on the other process too, and are never shown", async () => {
    const other = await connectAgent(new URL("/mcp/code", env.gateways[1]!.mcpUrl), env.token);
    env.agents.push(other);
    const search = async (ag: Agent, detail: "name" | "summary" = "name") =>
      firstText(await ag.client.callTool({ name: "search_tools", arguments: { query: "how often did the quokka wombat chirp?", detail, limit: 5 } }));
    const firstOf = (text: string) => text.split("\n")[0];
    const counted = "tools.shop.counted";
    expect(firstOf(await search(agent))).not.toBe(counted);

    const g = env.gateways[0]!.gateway;
    const updated = await g.registry.updateTool(env.admin, "shop__counted", { exampleRequests: ["  did the quokka wombat chirp  ", "wombat chirps by quokka, please"] });
    expect(updated.exampleRequests).toEqual(["did the quokka wombat chirp", "wombat chirps by quokka, please"]);
    expect(firstOf(await search(agent))).toBe(counted);
    await busHears(db, env.gateways[1]!.gateway); // heard after the registry change it follows
    expect(firstOf(await search(other))).toBe(counted);
    // Indexed, not shown: the answer at any detail carries the tool's own text only.
    expect(await search(other, "summary")).not.toMatch(/quokka|wombat|chirp/);
    const audit = await db.auditEvent.findFirstOrThrow({ where: { action: "tool.updated" }, orderBy: { id: "desc" } });
    expect(audit.details).toMatchObject({ tool: "shop__counted", changes: { exampleRequests: ["did the quokka wombat chirp", "wombat chirps by quokka, please"] } });

    await g.registry.updateTool(env.admin, "shop__counted", { exampleRequests: [] });
    await busHears(db, env.gateways[1]!.gateway);
    expect(firstOf(await search(other))).not.toBe(counted);
  });

  it("refuses a hostile summary with a stable code per rule and keeps the one it had", async () => {
    const g = env.gateways[0]!.gateway;
    const cases: [string, string][] = [
      ["two\nlines", "summary_control_character"],
      ["nul \u0000 inside", "summary_control_character"],
      ["bell \u0007", "summary_control_character"],
      ["bidi \u202e override", "summary_control_character"],
      ["line\u2028separator", "summary_control_character"],
      ["lone \ud800 surrogate", "summary_invalid_unicode"],
      ["x".repeat(201), "summary_too_long"],
    ];
    for (const [summary, code] of cases) {
      const err = await g.registry.update(env.admin, "shop", { summary }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err, JSON.stringify(summary)).toBeInstanceOf(ZodError);
      expect((err as ZodError).issues.map((i) => [i.path.join("."), (i as { params?: { code?: string } }).params?.code])).toEqual([["summary", code]]);
      const refused = await g.registry.register(env.admin, { ...misbehavingServer(env.dir, { slug: "refused" }), summary }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(refused).toBeInstanceOf(ZodError);
    }
    // 200 characters (code points: an emoji is one) are accepted.
    await g.registry.update(env.admin, "shop", { summary: "😀".repeat(200) });
    await g.registry.update(env.admin, "shop", { summary: "Invoices and refunds for the shop" });
    expect((await db.upstreamServer.findUniqueOrThrow({ where: { slug: "shop" } })).summary).toBe("Invoices and refunds for the shop");
    expect(await db.upstreamServer.count({ where: { slug: "refused" } })).toBe(0);
  });

  it("lists only what the session may use: its whitelist ∩ the user's live grant, counting only those tools", async () => {
    const narrow = await connectAgent(codeUrl, await agentToken(db, narrowUser, { tools: ["everything__*", "ops__*", "bare__*"] }));
    env.agents.push(narrow);
    const text = await browseText(narrow);
    // shop: granted, not whitelisted; bare: whitelisted, not granted; hidden: neither.
    expect(slugsOf(text)).toEqual(["everything", "ops"]);
    for (const slug of ["shop", "bare", "hidden"]) {
      expect(errorMeta(await browse(narrow, { server: slug })).code).toBe("unknown_server");
      expect(errorMeta(await narrow.client.callTool({ name: "search_tools", arguments: { query: "slow", server: slug } })).code).toBe("unknown_server");
    }
    // The same answer for a server that does not exist, whatever its name.
    expect(errorMeta(await browse(narrow, { server: "nope" }))).toMatchObject({ code: "unknown_server", message: expect.not.stringContaining("nope") as unknown });
    // The grant is live: taking ops away hides it from the next page, without a new session.
    await env.gateways[0]!.gateway.policy.deleteGrant(env.admin, opsGrantId);
    expect(slugsOf(await browseText(narrow))).toEqual(["everything"]);
    expect(errorMeta(await browse(narrow, { server: "ops" })).code).toBe("unknown_server");
    // One whitelisted tool: the server shows with that one tool, and its listing names only it.
    const one = await connectAgent(codeUrl, await agentToken(db, narrowUser, { tools: ["everything__get-sum"] }));
    env.agents.push(one);
    expect(await browseText(one)).toMatch(/^everything \(1\) — /m);
    expect((await allTools(one, "everything", 50)).names).toEqual(["get-sum"]);
  });

  it("pages a server's tools in a stable order with cursors, and the server list too", async () => {
    const paged = await allTools(agent, "ops", 3);
    expect(paged).toEqual({ names: FIXTURE_TOOLS, pages: 4 });
    expect((await allTools(agent, "ops", 50)).names).toEqual(FIXTURE_TOOLS);
    const first = await browseText(agent, { limit: 2 });
    expect(slugsOf(first)).toEqual(["bare", "everything"]);
    const second = await browseText(agent, { limit: 2, cursor: cursorOf(first) });
    expect(second.split("\n")[0]).toMatch(/^Servers you may use 3–4 of 5/);
    expect(slugsOf(second)).toEqual(["hidden", "ops"]);
    const third = await browseText(agent, { limit: 2, cursor: cursorOf(second) });
    expect(slugsOf(third)).toEqual(["shop"]);
    expect(cursorOf(third)).toBeFalsy();
    // Out-of-range pages and unknown arguments are a JSON-RPC error naming the argument, like search_tools'.
    for (const args of [{ limit: 0 }, { limit: 201 }, { page: 2 }]) {
      const err = await browse(agent, args).then(
        () => undefined,
        (e: unknown) => e as Error & { code?: number },
      );
      expect(err?.code, JSON.stringify(args)).toBe(-32602);
      expect(err?.message).toMatch(/limit|page/);
    }
    // The listing line says how to call the tools and where their arguments are.
    expect((await browseText(agent, { server: "ops", limit: 1 })).split("\n")[0]).toBe(
      'ops: tools 1–1 of 10; call tools["ops"][name](args), arguments: search_tools({query, server: "ops", detail: "full"})',
    );
  });

  it("refuses a cursor it did not hand out for this listing with invalid_cursor, and a crafted one shows nothing hidden", async () => {
    const serversCursor = cursorOf(await browseText(agent, { limit: 1 }))!;
    const opsCursor = cursorOf(await browseText(agent, { server: "ops", limit: 1 }))!;
    const b64 = (s: string) => Buffer.from(s, "utf8").toString("base64url");
    const hostile: [Record<string, unknown>, RegExp, string?][] = [
      [{ cursor: "" }, /handed out/],
      [{ cursor: "garbage" }, /handed out/],
      [{ cursor: "c1.!!!" }, /handed out/],
      // A NUL or a lone surrogate in any argument is refused by the schema step, before the tool runs (D70).
      [{ cursor: "c1.a\u0000b" }, /./, "invalid_arguments"],
      [{ cursor: "c1.\ud800" }, /./, "invalid_arguments"],
      [{ cursor: `c1.${b64("not json")}` }, /handed out/],
      [{ cursor: `c1.${b64("[1,2]")}` }, /handed out/],
      [{ cursor: `c1.${b64('["",""]')}` }, /handed out/],
      [{ cursor: `c1.${b64(JSON.stringify(["", "x".repeat(400)]))}` }, /handed out/],
      [{ cursor: "c1.".padEnd(5000, "A") }, /handed out/],
      [{ cursor: opsCursor }, /another server|without server/],
      [{ server: "ops", cursor: serversCursor }, /server list/],
      [{ server: "everything", cursor: opsCursor }, /another server/],
    ];
    for (const [args, message, code = "invalid_cursor"] of hostile) {
      const r = await browse(agent, args);
      expect(r.isError, JSON.stringify(args).slice(0, 80)).toBe(true);
      expect(errorMeta(r).code, JSON.stringify(args).slice(0, 80)).toBe(code);
      expect(errorMeta(r).message).toMatch(message);
    }
    // A well-formed cursor only names a position: past the end there is nothing more, and a hidden server's stays hidden.
    expect(await browseText(agent, { cursor: encodeCursor("", "zzz") })).toMatch(/^No more servers after this cursor \(5 in all\)/);
    const narrow = await connectAgent(codeUrl, await agentToken(db, narrowUser, { tools: ["everything__*"] }));
    env.agents.push(narrow);
    expect(errorMeta(await browse(narrow, { server: "hidden", cursor: encodeCursor("hidden", "a") })).code).toBe("unknown_server");
    // Every refusal went through the built-in server's pipeline: audited under portcullis__browse_catalog.
    const audited = await db.auditEvent.findMany({ where: { action: "tool.called", toolName: "portcullis__browse_catalog", errorCode: "invalid_cursor" } });
    expect(audited).toHaveLength(hostile.filter(([, , code]) => !code).length);
  });

  it("search_tools takes a server filter: only that server's tools rank", async () => {
    const all = firstText(await agent.client.callTool({ name: "search_tools", arguments: { query: "slow read", detail: "name", limit: 50 } }));
    expect(all).toMatch(/tools\.(bare|shop|hidden)\.slow_read/);
    const ops = firstText(await agent.client.callTool({ name: "search_tools", arguments: { query: "slow read", detail: "name", limit: 50, server: "ops" } }));
    expect(ops.split("\n")[0]).toBe("tools.ops.slow_read");
    expect(ops.split("\n").every((l) => l.startsWith("tools.ops."))).toBe(true);
    expect(errorMeta(await agent.client.callTool({ name: "search_tools", arguments: { query: "x", server: "ops__slow_read" } })).code).toBe("unknown_server");
  });

  it("browse_catalog is a built-in tool row: its tier and enabled flag apply, and its refusals are audited", async () => {
    const g = env.gateways[0]!.gateway;
    expect((await db.tool.findUniqueOrThrow({ where: { gatewayName: "portcullis__browse_catalog" } })).riskTier).toBe("LOW");
    try {
      await g.registry.updateTool(env.admin, "portcullis__browse_catalog", { riskTier: "HIGH" });
      expect(errorMeta(await browse(agent)).code).toBe("approval_required");
      await g.registry.updateTool(env.admin, "portcullis__browse_catalog", { riskTier: "LOW", enabled: false });
      expect(errorMeta(await browse(agent)).code).toBe("tool_disabled");
    } finally {
      await g.registry.updateTool(env.admin, "portcullis__browse_catalog", { riskTier: "LOW", enabled: true });
    }
    expect(slugsOf(await browseText(agent))).toHaveLength(5);
    const audited = await db.auditEvent.findMany({ where: { action: "tool.called", toolName: "portcullis__browse_catalog" }, orderBy: { id: "desc" }, take: 3 });
    expect(audited.map((e) => [e.endpoint, e.status, e.errorCode])).toEqual([
      ["code", "ok", null],
      ["code", "denied", "tool_disabled"],
      ["code", "denied", "approval_required"],
    ]);
  });

  it("at 500 registered tools /mcp/code's whole tools/list stays under 1,000 tokens, and a catalog page stays small", async () => {
    const upstreams = realisticUpstreams({ gateway: env.gateways[0]!.gateway, admin: env.admin }, env.dir, 500);
    await upstreams.serve(500);
    const visible = (await env.gateways[0]!.gateway.registry.visibleTools(0)).filter((t) => upstreams.all.some((u) => u.name === t.name));
    expect(visible).toHaveLength(500);
    const fresh = await connectAgent(codeUrl, env.token);
    env.agents.push(fresh);
    const { tools } = await fresh.client.listTools();
    expect(tools.map((t) => t.name)).toContain("browse_catalog");
    const surface = jsonTokens(tools);
    expect(surface).toBeLessThan(1000);
    const page = await browseText(fresh);
    console.log(`code-mode surface at 500 tools: ${String(surface)} tokens; first catalog page: ${String(jsonTokens(page))} tokens`);
    expect(jsonTokens(page)).toBeLessThan(1000);
  }, 180_000);
});
