// Tool routing alone, from a snapshot value (no database, no pool): which version serves a session, what a
// disabled tool resolves to, and when this process's pool is asked to connect.
import { describe, expect, it } from "vitest";
import type { Tool } from "../db/client";
import type { SnapServer, SnapVersion, Snapshot } from "./registry-snapshot";
import { resolveTool, visibleTools, type EnsurePool } from "./tool-routing";

const version = (id: string, annotations: Record<string, unknown> = {}): SnapVersion => ({
  id,
  version: id,
  launch: { transport: "http", url: `http://upstream/${id}`, headers: {} } as unknown as SnapVersion["launch"],
  defs: { tools: [] } as unknown as SnapVersion["defs"],
  tools: new Map([["read", { name: "read", inputSchema: { type: "object" }, annotations }]]),
});
const server: SnapServer = { id: "srv", slug: "shop", timeoutMs: 5000, connectTimeoutMs: 1000, canaryPercent: 30, maxConcurrency: 4, rateLimitPerMinute: null, summary: null, changedDefinitionCalls: "refuse", versions: { active: version("1.0.0", { readOnlyHint: true }), canary: version("1.1.0") } };
const row = (enabled: boolean) => ({ id: "tool", name: "read", gatewayName: "shop__read", enabled, strict: false, riskTier: "LOW", timeoutMs: null, rateLimitPerMinute: null, async: false, requiredApprovals: 1, serverSlug: "shop" }) as unknown as Tool & { serverSlug: string };
const snapshot = (enabled: boolean): Snapshot => ({ servers: new Map([["shop", server]]), tools: new Map([["shop__read", row(enabled)]]), loadedAt: 0, generation: 0 });

function routing(enabled: boolean) {
  const ensured: string[] = [];
  const ensurePool: EnsurePool = async (_snap, s, role) => void ensured.push(`${s.slug}:${role}`);
  return { ensured, r: { getSnapshot: () => Promise.resolve(snapshot(enabled)), ensurePool } };
}

describe("tool routing", () => {
  it("a session below the canary share gets the canary version, the others the active one; the pool connects the role first", async () => {
    const { ensured, r } = routing(true);
    const canary = await resolveTool(r, "shop__read", 10);
    const active = await resolveTool(r, "shop__read", 90);
    expect("tool" in canary && canary.tool).toMatchObject({ role: "canary", version: "1.1.0", retryable: false, timeoutMs: 5000 });
    expect("tool" in active && active.tool).toMatchObject({ role: "active", version: "1.0.0", retryable: true });
    expect(ensured).toEqual(["shop:canary", "shop:active"]);
  });

  it("a disabled tool resolves with its refusal (so the refusal is audited) and nothing is connected for it", async () => {
    const { ensured, r } = routing(false);
    const resolved = await resolveTool(r, "shop__read", 90);
    expect(resolved).toMatchObject({ refusal: { code: "tool_disabled" } });
    expect(ensured).toEqual([]);
    expect(await visibleTools(r.getSnapshot, 90)).toEqual([]);
  });

  it("an unknown tool says so", async () => {
    const { r } = routing(true);
    expect(await resolveTool(r, "shop__write", 90)).toEqual({ error: "Unknown tool shop__write. List the tools to see what you can call." });
  });
});
