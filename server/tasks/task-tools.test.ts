import Ajv2020 from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import type { Task } from "../db/client";
import { taskAccepted } from "./task-switch";
import { asTaskCapable, pageText, toMcpTask } from "./task-tools";

describe("pageText", () => {
  it("cuts at byte boundaries without splitting a character, and the pages join to the text", () => {
    const text = "aé€😀".repeat(1000);
    const pages = pageText(text, 1001);
    expect(pages.join("")).toBe(text);
    for (const p of pages) expect(Buffer.byteLength(p)).toBeLessThanOrEqual(1001);
    expect(pages.length).toBeGreaterThan(9);
  });

  it("gives one empty page for an empty text", () => {
    expect(pageText("", 10)).toEqual([""]);
  });
});

describe("asTaskCapable", () => {
  const tool = {
    name: "t",
    inputSchema: { type: "object" as const },
    outputSchema: {
      $schema: "https://json-schema.org/draft/2020-12/schema",
      type: "object" as const,
      $defs: { n: { type: "integer" } },
      properties: { count: { $ref: "#/$defs/n" } },
      required: ["count"],
    },
  };

  it("marks the tool task-capable and lets its output be the result or a task handle, keeping $defs resolvable", () => {
    const out: Tool = asTaskCapable(tool);
    expect(out.execution?.taskSupport).toBe("optional");
    const validate = new Ajv2020({ strict: false }).compile(out.outputSchema!);
    expect(validate({ count: 3 })).toBe(true);
    expect(validate({ task_id: "t1", status: "RUNNING" })).toBe(true);
    expect(validate({ count: "three" })).toBe(false);
    expect(validate({ task_id: "t1", status: "BOGUS" })).toBe(false);
  });

  it("leaves a tool without output schema without one", () => {
    const plain: Tool = asTaskCapable({ name: "x", inputSchema: { type: "object" } });
    expect(plain.outputSchema).toBeUndefined();
  });
});

describe("task answers", () => {
  it("a task handle says how to follow it, in text and structure", () => {
    const r = taskAccepted({ id: "t1", status: "RUNNING", toolName: "a__b" }, 10);
    expect(r.structuredContent).toEqual({ task_id: "t1", status: "RUNNING" });
    expect(r.content?.[0]).toMatchObject({ type: "text", text: expect.stringMatching(/get_task_status.*10 seconds/) as unknown });
    expect(r._meta?.["portcullis/task"]).toMatchObject({ taskId: "t1", retryAfterSeconds: 10 });
  });

  it.each([
    ["PENDING", "working"],
    ["RUNNING", "working"],
    ["AWAITING_APPROVAL", "working"],
    ["SUCCEEDED", "completed"],
    ["FAILED", "failed"],
    ["EXPIRED", "failed"],
    ["CANCELED", "cancelled"],
  ])("maps %s to the MCP task status %s", (status, mcp) => {
    const now = new Date();
    const row = { id: "t", status, createdAt: now, updatedAt: now, expiresAt: null, progressMessage: null, errorMessage: null } as unknown as Task;
    expect(toMcpTask(row, 10)).toMatchObject({ taskId: "t", status: mcp, pollInterval: 10_000, ttl: null });
  });
});
