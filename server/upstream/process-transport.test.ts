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

describe("ProcessTransport reads", () => {
  it("reads messages split across writes (a multibyte character too) and CRLF lines, and reports lines that are not JSON-RPC", async () => {
    // "é" is two bytes in UTF-8: the first write ends between them.
    const child = `
      const msg = Buffer.from(JSON.stringify({ jsonrpc: "2.0", method: "a", params: { text: "café" } }) + "\\n");
      const cut = msg.indexOf(0xc3) + 1;
      const writes = [msg.subarray(0, 5), msg.subarray(5, cut), Buffer.concat([msg.subarray(cut), Buffer.from('{"jsonrpc":"2.0","method":"b"}\\r\\nnot json\\n{"jsonrpc":"1.0","method":"c"}\\n[1]\\n{"jsonrpc":"2.0","method":"d"}\\n')])];
      (function next() { const w = writes.shift(); if (!w) return; process.stdout.write(w, () => setTimeout(next, 20)); })();
      process.stdin.on("data", () => undefined);`;
    const t = new ProcessTransport({ command: process.execPath, args: ["-e", child], env: {} });
    const methods: string[] = [];
    const errors: string[] = [];
    let lastSeen: () => void = () => undefined;
    const seenD = new Promise<void>((resolve) => (lastSeen = resolve));
    t.onmessage = (m) => {
      const { method, params } = m as unknown as { method: string; params?: { text?: string } };
      methods.push(params?.text ? `${method}:${params.text}` : method);
      if (method === "d") lastSeen();
    };
    t.onerror = (e) => errors.push(e.message);
    await t.start();
    await seenD;
    await t.close();
    expect(methods).toEqual(["a:café", "b", "d"]);
    expect(errors).toHaveLength(3);
    expect(errors.slice(1)).toEqual(['not a JSON-RPC 2.0 message: {"jsonrpc":"1.0","method":"c"}', "not a JSON-RPC 2.0 message: [1]"]);
  });
});
