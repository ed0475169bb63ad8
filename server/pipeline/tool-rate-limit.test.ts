// Whose rate limit a tool call meets: the table the limiter and the tool page's "Rules in force" share.
import { describe, expect, it } from "vitest";
import { toolRateLimit } from "./rate-limit";

const limits = { perSessionPerMinute: 600, perToolPerMinute: 120 };

describe("toolRateLimit", () => {
  it.each<[number | null, number | null, { perMinute: number; source: string }]>([
    [30, 60, { perMinute: 30, source: "tool" }],
    [null, 60, { perMinute: 60, source: "server" }],
    [null, null, { perMinute: 120, source: "gateway" }],
    [0, 60, { perMinute: 0, source: "tool" }],
  ])("tool %s, server %s → %j", (tool, server, expected) => {
    expect(toolRateLimit(tool, server, limits)).toEqual(expected);
  });
});
