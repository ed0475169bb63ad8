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

describe("ProcessTransport writes", () => {
  it("sends the messages of one turn of the event loop in one write, in order, and a later turn's too", async () => {
    // The child answers each chunk it reads with the ids it held: one write under PIPE_BUF arrives whole.
    const child = `
      let rest = "";
      process.stdin.on("data", (chunk) => {
        const lines = (rest + chunk).split("\\n");
        rest = lines.pop();
        const ids = lines.filter(Boolean).map((l) => JSON.parse(l).id);
        process.stdout.write(JSON.stringify({ jsonrpc: "2.0", method: "chunk", params: { ids } }) + "\\n");
      });`;
    const t = new ProcessTransport({ command: process.execPath, args: ["-e", child], env: {} });
    const chunks: number[][] = [];
    const waiters: { count: number; resolve: () => void }[] = [];
    let seen = 0;
    const seenAll = (count: number) => new Promise<void>((resolve) => waiters.push({ count, resolve }));
    t.onmessage = (m) => {
      const ids = (m as unknown as { params: { ids: number[] } }).params.ids;
      chunks.push(ids);
      seen += ids.length;
      for (const w of waiters) if (seen >= w.count) w.resolve();
    };
    await t.start();
    const first = seenAll(20);
    await Promise.resolve();
    await Promise.all(Array.from({ length: 20 }, (_, i) => t.send({ jsonrpc: "2.0", id: i, method: "ping" })));
    await first;
    const second = seenAll(25);
    await Promise.all(Array.from({ length: 5 }, (_, i) => t.send({ jsonrpc: "2.0", id: 20 + i, method: "ping" })));
    await second;
    await t.close();
    expect(chunks).toEqual([Array.from({ length: 20 }, (_, i) => i), [20, 21, 22, 23, 24]]);
  });
});
