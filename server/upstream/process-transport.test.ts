import { describe, expect, it } from "vitest";
import { ProcessTransport } from "./process-transport";

describe("ProcessTransport stderr", () => {
  it("reports each stderr line, and a last line written without a newline before the process ended", async () => {
    const lines: string[] = [];
    const t = new ProcessTransport({
      command: process.execPath,
      args: ["-e", 'process.stderr.write("first\\n\\nsecond\\nlast words"); process.exitCode = 1'],
      env: {},
      onStderr: (l) => lines.push(l),
    });
    const closed = new Promise<void>((resolve) => (t.onclose = resolve));
    await t.start();
    await closed;
    expect(lines).toEqual(["first", "second", "last words"]);
  });
});
