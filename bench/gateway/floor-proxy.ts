// Child process: the least any stdio → HTTP MCP proxy can do, as a yardstick beside supergateway and Portcullis
// (issue 19's c=1 target). One node:http server, one upstream process spoken to in raw JSON lines, no SDK, no
// schema, no database, no check: `initialize` and notifications are answered locally, a `tools/call` goes to the
// upstream under a new id and its answer comes back as JSON.
//
// BENCH_FLOOR_LISTING=1 adds the one step no design that keeps issue 23's call-time check can leave out: before
// the call leaves, the upstream's `tools/list` answer is read and its text compared with the first one (a
// changed listing answers an error). So "floor-listing" is the lowest c=1 latency of a gateway that keeps that
// check and does nothing else (no authorization, claim, audit, rate limit or redaction).
//
// BENCH_FLOOR_UPSTREAM: the upstream command line as a JSON array (the same one the other targets run).
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { LineBuffer } from "../../server/upstream/process-transport";
import { failChild, serveChild } from "./child";

type Rpc = { id?: number | string; method?: string; result?: unknown; error?: unknown };

const checkListing = process.env.BENCH_FLOOR_LISTING === "1";
const [command, ...args] = JSON.parse(process.env.BENCH_FLOOR_UPSTREAM ?? "[]") as string[];
if (!command) failChild(new Error("BENCH_FLOOR_UPSTREAM: the upstream command line as a JSON array"));

const upstream = spawn(command, args, { stdio: ["pipe", "pipe", "inherit"] });
const waiting = new Map<number, { resolve(msg: Rpc): void; reject(err: Error): void }>();
let nextId = 0;
// Lines are read as Portcullis reads a stdio upstream's (process-transport.ts), so the yardstick differs from it
// only in what it leaves out.
const lines = new LineBuffer();
upstream.stdout.on("data", (chunk: Buffer) => {
  for (const line of lines.push(chunk)) {
    if (!line.trim()) continue;
    const msg = JSON.parse(line) as Rpc;
    if (typeof msg.id !== "number") continue;
    waiting.get(msg.id)?.resolve(msg);
    waiting.delete(msg.id);
  }
});
upstream.once("exit", (code, signal) => {
  const err = new Error(`the upstream exited (${String(signal ?? code)})`);
  for (const w of waiting.values()) w.reject(err);
  waiting.clear();
});
/** Sends one request upstream under a new id; resolves with its answer, rejects if the upstream exits first. */
const ask = (method: string, params: unknown) =>
  new Promise<Rpc>((resolve, reject) => {
    const id = ++nextId;
    waiting.set(id, { resolve, reject });
    upstream.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id, method, params })}\n`);
  });

let pinned = "";
try {
  await ask("initialize", { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "floor", version: "1" } });
  upstream.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" })}\n`);
  if (checkListing) pinned = JSON.stringify((await ask("tools/list", {})).result);
} catch (err) {
  failChild(err);
}

const server = http.createServer((req, res) => {
  if (req.method === "DELETE") return void res.writeHead(200).end();
  let body = "";
  req.setEncoding("utf8").on("data", (s: string) => (body += s));
  req.on("end", () => {
    void (async () => {
      const msg = JSON.parse(body) as Rpc & { params?: unknown };
      const json = (status: number, value: unknown, headers: Record<string, string> = {}) =>
        res.writeHead(status, { "content-type": "application/json", ...headers }).end(JSON.stringify(value));
      if (msg.id === undefined) return void res.writeHead(202).end();
      if (msg.method === "initialize") {
        const result = { protocolVersion: "2025-06-18", capabilities: { tools: {} }, serverInfo: { name: "floor", version: "1" } };
        return json(200, { jsonrpc: "2.0", id: msg.id, result }, { "mcp-session-id": randomUUID() });
      }
      if (checkListing && JSON.stringify((await ask("tools/list", {})).result) !== pinned)
        return json(200, { jsonrpc: "2.0", id: msg.id, error: { code: -32603, message: "tool_definition_changed" } });
      const answer = await ask(msg.method ?? "", msg.params);
      json(200, { jsonrpc: "2.0", id: msg.id, ...(answer.error ? { error: answer.error } : { result: answer.result }) });
    })();
  });
});
server.keepAliveTimeout = 60_000;
await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
const { port } = server.address() as AddressInfo;

serveChild({
  ready: { url: `http://127.0.0.1:${String(port)}/mcp` },
  stop: async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    upstream.kill();
  },
});
