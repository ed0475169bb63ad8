import { describe, expect, it } from "vitest";
import { pickErrorLines, withErrorLines } from "./pick-error-lines";

// Node 20's output for `require("left-pad-missing")`, blank lines already dropped by the transport.
const NODE_MISSING_MODULE = [
  "node:internal/modules/cjs/loader:1228",
  "  throw err;",
  "  ^",
  "Error: Cannot find module 'left-pad-missing'",
  "Require stack:",
  "- /srv/crash.js",
  "    at Module._resolveFilename (node:internal/modules/cjs/loader:1225:15)",
  "    at Module._load (node:internal/modules/cjs/loader:1051:27)",
  "{",
  "  code: 'MODULE_NOT_FOUND',",
  "  requireStack: [ '/srv/crash.js' ]",
  "}",
  "Node.js v20.20.2",
];

describe("pickErrorLines", () => {
  it.each([
    ["a Node crash: the error line first, then the last meaningful lines", NODE_MISSING_MODULE, ["Error: Cannot find module 'left-pad-missing'", "requireStack: [ '/srv/crash.js' ]", "Node.js v20.20.2"]],
    [
      "a Python traceback ending on the error",
      ["Traceback (most recent call last):", '  File "/srv/main.py", line 1, in <module>', "    import missing", "ModuleNotFoundError: No module named 'missing'"],
      ["ModuleNotFoundError: No module named 'missing'"],
    ],
    ["no error line: the last three meaningful lines", ["starting", "listening on stdio", "}", "bye"], ["starting", "listening on stdio", "bye"]],
    ["a lowercase `error:` prefix", ["warn: slow", "error: EADDRINUSE", "exiting"], ["error: EADDRINUSE", "exiting"]],
    ["nothing written", [], []],
  ])("%s", (_title, lines, expected) => {
    expect(pickErrorLines(lines)).toEqual(expected);
  });
});

describe("withErrorLines", () => {
  it("puts the picked lines after the message, and the message alone when there are none", () => {
    expect(withErrorLines("MCP error -32000: Connection closed", NODE_MISSING_MODULE)).toBe(
      "MCP error -32000: Connection closed: Error: Cannot find module 'left-pad-missing' | requireStack: [ '/srv/crash.js' ] | Node.js v20.20.2",
    );
    expect(withErrorLines("process exited", [])).toBe("process exited");
  });
});
