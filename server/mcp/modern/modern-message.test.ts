// What a 2026-07-28 client receives of the 2025 handling's messages.
import { describe, expect, it } from "vitest";
import { modernMessage } from "./modern-message";
import type { ModernMessage } from "./modern-request-refusal";

const request = (method: string, params: Record<string, unknown> = {}, meta: Record<string, unknown> = {}): ModernMessage => ({
  jsonrpc: "2.0",
  id: 1,
  method,
  params: { ...params, _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}, ...meta } },
});
const info = () => ({ name: "portcullis", version: "test" });
const SERVER_INFO = "io.modelcontextprotocol/serverInfo";

describe("modernMessage", () => {
  it("marks results complete, names the server, and hints caching on lists and reads only", () => {
    expect(modernMessage({ jsonrpc: "2.0", id: 1, result: { tools: [] } }, request("tools/list"), info)).toEqual({
      jsonrpc: "2.0",
      id: 1,
      result: { tools: [], resultType: "complete", ttlMs: 60_000, cacheScope: "private", _meta: { [SERVER_INFO]: info() } },
    });
    const call = modernMessage({ jsonrpc: "2.0", id: 1, result: { content: [] } }, request("tools/call", { name: "t" }), info);
    expect(call?.result).toEqual({ content: [], resultType: "complete", _meta: { [SERVER_INFO]: info() } });
  });

  it("keeps a tools/call's CreateTaskResult a task (without the SDK's empty content); resultType: task nowhere else", () => {
    const task = { resultType: "task", taskId: "t1", status: "working", content: [] };
    expect(modernMessage({ jsonrpc: "2.0", id: 1, result: task }, request("tools/call", { name: "t" }), info)?.result).toEqual({ resultType: "task", taskId: "t1", status: "working", _meta: { [SERVER_INFO]: info() } });
    expect(modernMessage({ jsonrpc: "2.0", id: 1, result: task }, request("prompts/get", { name: "p" }), info)?.result?.resultType).toBe("complete");
    // Without a task id it is not a task handle, whatever it says.
    expect(modernMessage({ jsonrpc: "2.0", id: 1, result: { resultType: "task", content: [] } }, request("tools/call", { name: "t" }), info)?.result?.resultType).toBe("complete");
  });

  it("builds server/discover from the initialize answer: list changes and resource updates as a listen stream serves them, no logging or 2025 tasks", () => {
    const init = { protocolVersion: "2025-11-25", capabilities: { tools: { listChanged: true }, resources: { subscribe: true, listChanged: true }, logging: {}, tasks: {}, completions: {} }, serverInfo: { name: "up", version: "1" }, instructions: "be nice" };
    const out = modernMessage({ jsonrpc: "2.0", id: 1, result: init }, request("server/discover"), info);
    expect(out?.result).toEqual({
      supportedVersions: expect.arrayContaining(["2026-07-28", "2025-11-25"]) as unknown,
      capabilities: { tools: { listChanged: true }, resources: { listChanged: true, subscribe: true }, completions: {}, extensions: { "io.modelcontextprotocol/tasks": {} } },
      instructions: "be nice",
      resultType: "complete",
      ttlMs: 60_000,
      cacheScope: "private",
      _meta: { [SERVER_INFO]: { name: "up", version: "1" } },
    });
  });

  it.each([-32002, -32602])("resource not found (%i) is Invalid Params naming the uri", (code) => {
    const out = modernMessage({ jsonrpc: "2.0", id: 1, error: { code, message: "no such resource" } }, request("resources/read", { uri: "test://x" }), info);
    expect(out?.error).toEqual({ code: -32602, message: "no such resource", data: { uri: "test://x" } });
  });

  it("leaves other errors as they are", () => {
    const error = { code: -32002, message: "not a read" };
    expect(modernMessage({ jsonrpc: "2.0", id: 1, error }, request("tools/call", { name: "t" }), info)?.error).toEqual(error);
  });

  it.each<[string, unknown, string, boolean]>([
    ["no level asked", undefined, "error", false],
    ["a level below", "info", "warning", true],
    ["the same level", "warning", "warning", true],
    ["a level above", "error", "warning", false],
    ["an unknown level asked", "loud", "error", false],
  ])("log messages: %s", (_what, asked, level, sent) => {
    const log = { jsonrpc: "2.0", method: "notifications/message", params: { level, data: "x" } };
    const out = modernMessage(log, request("tools/call", { name: "t" }, asked === undefined ? {} : { "io.modelcontextprotocol/logLevel": asked }), info);
    expect(out !== null).toBe(sent);
  });

  it("passes progress, and drops requests to the client (MRTR's)", () => {
    const progress = { jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: 1, progress: 1 } };
    expect(modernMessage(progress, request("tools/call", { name: "t" }), info)).toBe(progress);
    expect(modernMessage({ jsonrpc: "2.0", id: "r1", method: "elicitation/create", params: {} }, request("tools/call", { name: "t" }), info)).toBeNull();
  });
});
