import { describe, expect, it } from "vitest";
import { sandboxHint, type HintContext } from "./sandbox-hint";

const bwrap = (over: Partial<NonNullable<HintContext["isolation"]>> = {}): HintContext => ({
  isolation: { profile: "bwrap", mounts: [{ path: "/opt/app", writable: false }], network: ["api.example.com:443"], tmpMb: 64, ...over },
});

describe("sandboxHint", () => {
  it.each<[string, string, HintContext, string | undefined]>([
    ["ENOENT on a path outside every mount", "Error: ENOENT: no such file or directory, open '/home/ada/config.json'", bwrap(), "add a read-only mount of /home/ada"],
    ["ENOENT on a path in the host's /tmp", "Error: ENOENT: no such file or directory, open '/tmp/data.csv'", bwrap(), "/tmp is private"],
    ["ENOENT inside a mount is the server's own", "Error: ENOENT: no such file or directory, open '/opt/app/missing.json'", bwrap(), undefined],
    ["a module path that is not mounted", "Error: Cannot find module '/home/ada/server/index.js'", bwrap(), "add a read-only mount of /home/ada/server"],
    ["a package name is not a sandbox matter", "Error: Cannot find module 'left-pad'", bwrap(), undefined],
    ["EACCES writing into a read-only mount", "Error: EACCES: permission denied, open '/opt/app/cache.db'", bwrap(), "make that mount writable"],
    ["EROFS outside every mount", "Error: EROFS: read-only file system, mkdir '/var/lib/srv'", bwrap(), "add a writable mount for /var/lib"],
    ["ENOSPC in the private /tmp", "Error: ENOSPC: no space left on device, write", bwrap(), "private /tmp (64 MB) is full"],
    ["DNS refused for a host not on the allowlist", "npm error request to https://registry.npmjs.org/x failed, reason: getaddrinfo EAI_AGAIN registry.npmjs.org", bwrap(), "add registry.npmjs.org:443 to the server's network allowlist"],
    ["a refused connection with its port", "Error: connect ECONNREFUSED 10.0.0.5:5432", bwrap({ network: [] }), "(empty): add 10.0.0.5:5432"],
    ["a host on the allowlist is not a sandbox matter", "Error: connect ECONNREFUSED api.example.com:443", bwrap(), undefined],
    ["no sandbox, no hint", "Error: ENOENT: no such file or directory, open '/home/ada/config.json'", { isolation: { profile: "none", mounts: [], network: [], tmpMb: 64 } }, undefined],
    ["an HTTP server has no isolation", "Error: connect ECONNREFUSED 10.0.0.5:5432", { isolation: null }, undefined],
    ["an unrelated error", "TypeError: x is not a function", bwrap(), undefined],
  ])("%s", (_title, line, ctx, expected) => {
    const hint = sandboxHint(["starting", line, "Node.js v22.1.0"], ctx);
    if (expected === undefined) expect(hint).toBeUndefined();
    else expect(hint).toContain(expected);
    if (hint) expect(hint).toMatch(/^sandbox: /);
  });
});
