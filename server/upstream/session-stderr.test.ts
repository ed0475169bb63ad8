import { describe, expect, it } from "vitest";
import type { UpstreamLaunch } from "./upstream-client";
import { createSessionStderr } from "./session-stderr";

const launch: UpstreamLaunch = { transport: "STDIO", command: "node", args: [], env: {} };

describe("createSessionStderr", () => {
  it("keeps each session's lines apart, marked with the session, newest session first", () => {
    const logs = createSessionStderr();
    const one = logs.open("srv", "aaaa1111", launch);
    const two = logs.open("srv", "bbbb2222", launch);
    one.push("from one");
    two.push("from two");
    expect(logs.snapshot("srv").map((s) => [s.process.session, s.process.lines])).toEqual([
      ["bbbb2222", ["from two"]],
      ["aaaa1111", ["from one"]],
    ]);
    expect(logs.snapshot("other")).toEqual([]);
  });

  it("keeps every running session but only the newest `maxEnded` ended ones per server", () => {
    const logs = createSessionStderr({ maxEnded: 2 });
    const running = logs.open("srv", "running0", launch);
    running.push("still here");
    for (const id of ["ended001", "ended002", "ended003"]) logs.open("srv", id, launch).end("closed");
    expect(logs.snapshot("srv").map((s) => [s.process.session, s.process.endedAt === null])).toEqual([
      ["ended003", false],
      ["ended002", false],
      ["running0", true],
    ]);
  });

  it("a session that reconnects keeps its earlier process as the one before, with its end reason", () => {
    const logs = createSessionStderr();
    const first = logs.open("srv", "aaaa1111", launch);
    first.push("v1 line");
    first.end("replaced");
    logs.open("srv", "aaaa1111", launch).push("v2 line");
    const [current, previous] = logs.snapshot("srv").map((s) => s.process);
    expect([current?.lines, current?.endedAt]).toEqual([["v2 line"], null]);
    expect([previous?.lines, previous?.endReason]).toEqual([["v1 line"], "replaced"]);
  });

  it("bounds each process's lines by the StderrLog limits", () => {
    const logs = createSessionStderr({ limits: { maxLines: 2, maxBytes: 1024 } });
    const sink = logs.open("srv", "aaaa1111", launch);
    for (const line of ["1", "2", "3"]) sink.push(line);
    expect(logs.snapshot("srv")[0]?.process).toMatchObject({ lines: ["2", "3"], droppedLines: 1 });
  });
});
