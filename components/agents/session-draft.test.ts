import { describe, expect, it } from "vitest";
import { checkDraft, describeLifetime, draftTools, pathLines, type SessionDraft } from "./session-draft";

const base: SessionDraft = {
  agentId: "ci-bot",
  picked: ["orders__query_orders"],
  patterns: [],
  paths: "",
  minutes: "60",
  callbackUrl: "",
};

describe("checkDraft", () => {
  it("turns a valid draft into the request body", () => {
    const { body, errors } = checkDraft(
      { ...base, patterns: ["orders__export_*"], paths: " /srv/data \n\norders://order/\n" },
      86400,
    );
    expect(errors).toEqual({});
    expect(body).toEqual({
      agentId: "ci-bot",
      tools: ["orders__query_orders", "orders__export_*"],
      paths: ["/srv/data", "orders://order/"],
      ttlSeconds: 3600,
    });
  });

  it("leaves the lifetime to the server when it is empty", () => {
    expect(checkDraft({ ...base, minutes: " " }).body).toEqual({
      agentId: "ci-bot",
      tools: ["orders__query_orders"],
      paths: [],
    });
  });

  it.each<[string, Partial<SessionDraft>, "agentId" | "tools" | "paths" | "minutes", RegExp]>([
    ["an empty name", { agentId: "  " }, "agentId", /Give the agent a name/],
    ["a long name", { agentId: "x".repeat(101) }, "agentId", /At most 100/],
    ["no tool", { picked: [] }, "tools", /at least one tool/],
    ["a pattern with a space", { patterns: ["orders query"] }, "tools", /orders query: printable ASCII/],
    ["a relative path", { paths: "/srv/ok\nreports/" }, "paths", /^Line 2: must be an absolute path/],
    ["a Windows path", { paths: "C:\\data" }, "paths", /^Line 1: Windows drive paths/],
    ["a fractional lifetime", { minutes: "1.5" }, "minutes", /whole number/],
    ["a zero lifetime", { minutes: "0" }, "minutes", /at least 1/],
    ["a lifetime past the maximum", { minutes: "1441" }, "minutes", /At most 1440 minutes \(1 day\)/],
  ])("refuses %s", (_, change, field, message) => {
    const { body, errors } = checkDraft({ ...base, ...change }, 86400);
    expect(body).toBeNull();
    expect(errors[field]).toMatch(message);
  });

  it("sends a callback URL only when one is given, trimmed", () => {
    expect(checkDraft({ ...base, callbackUrl: " https://ci.example.com/hook?x=1 " }).body).toMatchObject({
      callbackUrl: "https://ci.example.com/hook?x=1",
    });
    expect(checkDraft({ ...base, callbackUrl: "  " }).body).not.toHaveProperty("callbackUrl");
  });

  it("scopes the session to a virtual server only when one is named, trimmed; a name too long is the field's error", () => {
    expect(checkDraft({ ...base, virtualServer: " desk " }).body).toMatchObject({ virtualServer: "desk" });
    expect(checkDraft({ ...base, virtualServer: "" }).body).not.toHaveProperty("virtualServer");
    expect(checkDraft({ ...base, virtualServer: "d".repeat(64) }).errors.virtualServer).toMatch(/63 characters/);
  });

  it.each([
    ["another scheme", "ftp://ci.example.com/hook", /http:\/\/ or https:\/\//],
    ["no URL at all", "ci.example.com/hook", /http:\/\/ or https:\/\//],
    ["a URL past 2000 characters", `https://ci.example.com/${"x".repeat(2000)}`, /At most 2000/],
  ])("refuses a callback URL with %s", (_, callbackUrl, message) => {
    const { body, errors } = checkDraft({ ...base, callbackUrl });
    expect(body).toBeNull();
    expect(errors.callbackUrl).toMatch(message);
  });

  it("accepts absolute paths, URI prefixes and *", () => {
    expect(checkDraft({ ...base, paths: "/srv/data\norders://order/\nfile:///tmp/x\n*" }).errors).toEqual({});
  });

  it("accepts exactly the maximum", () => {
    expect(checkDraft({ ...base, minutes: "1440" }, 86400).errors).toEqual({});
  });
});

describe("draft helpers", () => {
  it("dedupes tools and skips blank path lines", () => {
    expect(draftTools({ picked: ["a", "b"], patterns: ["b", "c*"] })).toEqual(["a", "b", "c*"]);
    expect(pathLines("\n /a \r\n\n b\n")).toEqual(["/a", "b"]);
  });

  it.each([
    [60, "1 minute"],
    [2700, "45 minutes"],
    [7200, "2 hours"],
    [86400, "1 day"],
    [604800, "7 days"],
  ])("describes %i seconds as %s", (seconds, text) => {
    expect(describeLifetime(seconds)).toBe(text);
  });
});
