// The network allowlist of a bwrap sandbox. The sandbox has its own network namespace with only a loopback
// interface, so nothing outside is reachable. For each allowed host:port a small shim inside the sandbox
// listens on a loopback address (hostnames map to 127.0.1.N through the sandbox's /etc/hosts; IPv4 addresses
// are added to its loopback interface) and hands each connection to this bridge over a Unix socket, naming
// the target. The bridge, outside, checks the target against the allowlist again (the shim runs beside
// untrusted code and is not trusted) and only then connects.
import { chmod, writeFile } from "node:fs/promises";
import net from "node:net";
import path from "node:path";
import { splitHostPort } from "../../lib/sandbox-schemas";

export type Listener = { addr: string; port: number; target: string };

export type NetPlan = {
  /** Addresses to add to the sandbox's loopback interface (non-loopback IPv4 targets). */
  addrs: string[];
  listeners: Listener[];
  /** The sandbox's /etc/hosts. */
  hosts: string;
};

const IPV4 = /^\d{1,3}(?:\.\d{1,3}){3}$/;

/** Where each allowlisted target is reached inside the sandbox. */
export function planNetwork(allow: readonly string[]): NetPlan {
  const addrs: string[] = [];
  const listeners: Listener[] = [];
  const names = new Map<string, string>();
  let hostsLines = ["127.0.0.1\tlocalhost", "::1\tlocalhost"];
  for (const entry of new Set(allow.map((a) => a.toLowerCase()))) {
    const { host, port } = splitHostPort(entry);
    let addr: string;
    if (host === "localhost") addr = "127.0.0.1";
    else if (IPV4.test(host)) {
      addr = host;
      if (!host.startsWith("127.") && !addrs.includes(host)) addrs.push(host);
    } else {
      addr = names.get(host) ?? `127.0.1.${String(names.size + 1)}`;
      if (!names.has(host)) hostsLines.push(`${addr}\t${host}`);
      names.set(host, addr);
    }
    listeners.push({ addr, port, target: entry });
  }
  hostsLines = [...hostsLines, ""];
  return { addrs, listeners, hosts: hostsLines.join("\n") };
}

export type NetBridge = { socketPath: string; denied(): number; connections(): number; close(): Promise<void> };

/** Serves the sandbox's Unix socket at `dir/net.sock`. */
export async function startNetBridge(dir: string, allow: readonly string[], onDenied: (target: string) => void): Promise<NetBridge> {
  const allowed = new Set(allow.map((a) => a.toLowerCase()));
  const socketPath = path.join(dir, "net.sock");
  const open = new Set<net.Socket>();
  let denied = 0;
  let connections = 0;
  const server = net.createServer((inside) => {
    open.add(inside);
    inside.once("close", () => open.delete(inside));
    inside.on("error", () => inside.destroy());
    let head = "";
    const onData = (chunk: Buffer) => {
      head += chunk.toString("latin1");
      const nl = head.indexOf("\n");
      if (nl < 0) {
        if (head.length > 300) inside.destroy();
        return;
      }
      inside.off("data", onData);
      inside.pause();
      const target = head.slice(0, nl).trim().toLowerCase();
      const rest = Buffer.from(head.slice(nl + 1), "latin1");
      if (!allowed.has(target)) {
        denied++;
        onDenied(target);
        inside.end("NO not on the allowlist\n");
        return;
      }
      const { host, port } = splitHostPort(target);
      const outside = net.connect({ host, port, timeout: 10_000 });
      open.add(outside);
      outside.once("close", () => {
        open.delete(outside);
        inside.destroy();
      });
      outside.once("timeout", () => outside.destroy());
      outside.on("error", () => {
        if (!inside.destroyed) inside.end("NO unreachable\n");
      });
      inside.once("close", () => outside.destroy());
      outside.once("connect", () => {
        outside.setTimeout(0);
        connections++;
        inside.write("OK\n");
        if (rest.length) outside.write(rest);
        inside.pipe(outside);
        outside.pipe(inside);
        inside.resume();
      });
    };
    inside.on("data", onData);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(socketPath, () => resolve());
  });
  // The sandbox runs as another user: it must be able to connect.
  await chmod(socketPath, 0o666);
  return {
    socketPath,
    denied: () => denied,
    connections: () => connections,
    async close() {
      for (const s of open) s.destroy();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

/** The shim run inside the sandbox (plain JavaScript for the sandbox's node): listeners, then the server. */
export const NET_SHIM_SOURCE = String.raw`
import net from "node:net";
import { spawn } from "node:child_process";
const [spec, ...command] = process.argv.slice(2);
const { socket, listeners } = JSON.parse(spec);
let pending = listeners.length;
const start = () => {
  const child = spawn(command[0], command.slice(1), { stdio: "inherit" });
  for (const s of ["SIGTERM", "SIGINT", "SIGHUP"]) process.on(s, () => child.kill(s));
  process.on("exit", () => child.kill("SIGKILL"));
  child.on("exit", (code, signal) => {
    if (signal) { process.removeAllListeners(signal); process.kill(process.pid, signal); }
    process.exit(code ?? 1);
  });
};
for (const l of listeners) {
  const server = net.createServer((client) => {
    const up = net.connect(socket);
    let ok = false, head = "";
    client.pause();
    up.on("error", () => client.destroy());
    client.on("error", () => up.destroy());
    up.on("close", () => client.destroy());
    client.on("close", () => up.destroy());
    up.once("connect", () => up.write(l.target + "\n"));
    const onData = (chunk) => {
      head += chunk.toString("latin1");
      const nl = head.indexOf("\n");
      if (nl < 0) return;
      up.off("data", onData);
      if (!head.startsWith("OK")) { client.destroy(); return; }
      ok = true;
      const rest = Buffer.from(head.slice(nl + 1), "latin1");
      if (rest.length) client.write(rest);
      up.pipe(client); client.pipe(up); client.resume();
    };
    up.on("data", onData);
  });
  server.listen(l.port, l.addr, () => { if (--pending === 0) start(); });
  server.on("error", (err) => { process.stderr.write("sandbox network shim: " + err.message + "\n"); process.exit(99); });
}
if (listeners.length === 0) start();
`;

export async function writeNetFiles(dir: string, plan: NetPlan): Promise<{ hostsFile: string; shimFile: string }> {
  const hostsFile = path.join(dir, "hosts");
  const shimFile = path.join(dir, "net-shim.mjs");
  await writeFile(hostsFile, plan.hosts, { mode: 0o644 });
  await writeFile(shimFile, NET_SHIM_SOURCE, { mode: 0o644 });
  return { hostsFile, shimFile };
}
