// The installer against a registry of its own (node:http serving packuments and tarballs made with npm pack):
// scripts never run, the lockfile's integrity must match the registry's, a package that points its executable
// out of itself is refused, and the install is bounded in time and size — each with its code and what happened.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isGatewayError } from "../errors";
import { createLogger } from "../logger";
import { removeTempDirs, tempDir } from "../test/gateway-harness";
import { createPackageInstaller, type InstallLock } from "./package-installer";

type Pkg = { name: string; version: string; bin: Record<string, string>; files: Record<string, string>; scripts?: Record<string, string> };

const inProcessLock: InstallLock = (_key, fn) => fn();

describe("package installer", () => {
  let work = "";
  let base = "";
  let server: http.Server;
  const tarballs = new Map<string, { body: Buffer; integrity: string }>();
  const packuments = new Map<string, unknown>();
  /** Tarball requests the registry leaves unanswered (the install's time bound ends them). */
  const hang = new Set<string>();

  async function publish(p: Pkg, opts: { integrity?: string } = {}) {
    const src = path.join(work, "src", `${p.name}-${p.version}`);
    await mkdir(src, { recursive: true });
    await writeFile(path.join(src, "package.json"), JSON.stringify({ name: p.name, version: p.version, bin: p.bin, scripts: p.scripts ?? {} }));
    for (const [f, text] of Object.entries(p.files)) await writeFile(path.join(src, f), text);
    const file = execFileSync("npm", ["pack", "--ignore-scripts", "--silent", "--pack-destination", work], { cwd: src, encoding: "utf8" }).trim();
    const body = await readFile(path.join(work, file));
    const integrity = `sha512-${createHash("sha512").update(body).digest("base64")}`;
    const tarPath = `/${p.name}/-/${p.name}-${p.version}.tgz`;
    tarballs.set(tarPath, { body, integrity });
    packuments.set(`/${p.name}`, {
      name: p.name,
      "dist-tags": { latest: p.version },
      // As the public registry describes it: npm decides from hasInstallScript whether there are scripts to run.
      versions: {
        [p.version]: { name: p.name, version: p.version, bin: p.bin, ...(p.scripts && { scripts: p.scripts, hasInstallScript: true }), dist: { tarball: `${base}${tarPath}`, integrity: opts.integrity ?? integrity } },
      },
    });
    return { integrity, tarPath };
  }

  const installer = (dir: string, o: { timeoutMs?: number; maxBytes?: number } = {}) =>
    createPackageInstaller({ dir, npmRegistry: base, installTimeoutMs: o.timeoutMs ?? 60_000, installMaxBytes: o.maxBytes ?? 50 * 1024 * 1024, lock: inProcessLock, logger: createLogger("silent") });

  const failure = async (p: Promise<unknown>) =>
    p.then(
      () => ({ code: "resolved", message: "" }),
      (err: unknown) => (isGatewayError(err) ? { code: err.code, message: err.message } : { code: "other", message: String(err) }),
    );

  beforeAll(async () => {
    work = await tempDir("pkg-installer");
    server = http.createServer((req, res) => {
      const url = decodeURIComponent(req.url ?? "");
      if (hang.has(url)) return; // never answered
      const tar = tarballs.get(url);
      if (tar) return res.writeHead(200, { "content-type": "application/octet-stream" }).end(tar.body);
      const doc = packuments.get(url);
      if (doc) return res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(doc));
      if (url === "/broken") return res.writeHead(500).end("oops");
      res.writeHead(404, { "content-type": "application/json" }).end('{"error":"Not found"}');
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    base = `http://127.0.0.1:${String((server.address() as AddressInfo).port)}`;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
    await removeTempDirs();
  });

  it("installs without running the package's scripts and records its integrity", async () => {
    const marker = path.join(work, "postinstall-ran");
    const { integrity } = await publish({
      name: "tiny-mcp",
      version: "1.0.0",
      bin: { "tiny-mcp": "bin.js" },
      files: { "bin.js": "#!/usr/bin/env node\nconsole.log('tiny');\n" },
      scripts: { preinstall: `node -e "require('fs').writeFileSync('${marker}', 'x')"`, postinstall: `node -e "require('fs').writeFileSync('${marker}', 'x')"` },
    });
    const inst = installer(path.join(work, "a"));
    const resolved = await inst.resolve("npm", "tiny-mcp", "^1");
    expect(resolved).toMatchObject({ version: "1.0.0", integrity });
    const { dir, manifest, fresh } = await inst.ensure("tiny", { ecosystem: "npm", name: "tiny-mcp", version: "1.0.0", integrity, bin: null });
    expect(fresh).toBe(true);
    expect(manifest).toMatchObject({ name: "tiny-mcp", version: "1.0.0", integrity, bin: { name: "tiny-mcp", path: "node_modules/tiny-mcp/bin.js" } });
    expect(existsSync(marker)).toBe(false);
    expect(execFileSync(process.execPath, [path.join(dir, manifest.bin.path)], { encoding: "utf8" })).toBe("tiny\n");
    // Again: found, not installed.
    expect((await inst.ensure("tiny", { ecosystem: "npm", name: "tiny-mcp", version: "1.0.0", integrity, bin: null })).fresh).toBe(false);
  });

  it("refuses an install whose integrity is not the one the server was registered with", async () => {
    const { integrity } = await publish({ name: "swapped", version: "1.0.0", bin: { swapped: "bin.js" }, files: { "bin.js": "1" } });
    const other = `sha512-${createHash("sha512").update("something else").digest("base64")}`;
    const res = await failure(installer(path.join(work, "b")).ensure("swapped", { ecosystem: "npm", name: "swapped", version: "1.0.0", integrity: other, bin: null }));
    expect(res.code).toBe("package_install_failed");
    expect(res.message).toContain(integrity);
    expect(await readdir(path.join(work, "b", "swapped"))).toEqual([]);
  });

  it("refuses a package whose executable points outside it, or that has several and none chosen", async () => {
    await publish({ name: "escaper", version: "1.0.0", bin: { escaper: "../../../etc/passwd" }, files: { "x.js": "1" } });
    const a = await failure(installer(path.join(work, "c")).ensure("escaper", { ecosystem: "npm", name: "escaper", version: "1.0.0", integrity: null, bin: null }));
    expect(a.code).toBe("package_install_failed");
    await publish({ name: "many", version: "1.0.0", bin: { one: "a.js", two: "b.js" }, files: { "a.js": "1", "b.js": "2" } });
    const b = await failure(installer(path.join(work, "c")).ensure("many", { ecosystem: "npm", name: "many", version: "1.0.0", integrity: null, bin: null }));
    expect(b).toMatchObject({ code: "validation_failed", message: expect.stringContaining("one, two") as unknown });
    const chosen = await installer(path.join(work, "c")).ensure("many", { ecosystem: "npm", name: "many", version: "1.0.0", integrity: null, bin: "two" });
    expect(chosen.manifest.bin).toEqual({ name: "two", path: "node_modules/many/b.js" });
  });

  it("bounds the install in time and size, and leaves nothing half-written", async () => {
    const { tarPath } = await publish({ name: "slow", version: "1.0.0", bin: { slow: "bin.js" }, files: { "bin.js": "1" } });
    hang.add(tarPath);
    const slow = await failure(installer(path.join(work, "d"), { timeoutMs: 2000 }).ensure("slow", { ecosystem: "npm", name: "slow", version: "1.0.0", integrity: null, bin: null }));
    expect(slow).toMatchObject({ code: "package_install_failed", message: expect.stringContaining("within 2000 ms") as unknown });
    expect(await readdir(path.join(work, "d", "slow"))).toEqual([]);

    await publish({ name: "big", version: "1.0.0", bin: { big: "bin.js" }, files: { "bin.js": "1", "blob.txt": "x".repeat(200_000) } });
    const big = await failure(installer(path.join(work, "d"), { maxBytes: 100_000 }).ensure("big", { ecosystem: "npm", name: "big", version: "1.0.0", integrity: null, bin: null }));
    expect(big).toMatchObject({ code: "package_install_failed", message: expect.stringContaining("PACKAGE_INSTALL_MAX_MB") as unknown });
    expect(await readdir(path.join(work, "d", "big"))).toEqual([]);
  });

  it("says what the registry did: no such package, no matching version, an error, no answer, unreachable", async () => {
    await publish({ name: "present", version: "1.2.3", bin: { present: "bin.js" }, files: { "bin.js": "1" } });
    const inst = installer(path.join(work, "e"));
    expect(await failure(inst.resolve("npm", "absent", "latest"))).toMatchObject({ code: "package_not_found", message: expect.stringContaining("no package absent") as unknown });
    expect(await failure(inst.resolve("npm", "present", "^2"))).toMatchObject({ code: "package_not_found", message: expect.stringContaining("latest is 1.2.3") as unknown });
    expect(await failure(inst.resolve("npm", "broken", "latest"))).toMatchObject({ code: "package_registry_unreachable", message: expect.stringContaining("answered 500") as unknown });
    hang.add("/silent");
    const silent = createPackageInstaller({ dir: path.join(work, "e"), npmRegistry: base, installTimeoutMs: 1000, installMaxBytes: 1e6, lock: inProcessLock, logger: createLogger("silent") });
    expect(await failure(silent.resolve("npm", "silent", "latest"))).toMatchObject({ code: "package_registry_unreachable", message: expect.stringContaining("no answer within 1000 ms") as unknown });
    // A port that was free a moment ago: nothing listens there.
    const probe = http.createServer();
    await new Promise<void>((r) => probe.listen(0, "127.0.0.1", r));
    const freePort = (probe.address() as AddressInfo).port;
    await new Promise((r) => probe.close(r));
    const closed = createPackageInstaller({ dir: path.join(work, "e"), npmRegistry: `http://127.0.0.1:${String(freePort)}`, installTimeoutMs: 5000, installMaxBytes: 1e6, lock: inProcessLock, logger: createLogger("silent") });
    expect(await failure(closed.resolve("npm", "present", "latest"))).toMatchObject({ code: "package_registry_unreachable", message: expect.stringContaining("ECONNREFUSED") as unknown });
  });
});
