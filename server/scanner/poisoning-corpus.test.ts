// The scanner against published poisoning examples and against 174 clean tool definitions captured from 16
// published MCP server packages (bench/codemode/search-quality/captured-tools.json). "Flagged" means at least
// one finding of medium or high severity; low ones (a documentation URL, a long description) inform a reviewer.
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import captured from "../../bench/codemode/search-quality/captured-tools.json";
import { longDescriptions } from "./rules/long-description";
import { POISONED } from "./poisoning-corpus";
import { scanTool } from "./scan-definitions";

type Captured = Tool & { server: string };
const clean = captured as unknown as Captured[];
const flagged = (tool: Tool) => scanTool(tool).some((f) => f.severity !== "low");

describe("poisoning scanner corpus", () => {
  it.each(POISONED.map((p) => [p.source, p.tool] as const))("flags %s", (_source, tool) => {
    expect(flagged(tool)).toBe(true);
  });

  it("flags every published example and no more than 2% of the clean real definitions", () => {
    const poisonedHit = POISONED.filter((p) => flagged(p.tool)).length;
    const servers = new Map<string, Captured[]>();
    for (const t of clean) servers.set(t.server, [...(servers.get(t.server) ?? []), t]);
    const long = new Set(
      [...servers.values()].flatMap((tools) =>
        longDescriptions(tools.filter((t) => t.description).map((t) => ({ where: `${t.server}/${t.name}`, text: t.description! }))).filter((f) => f.severity !== "low").map((f) => f.where),
      ),
    );
    const cleanHit = clean.filter((t) => flagged(t) || long.has(`${t.server}/${t.name}`));
    const rate = cleanHit.length / clean.length;
    console.info(
      `poisoning scanner: ${poisonedHit}/${POISONED.length} published examples flagged; ${cleanHit.length}/${clean.length} clean definitions from ${servers.size} servers flagged (${(rate * 100).toFixed(1)}%)` +
        (cleanHit.length ? `: ${cleanHit.map((t) => `${t.server}/${t.name}`).join(", ")}` : ""),
    );
    expect(clean.length).toBe(174);
    expect(servers.size).toBe(16);
    expect(poisonedHit).toBe(POISONED.length);
    expect(rate).toBeLessThanOrEqual(0.02);
  });

  it("flags the published examples for what they are: each has a high-severity finding, which blocks approval", () => {
    const withoutHigh = POISONED.filter((p) => !scanTool(p.tool).some((f) => f.severity === "high")).map((p) => p.source);
    expect(withoutHigh).toEqual([]);
  });
});
