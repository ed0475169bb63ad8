import { describe, expect, it } from "vitest";
import { StderrLog } from "./stderr-log";

describe("StderrLog", () => {
  it("keeps the newest maxLines lines and counts the dropped ones", () => {
    const log = new StderrLog({ maxLines: 3, maxBytes: 1_000_000 });
    for (let i = 1; i <= 5; i++) log.push(`line ${i}`);
    expect(log.snapshot().current).toMatchObject({ lines: ["line 3", "line 4", "line 5"], droppedLines: 2 });
  });

  it("keeps at most maxBytes bytes (a line and its newline), counting multi-byte characters as bytes", () => {
    const log = new StderrLog({ maxLines: 100, maxBytes: 12 });
    log.push("ééé"); // 6 bytes + newline
    log.push("abcd"); // 4 bytes + newline: 12 in all
    expect(log.snapshot().current?.lines).toEqual(["ééé", "abcd"]);
    log.push("x");
    expect(log.snapshot().current).toMatchObject({ lines: ["abcd", "x"], droppedLines: 1 });
  });

  it("keeps one line longer than maxBytes rather than nothing", () => {
    const log = new StderrLog({ maxLines: 10, maxBytes: 4 });
    log.push("a long line");
    expect(log.snapshot().current?.lines).toEqual(["a long line"]);
  });

  it("keeps the current process and the last exited one, never older ones", () => {
    const log = new StderrLog();
    log.begin(new Date("2026-01-01T00:00:00Z"));
    log.push("first crash");
    log.end("process exited with code 1", new Date("2026-01-01T00:00:01Z"));
    log.begin();
    log.push("second crash");
    log.end("process exited with code 2");
    log.begin();
    log.push("third, running");
    const snap = log.snapshot();
    expect(snap.previous).toMatchObject({ lines: ["second crash"], endReason: "process exited with code 2" });
    expect(snap.current).toMatchObject({ lines: ["third, running"], endedAt: null, endReason: null });
  });

  it("recent(): the current process's lines, or the last exited one's while the new one is silent", () => {
    const log = new StderrLog();
    log.begin();
    log.push("Error: boom");
    log.begin();
    expect(log.recent()).toEqual(["Error: boom"]);
    log.push("starting");
    expect(log.recent()).toEqual(["starting"]);
  });

  it("snapshot() is a copy: later lines do not change it", () => {
    const log = new StderrLog();
    log.push("one");
    const snap = log.snapshot();
    log.push("two");
    expect(snap.current?.lines).toEqual(["one"]);
    expect(snap.previous).toBeNull();
  });
});
