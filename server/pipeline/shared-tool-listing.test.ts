import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { LATEST_PROTOCOL_VERSION, ListToolsRequestSchema, type Tool } from "@modelcontextprotocol/sdk/types.js";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import { describe, expect, it } from "vitest";
import { createSharedToolListing, listNamedTools } from "./shared-tool-listing";

const tool = (name: string, description = "v1"): Tool => ({ name, description, inputSchema: { type: "object" } });

/** A listing that answers only when told to, recording which names each listing was asked for. */
function heldListing(version: () => string) {
  const asked: string[][] = [];
  const release: (() => void)[] = [];
  const list = (names: ReadonlySet<string>) => {
    asked.push([...names].sort());
    const v = version();
    return new Promise<Map<string, Tool>>((resolve) => release.push(() => resolve(new Map([...names].map((n) => [n, tool(n, v)])))));
  };
  return { asked, list, releaseNext: () => release.shift()!() };
}

const settle = () => new Promise((r) => setImmediate(r));

describe("createSharedToolListing", () => {
  it("sends a lone call's listing at once, and makes the calls that arrive while it is out share the next one", async () => {
    let version = "v1";
    const upstream = heldListing(() => version);
    const offered = createSharedToolListing();
    const signal = new AbortController().signal;
    const first = offered("s|active", { name: "a", timeoutMs: 1000, list: upstream.list }, signal);
    expect(upstream.asked).toEqual([["a"]]);
    // The server changes after the first listing was sent: the calls arriving now must not get its answer.
    version = "v2";
    const later = ["b", "c", "a"].map((name) => offered("s|active", { name, timeoutMs: 1000, list: upstream.list }, signal));
    expect(upstream.asked).toHaveLength(1);
    upstream.releaseNext();
    expect((await first)?.description).toBe("v1");
    await settle();
    expect(upstream.asked).toEqual([["a"], ["a", "b", "c"]]);
    upstream.releaseNext();
    expect((await Promise.all(later)).map((t) => `${t?.name}:${t?.description}`)).toEqual(["b:v2", "c:v2", "a:v2"]);
  });

  it("keeps connections apart", async () => {
    const one = heldListing(() => "v1");
    const two = heldListing(() => "v1");
    const offered = createSharedToolListing();
    const signal = new AbortController().signal;
    const a = offered("one|active", { name: "x", timeoutMs: 1000, list: one.list }, signal);
    const b = offered("two|active", { name: "y", timeoutMs: 1000, list: two.list }, signal);
    expect([one.asked, two.asked]).toEqual([[["x"]], [["y"]]]);
    one.releaseNext();
    two.releaseNext();
    expect([(await a)?.name, (await b)?.name]).toEqual(["x", "y"]);
  });

  it("lets a cancelled caller stop waiting while the others get the listing", async () => {
    const upstream = heldListing(() => "v1");
    const offered = createSharedToolListing();
    const cancel = new AbortController();
    const kept = offered("s|active", { name: "a", timeoutMs: 1000, list: upstream.list }, new AbortController().signal);
    const gone = offered("s|active", { name: "a", timeoutMs: 1000, list: upstream.list }, cancel.signal);
    // Both arrived before the first listing went: gone joins the next batch; kept has the first.
    cancel.abort(new Error("agent cancelled"));
    await expect(gone).rejects.toThrow("agent cancelled");
    upstream.releaseNext();
    expect((await kept)?.name).toBe("a");
    await settle();
    // The next batch still runs for nobody's harm; it answers no one.
    upstream.releaseNext();
  });

  it("fails only the calls of the listing that failed", async () => {
    let fail = true;
    const offered = createSharedToolListing();
    const list = (names: ReadonlySet<string>) => (fail ? Promise.reject(new Error("upstream went away")) : Promise.resolve(new Map([...names].map((n) => [n, tool(n)]))));
    const signal = new AbortController().signal;
    await expect(offered("s|active", { name: "a", timeoutMs: 1000, list }, signal)).rejects.toThrow("upstream went away");
    fail = false;
    expect((await offered("s|active", { name: "a", timeoutMs: 1000, list }, signal))?.name).toBe("a");
  });
});

describe("listNamedTools", () => {
  it("reads a real server's listing across pages without compiling a validator per listing", async () => {
    const withOutput = (name: string): Tool => ({ name, inputSchema: { type: "object" }, outputSchema: { type: "object", properties: { ok: { type: "boolean" } } } });
    const pages: Record<string, { tools: Tool[]; nextCursor?: string }> = { "": { tools: [withOutput("a"), withOutput("b")], nextCursor: "p2" }, p2: { tools: [withOutput("c")] } };
    const server = new Server({ name: "paged", version: "1" }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, (req) => pages[req.params?.cursor ?? ""]!);
    let compiled = 0;
    const ajv = new AjvJsonSchemaValidator();
    const client = new Client({ name: "t", version: "1" }, { jsonSchemaValidator: { getValidator: (schema) => (compiled++, ajv.getValidator(schema)) } });
    const [a, b] = InMemoryTransport.createLinkedPair();
    await Promise.all([server.connect(a), client.connect(b)]);
    for (let i = 0; i < 5; i++) {
      const found = await listNamedTools(client, new Set(["a", "c", "missing"]), undefined, 5000);
      expect([...found.keys()]).toEqual(["a", "c"]);
    }
    expect(compiled).toBe(0);
    await client.close();
  });

  /** A client connected to a raw peer that answers the handshake and serves `tools` as its whole listing, unchecked. */
  async function rawListing(tools: unknown[]) {
    const [peer, mine] = InMemoryTransport.createLinkedPair();
    peer.onmessage = (msg) => {
      if (!("id" in msg) || !("method" in msg)) return;
      const result =
        msg.method === "initialize"
          ? { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: { tools: {} }, serverInfo: { name: "raw", version: "1" } }
          : msg.method === "tools/list"
            ? { tools }
            : {};
      void peer.send({ jsonrpc: "2.0", id: msg.id, result });
    };
    await peer.start();
    const client = new Client({ name: "t", version: "1" });
    await client.connect(mine);
    return client;
  }

  it("checks a named tool whole and leaves the others' definitions alone", async () => {
    const client = await rawListing([{ name: "broken", inputSchema: "not a schema" }, { name: "fine", description: "ok", inputSchema: { type: "object" } }]);
    const found = await listNamedTools(client, new Set(["fine"]), undefined, 5000);
    expect(found.get("fine")).toEqual({ name: "fine", description: "ok", inputSchema: { type: "object" } });
    await expect(listNamedTools(client, new Set(["broken"]), undefined, 5000)).rejects.toThrow(/inputSchema/);
    await client.close();
  });

  it("refuses a page that is not a listing", async () => {
    const client = await rawListing([{ description: "no name" }]);
    await expect(listNamedTools(client, new Set(["fine"]), undefined, 5000)).rejects.toThrow(/name/);
    await client.close();
  });
});
