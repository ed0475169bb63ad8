import { describe, expect, it } from "vitest";
import type { StdioLaunch } from "../upstream/upstream-client";
import { serverLogs, stderrRedactor } from "./server-logs";

const launch: StdioLaunch = {
  transport: "STDIO",
  command: "node",
  args: [],
  env: { API_TOKEN: "tok-0123456789abcdef", DEBUG: "1", URL: "postgres://app:pa$$w0rd.x@db/app" },
};

describe("stderrRedactor", () => {
  it("replaces the launch's own env values of 8+ characters, regex characters included, and leaves short ones", () => {
    const redact = stderrRedactor(launch);
    expect(redact("token tok-0123456789abcdef, url postgres://app:pa$$w0rd.x@db/app, DEBUG=1")).toBe("token [secret], url [secret], DEBUG=1");
  });

  it("an HTTP launch's header values too", () => {
    const redact = stderrRedactor({ transport: "HTTP", url: "https://x", headers: { authorization: "Bearer abcdefgh12345" } });
    expect(redact("sent Bearer abcdefgh12345")).toBe("sent [secret]");
  });
});

describe("serverLogs", () => {
  it("redacts every line and the end reason; held is false when this process runs nothing", () => {
    const proc = { startedAt: "t", endedAt: "t", endReason: "exit: tok-0123456789abcdef", lines: ["a tok-0123456789abcdef"], droppedLines: 0 };
    expect(serverLogs("s", { current: null, previous: proc }, launch)).toEqual({
      slug: "s",
      held: true,
      current: null,
      previous: { ...proc, endReason: "exit: [secret]", lines: ["a [secret]"] },
      sessions: [],
    });
    expect(serverLogs("s", undefined, undefined)).toEqual({ slug: "s", held: false, current: null, previous: null, sessions: [] });
  });

  it("a transparent session's process is redacted by its own launch (a canary's secret differs), and counts as held", () => {
    const canary: StdioLaunch = { ...launch, env: { API_TOKEN: "canary-token-9876543210" } };
    const proc = { startedAt: "t", endedAt: null, endReason: null, lines: ["using canary-token-9876543210"], droppedLines: 0, session: "abcd1234" };
    expect(serverLogs("s", undefined, launch, [{ process: proc, launch: canary }])).toEqual({
      slug: "s",
      held: true,
      current: null,
      previous: null,
      sessions: [{ ...proc, lines: ["using [secret]"] }],
    });
  });
});
