import { describe, expect, it } from "vitest";
import type { TTaskEvent } from "@/lib/task-schemas";
import {
  describeEvent,
  elapsedMs,
  eventLabel,
  formatBytes,
  formatDuration,
  pollInterval,
  progressPercent,
  progressText,
  timeline,
} from "./task-format";

const event = (id: number, type: string, data: unknown = null): TTaskEvent => ({
  id: String(id),
  type,
  at: "2025-01-01T00:00:00.000Z",
  data,
});

describe("task-format", () => {
  it.each([
    [null, "—"],
    [850, "850 ms"],
    [12_400, "12 s"],
    [245_000, "4 min 05 s"],
    [7_380_000, "2 h 03 min"],
  ] as const)("formatDuration(%s) = %s", (ms, text) => expect(formatDuration(ms)).toBe(text));

  it.each([
    [null, "—"],
    [512, "512 B"],
    [1536, "1.5 KB"],
    [3 * 1024 * 1024, "3.0 MB"],
  ] as const)("formatBytes(%s) = %s", (n, text) => expect(formatBytes(n)).toBe(text));

  it("polls every second while a task may still move, every 10 s once all have ended", () => {
    expect(pollInterval(["SUCCEEDED", "RUNNING"])).toBe(1_000);
    expect(pollInterval(["AWAITING_APPROVAL"])).toBe(1_000);
    expect(pollInterval(["SUCCEEDED", "FAILED", "CANCELED", "EXPIRED"])).toBe(10_000);
    expect(pollInterval([])).toBe(10_000);
  });

  it("counts a running task's duration on from when the server answered; a finished one stays put", () => {
    expect(elapsedMs({ status: "RUNNING", durationMs: 5_000 }, 1_000, 4_000)).toBe(8_000);
    expect(elapsedMs({ status: "RUNNING", durationMs: 5_000 }, 4_000, 1_000)).toBe(5_000);
    expect(elapsedMs({ status: "SUCCEEDED", durationMs: 5_000 }, 1_000, 4_000)).toBe(5_000);
    expect(elapsedMs({ status: "PENDING", durationMs: null }, 1_000, 4_000)).toBeNull();
  });

  it("gives a percentage only when the total is known, clamped to 0–100", () => {
    expect(progressPercent({ progress: 3, total: 10, message: null })).toBe(30);
    expect(progressPercent({ progress: 12, total: 10, message: null })).toBe(100);
    expect(progressPercent({ progress: 3, total: null, message: null })).toBeNull();
    expect(progressPercent({ progress: 3, total: 0, message: null })).toBeNull();
    expect(progressText({ progress: 3, total: 10, message: "page 3" })).toBe("3 of 10 · page 3");
    expect(progressText({ progress: 7, total: null, message: null })).toBe("7 so far");
  });

  it("describes events by type and falls back to their code or data", () => {
    expect(eventLabel("recovered")).toBe("Recovered after a restart");
    expect(eventLabel("result_deleted")).toBe("Result deleted");
    expect(describeEvent(event(1, "submitted", { origin: "threshold" }))).toBe("Ran past the wait threshold");
    expect(describeEvent(event(1, "started", { attempt: 1 }))).toBeNull();
    expect(describeEvent(event(1, "started", { attempt: 2 }))).toBe("Attempt 2");
    expect(describeEvent(event(1, "progress", { progress: 2, total: 4, message: "half" }))).toBe("2 of 4 · half");
    expect(describeEvent(event(1, "canceled", { by: "ann@example.com", reason: "Canceled by the user." }))).toBe(
      "By ann@example.com: Canceled by the user.",
    );
    expect(
      describeEvent(event(1, "failed", { errorCode: "upstream_timeout", resultBytes: 120, truncated: false })),
    ).toBe("upstream_timeout · Result 120 B");
    expect(describeEvent(event(1, "succeeded", { errorCode: null, resultBytes: 2048, truncated: true }))).toBe(
      "Result 2.0 KB, cut to the output limit",
    );
    expect(describeEvent(event(1, "recovered", { action: "requeued", deadRunner: "runner-1", attempt: 1 }))).toBe(
      "Its gateway process stopped; queued again after attempt 1",
    );
    expect(describeEvent(event(1, "recovered", { action: "failed", deadRunner: "runner-1", attempt: 1 }))).toMatch(
      /not safe to run twice/,
    );
    expect(
      describeEvent(event(1, "webhook", { deliveryId: "d1", attempt: 1, status: "DELIVERED", statusCode: 200 })),
    ).toBe("Delivered · attempt 1 · HTTP 200");
    expect(
      describeEvent(
        event(1, "webhook", {
          deliveryId: "d1",
          attempt: 2,
          status: "RETRYING",
          statusCode: 502,
          error: "Bad Gateway",
        }),
      ),
    ).toBe("Failed, will retry · attempt 2 · HTTP 502 · Bad Gateway");
    expect(
      describeEvent(event(1, "webhook", { deliveryId: "d1", attempt: 5, status: "FAILED", error: "timeout" })),
    ).toBe("Failed, gave up · attempt 5 · timeout");
    expect(describeEvent(event(1, "result_deleted", { code: "retention", message: "7 days" }))).toBe(
      "retention: 7 days",
    );
    expect(describeEvent(event(1, "custom", { status: 200 }))).toBe('{"status":200}');
    expect(describeEvent(event(1, "succeeded"))).toBeNull();
  });

  it("folds each run of progress updates into its latest", () => {
    const entries = timeline([
      event(1, "submitted"),
      event(2, "started"),
      event(3, "progress"),
      event(4, "progress"),
      event(5, "progress"),
      event(6, "recovered"),
      event(7, "progress"),
      event(8, "succeeded"),
    ]);
    expect(entries.map((e) => [e.event.id, e.folded])).toEqual([
      ["1", 0],
      ["2", 0],
      ["5", 2],
      ["6", 0],
      ["7", 0],
      ["8", 0],
    ]);
  });
});
