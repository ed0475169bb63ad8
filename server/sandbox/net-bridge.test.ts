// The network allowlist: where each allowed target is reached inside the sandbox (planNetwork), and the bridge
// outside that checks every connection against the allowlist again before it connects (startNetBridge).
import { mkdtemp, rm, stat } from "node:fs/promises";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { planNetwork, startNetBridge, type NetBridge } from "./net-bridge";

describe("planNetwork", () => {
  it("maps each hostname to its own 127.0.1.N, written to the sandbox's /etc/hosts", () => {
    const plan = planNetwork(["api.example.com:443", "db.internal:5432", "api.example.com:80"]);
    expect(plan.listeners).toEqual([
      { addr: "127.0.1.1", port: 443, target: "api.example.com:443" },
      { addr: "127.0.1.2", port: 5432, target: "db.internal:5432" },
      { addr: "127.0.1.1", port: 80, target: "api.example.com:80" },
    ]);
    expect(plan.hosts).toBe("127.0.0.1\tlocalhost\n::1\tlocalhost\n127.0.1.1\tapi.example.com\n127.0.1.2\tdb.internal\n");
    expect(plan.addrs).toEqual([]);
  });

  it("reaches localhost and loopback addresses on 127.0.0.1 / themselves, with nothing added to loopback", () => {
    const plan = planNetwork(["localhost:8080", "127.0.0.1:9000", "127.0.0.53:53"]);
    expect(plan.listeners.map((l) => l.addr)).toEqual(["127.0.0.1", "127.0.0.1", "127.0.0.53"]);
    expect(plan.addrs).toEqual([]);
    expect(plan.hosts).toBe("127.0.0.1\tlocalhost\n::1\tlocalhost\n");
  });

  it("puts non-loopback IPv4 targets on the sandbox's loopback interface, each address once", () => {
    const plan = planNetwork(["10.0.0.5:5432", "10.0.0.5:6379", "192.168.1.9:80"]);
    expect(plan.addrs).toEqual(["10.0.0.5", "192.168.1.9"]);
    expect(plan.listeners).toEqual([
      { addr: "10.0.0.5", port: 5432, target: "10.0.0.5:5432" },
      { addr: "10.0.0.5", port: 6379, target: "10.0.0.5:6379" },
      { addr: "192.168.1.9", port: 80, target: "192.168.1.9:80" },
    ]);
  });

  it("collapses duplicates, case-insensitively", () => {
    const plan = planNetwork(["API.example.com:443", "api.example.com:443", "10.0.0.5:5432", "10.0.0.5:5432"]);
    expect(plan.listeners).toEqual([
      { addr: "127.0.1.1", port: 443, target: "api.example.com:443" },
      { addr: "10.0.0.5", port: 5432, target: "10.0.0.5:5432" },
    ]);
    expect(plan.hosts.match(/api\.example\.com/g)).toHaveLength(1);
    expect(plan.addrs).toEqual(["10.0.0.5"]);
  });

  it("plans nothing for an empty allowlist", () => {
    expect(planNetwork([])).toEqual({ addrs: [], listeners: [], hosts: "127.0.0.1\tlocalhost\n::1\tlocalhost\n" });
  });
});

describe("startNetBridge", () => {
  let dir: string;
  let echo: net.Server;
  let echoPort = 0;
  let closedPort = 0;
  let bridge: NetBridge;
  const onDenied = vi.fn<(target: string) => void>();

  const listen = (s: net.Server) =>
    new Promise<number>((resolve) => s.listen(0, "127.0.0.1", () => resolve((s.address() as net.AddressInfo).port)));

  /** Connects to the bridge as the shim does, sends `payload`, and collects everything until the bridge closes. */
  const exchange = (payload: string) =>
    new Promise<string>((resolve, reject) => {
      const c = net.connect(bridge.socketPath);
      let got = "";
      // The echo server answers once and ends; the bridge then closes the Unix socket.
      c.on("data", (d: Buffer) => (got += d.toString()));
      c.on("error", reject);
      c.on("close", () => resolve(got));
      c.once("connect", () => c.write(payload));
      setTimeout(() => c.destroy(), 5000).unref();
    });

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), "portcullis-net-bridge-"));
    echo = net.createServer((s) => s.on("data", (d) => s.end(`echo:${d.toString()}`)));
    echoPort = await listen(echo);
    const probe = net.createServer();
    closedPort = await listen(probe);
    await new Promise<void>((r) => probe.close(() => r()));
    bridge = await startNetBridge(dir, [`127.0.0.1:${String(echoPort)}`, `127.0.0.1:${String(closedPort)}`], onDenied);
  });

  afterAll(async () => {
    await bridge.close();
    await new Promise<void>((r) => echo.close(() => r()));
    await rm(dir, { recursive: true, force: true });
  });

  it("serves net.sock in the given directory, connectable by the sandbox's other user", async () => {
    expect(bridge.socketPath).toBe(path.join(dir, "net.sock"));
    expect((await stat(bridge.socketPath)).mode & 0o777).toBe(0o666);
  });

  it("connects an allowed target: OK, then the bytes flow both ways (including those sent with the header)", async () => {
    const got = await exchange(`127.0.0.1:${String(echoPort)}\nhello`);
    expect(got).toBe("OK\necho:hello");
    expect(bridge.connections()).toBe(1);
  });

  it("refuses a target not on the allowlist and reports it", async () => {
    const got = await exchange("10.1.2.3:22\n");
    expect(got).toMatch(/^NO /);
    expect(got).toBe("NO not on the allowlist\n");
    expect(onDenied).toHaveBeenCalledWith("10.1.2.3:22");
    expect(bridge.denied()).toBe(1);
  });

  it("refuses an allowed target on another port (the allowlist is host:port)", async () => {
    const got = await exchange("127.0.0.1:1\n");
    expect(got).toBe("NO not on the allowlist\n");
    expect(bridge.denied()).toBe(2);
  });

  it("answers NO unreachable for an allowed target that refuses the connection", async () => {
    const got = await exchange(`127.0.0.1:${String(closedPort)}\n`);
    expect(got).toBe("NO unreachable\n");
    expect(bridge.denied()).toBe(2); // not a denial: the allowlist let it through
  });
});
