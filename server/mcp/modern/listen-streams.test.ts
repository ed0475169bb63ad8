import { describe, expect, it } from "vitest";
import { createListenStreams } from "./listen-streams";

describe("listen streams per agent session", () => {
  it("holds at most the limit per agent session, frees a slot on release, and ends every stream at shutdown", () => {
    const streams = createListenStreams(2);
    const ended: string[] = [];
    const a = streams.add("s1", () => ended.push("a"));
    streams.add("s1", () => ended.push("b"));
    expect(streams.add("s1", () => ended.push("c"))).toBeNull();
    expect(streams.add("s2", () => ended.push("d"))).not.toBeNull();
    a!.release();
    a!.release();
    expect(streams.count("s1")).toBe(1);
    expect(streams.add("s1", () => ended.push("e"))).not.toBeNull();
    streams.endAll();
    expect(ended.sort()).toEqual(["b", "d", "e"]);
  });
});
