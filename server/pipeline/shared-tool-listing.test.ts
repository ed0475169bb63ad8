import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { createSharedToolListing } from "./shared-tool-listing";

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
