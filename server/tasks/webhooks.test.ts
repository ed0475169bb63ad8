import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { newCallbackSecret, signWebhook, taskWebhookPayload, verifyWebhookSignature } from "./webhooks";

const SECRET = "whsec_test-secret";
const BODY = JSON.stringify({ event: "task.completed", task: { id: "t1", status: "SUCCEEDED" } });
const NOW = 1_750_000_000;

describe("signWebhook", () => {
  it("is t=<seconds>,v1=<hex HMAC-SHA256 of `${t}.${body}`>, the receiver's own recipe", () => {
    const expected = createHmac("sha256", SECRET).update(`${NOW}.${BODY}`).digest("hex");
    expect(signWebhook(SECRET, NOW + 0.9, BODY)).toBe(`t=${NOW},v1=${expected}`);
  });
});

describe("verifyWebhookSignature", () => {
  const header = signWebhook(SECRET, NOW, BODY);
  const opts = { nowSec: NOW + 10 };

  it("accepts its own signature within the tolerance", () => {
    expect(verifyWebhookSignature(SECRET, header, BODY, opts)).toBe(true);
    expect(verifyWebhookSignature(SECRET, header, BODY, { nowSec: NOW + 300 })).toBe(true);
  });

  it("accepts a header with several v1 entries when one matches (secret rotation), and spaces after commas", () => {
    const other = signWebhook("whsec_old", NOW, BODY).split(",")[1]!;
    expect(verifyWebhookSignature(SECRET, `${header}, ${other}`, BODY, opts)).toBe(true);
    expect(verifyWebhookSignature(SECRET, `t=${NOW}, ${other}`, BODY, opts)).toBe(false);
  });

  it.each([
    ["a tampered body", SECRET, header, BODY.replace("SUCCEEDED", "FAILED")],
    ["a body with a trailing newline", SECRET, header, `${BODY}\n`],
    ["the wrong secret", "whsec_other", header, BODY],
    ["a tampered timestamp", SECRET, header.replace(`t=${NOW}`, `t=${NOW + 1}`), BODY],
  ])("rejects %s", (_, secret, h, body) => {
    expect(verifyWebhookSignature(secret, h, body, opts)).toBe(false);
  });

  it("rejects a stale timestamp and one too far in the future, by the given tolerance", () => {
    expect(verifyWebhookSignature(SECRET, header, BODY, { nowSec: NOW + 301 })).toBe(false);
    expect(verifyWebhookSignature(SECRET, header, BODY, { nowSec: NOW - 301 })).toBe(false);
    expect(verifyWebhookSignature(SECRET, header, BODY, { nowSec: NOW + 3600, toleranceSec: 3600 })).toBe(true);
    expect(verifyWebhookSignature(SECRET, header, BODY, { nowSec: NOW + 61, toleranceSec: 60 })).toBe(false);
  });

  it("checks against the current clock by default", () => {
    const fresh = signWebhook(SECRET, Date.now() / 1000, BODY);
    expect(verifyWebhookSignature(SECRET, fresh, BODY)).toBe(true);
    expect(verifyWebhookSignature(SECRET, signWebhook(SECRET, Date.now() / 1000 - 600, BODY), BODY)).toBe(false);
  });

  const v1 = header.split(",")[1]!;
  it.each([
    ["no header", undefined],
    ["a null header", null],
    ["an empty header", ""],
    ["no timestamp", v1],
    ["no signature", `t=${NOW}`],
    ["a non-numeric timestamp", `t=abc,${v1}`],
    ["a negative timestamp", `t=-${NOW},${v1}`],
    ["a fractional timestamp", `t=${NOW}.5,${v1}`],
    ["two timestamps", `t=${NOW},t=${NOW},${v1}`],
    ["a short signature", `t=${NOW},v1=${v1.slice(3, 40)}`],
    ["a non-hex signature", `t=${NOW},v1=${"z".repeat(64)}`],
    ["a part without =", `t=${NOW},${v1},junk`],
    ["a part with an empty key", `t=${NOW},=x,${v1}`],
    ["a huge header", `t=${NOW},${v1},x=${"a".repeat(3000)}`],
    ["only a v0 signature", `t=${NOW},v0=${v1.slice(3)}`],
  ])("rejects a malformed header: %s", (_, h) => {
    expect(verifyWebhookSignature(SECRET, h, BODY, opts)).toBe(false);
  });
});

describe("newCallbackSecret", () => {
  it("is whsec_ and 32 random bytes in base64url, different every time", () => {
    const a = newCallbackSecret();
    expect(a).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(a.slice(6), "base64url")).toHaveLength(32);
    expect(newCallbackSecret()).not.toBe(a);
  });
});

describe("taskWebhookPayload", () => {
  it("describes the finished task without its result", () => {
    const task = {
      id: "task_1",
      status: "FAILED" as const,
      toolName: "orders__export",
      errorCode: "upstream_timeout",
      errorMessage: "no answer in 30 s",
      createdAt: new Date("2026-01-02T03:04:05.000Z"),
      startedAt: new Date("2026-01-02T03:04:06.000Z"),
      finishedAt: new Date("2026-01-02T03:04:36.000Z"),
      resultBytes: null,
      resultTruncated: false,
      agentSessionId: "sess_1",
      result: { content: [{ type: "text", text: "secret rows" }] },
    };
    const payload = taskWebhookPayload(task);
    expect(payload).toEqual({
      event: "task.completed",
      task: {
        id: "task_1",
        status: "FAILED",
        tool: "orders__export",
        errorCode: "upstream_timeout",
        errorMessage: "no answer in 30 s",
        createdAt: "2026-01-02T03:04:05.000Z",
        startedAt: "2026-01-02T03:04:06.000Z",
        finishedAt: "2026-01-02T03:04:36.000Z",
        resultBytes: null,
        resultTruncated: false,
      },
      sessionId: "sess_1",
    });
    expect(JSON.stringify(payload)).not.toContain("secret rows");
    expect(taskWebhookPayload({ ...task, startedAt: null, finishedAt: null }).task).toMatchObject({ startedAt: null, finishedAt: null });
  });
});
