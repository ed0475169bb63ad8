// The gateway's 1.32 Client over ModernClientTransport hears a real 2026 upstream's (v2 server SDK) list changes
// and resource updates on the subscriptions/listen stream the transport holds, as it would a 2025 session's.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { EmptyResultSchema, McpError, ResourceUpdatedNotificationSchema, ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startModernUpstream, type ModernUpstream } from "../../test/fixtures/modern-upstream-server";
import { ModernClientTransport } from "./modern-client-transport";
import { probeModernUpstream } from "./probe-modern-upstream";

describe("a 2026 upstream's listen stream under the 1.32 Client", () => {
  let upstream: ModernUpstream;
  let client: Client;

  beforeAll(async () => {
    upstream = await startModernUpstream();
    const target = { url: new URL(upstream.url), fetch, headers: {}, envelope: { capabilities: {}, clientInfo: { name: "listen-test", version: "1" } } };
    const discovered = await probeModernUpstream(target, AbortSignal.timeout(10_000));
    if (!discovered) throw new Error("the fixture did not answer server/discover");
    client = new Client({ name: "listen-test", version: "1" });
    await client.connect(new ModernClientTransport({ url: target.url, fetch, headers: {}, discovered, mode: "translate" }));
  });

  afterAll(async () => {
    await client?.close();
    await upstream?.close();
  });

  it("a tool added upstream is told as notifications/tools/list_changed, and listed", async () => {
    const told = new Promise<void>((resolve) => client.setNotificationHandler(ToolListChangedNotificationSchema, () => resolve()));
    await client.callTool({ name: "test_trigger_tool_change", arguments: {} });
    await told;
    expect((await client.listTools()).tools.map((t) => t.name)).toContain("test_added_tool_1");
  });

  it("resources/subscribe joins the stream's subscriptions: the upstream's update arrives", async () => {
    const updated = new Promise<string>((resolve) => client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => resolve(n.params.uri)));
    await client.subscribeResource({ uri: "test://watched-resource" });
    expect(await updated).toBe("test://watched-resource");
    await client.unsubscribeResource({ uri: "test://watched-resource" });
  });

  it("a subscribe without a string uri is refused with -32602 and subscribes nothing", async () => {
    const refused = await client.request({ method: "resources/subscribe", params: { uri: 5 as unknown as string } }, EmptyResultSchema).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(McpError);
    expect((refused as McpError).code).toBe(-32602);
  });
});
