import type { ToolAnnotations } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { defaultRiskTier, type RiskTier } from "./default-tier";

describe("defaultRiskTier", () => {
  it.each<[string, ToolAnnotations | undefined, RiskTier]>([
    ["no annotations", undefined, "MEDIUM"],
    ["empty annotations", {}, "MEDIUM"],
    ["only a title", { title: "Search" }, "MEDIUM"],
    ["read-only", { readOnlyHint: true }, "LOW"],
    ["read-only wins over destructive", { readOnlyHint: true, destructiveHint: true }, "LOW"],
    ["read-only and open-world", { readOnlyHint: true, openWorldHint: true }, "LOW"],
    ["destructive", { destructiveHint: true }, "HIGH"],
    ["explicitly not read-only and destructive", { readOnlyHint: false, destructiveHint: true }, "HIGH"],
    ["destructive and idempotent", { destructiveHint: true, idempotentHint: true }, "HIGH"],
    ["explicitly not read-only, destructiveHint absent", { readOnlyHint: false }, "MEDIUM"],
    ["explicitly not destructive", { readOnlyHint: false, destructiveHint: false }, "MEDIUM"],
    ["idempotent only", { idempotentHint: true }, "MEDIUM"],
    ["open-world only", { openWorldHint: true }, "MEDIUM"],
  ])("%s → %s", (_label, annotations, tier) => {
    expect(defaultRiskTier(annotations)).toBe(tier);
  });
});
