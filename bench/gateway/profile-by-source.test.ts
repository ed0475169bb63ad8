// A profile of minified chunks read by the files they were compiled from.
import { SourceMap } from "node:module";
import { describe, expect, it } from "vitest";
import { bySource, callersOf, placeOfSource, type Profile } from "./profile-by-source";

// One generated line: column 0 from redaction.ts line 129, column 10 from zod's core line 245 (checked below).
const MAP = { version: 3, sources: ["../../../server/audit/redaction.ts", "../../node_modules/zod/v4/core/core.js"], names: ["replaceMatches"], mappings: "AAgIEA,UCoH" };

const frame = (id: number, functionName: string, url: string, columnNumber: number) => ({ id, callFrame: { functionName, url, lineNumber: url ? 0 : -1, columnNumber } });

describe("profile-by-source", () => {
  it("names a package or a repository file from a compiled source's path", () => {
    expect(placeOfSource("../../../server/audit/redaction.ts")).toBe("server/audit/redaction.ts");
    expect(placeOfSource("turbopack:///[project]/node_modules/@modelcontextprotocol/sdk/dist/esm/types.js")).toBe("@modelcontextprotocol/sdk");
    expect(placeOfSource("../../node_modules/zod/v4/core/core.js")).toBe("zod");
  });

  it("sums busy time per source file and function through the map; idle is left out, unmapped frames keep their place", () => {
    const map = new SourceMap(MAP as never);
    // The map is what the test says it is.
    expect(map.findEntry(0, 0)).toMatchObject({ originalSource: MAP.sources[0], originalLine: 128 });
    expect(map.findEntry(0, 10)).toMatchObject({ originalSource: MAP.sources[1] });
    const chunk = "file:///app/.next/server/chunks/x.js";
    const profile: Profile = {
      nodes: [frame(1, "(idle)", "", 0), frame(2, "s", chunk, 0), frame(3, "nT", chunk, 10), frame(4, "(garbage collector)", "", 0)],
      samples: [1, 2, 2, 3, 4],
      timeDeltas: [500, 100, 100, 50, 25],
    };
    const { busyUs, byPlace, byFunction } = bySource(profile, (url) => (url === chunk ? map : null));
    expect(busyUs).toBe(275);
    expect(Object.fromEntries(byPlace)).toEqual({ "server/audit/redaction.ts": 200, zod: 50, "V8 garbage collector": 25 });
    expect(byFunction.get("server/audit/redaction.ts:129 (s)")).toBe(200);
    expect(byFunction.get("zod:245 (nT)")).toBe(50);
  });

  it("gives a native function's time to its nearest caller outside Node's internals", () => {
    const map = new SourceMap(MAP as never);
    const chunk = "file:///app/.next/server/chunks/x.js";
    const node = (id: number, functionName: string, url: string, columnNumber: number, children: number[]) => ({ ...frame(id, functionName, url, columnNumber), children });
    const profile: Profile = {
      nodes: [
        node(1, "(root)", "", 0, [2, 5]),
        node(2, "s", chunk, 0, [3]),
        node(3, "writevGeneric", "node:internal/stream_base_commons", 0, [4]),
        node(4, "writev", "", 0, []),
        node(5, "writev", "", 0, []),
      ],
      samples: [4, 4, 5, 2],
      timeDeltas: [30, 20, 7, 100],
    };
    const callers = callersOf(profile, (url) => (url === chunk ? map : null), "writev");
    expect(Object.fromEntries(callers)).toEqual({ "server/audit/redaction.ts:129 (s)": 50, "(no caller outside Node)": 7 });
  });
});
