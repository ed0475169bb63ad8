// Path whitelist: traversal, encoding, symlink, prefix-confusion and URI tricks against a real temp directory.
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkPathInWhitelist, intersectPathLists, normalizeWhitelistEntry, uriInWhitelist, type PathVerdict } from "./path-check";

// Filled in beforeAll; cases name paths relative to it as "@/…" so the tables can be built up front.
let root = "";
const at = (p: string) => p.replaceAll("@", root);

beforeAll(async () => {
  root = await realpath(await mkdtemp(path.join(os.tmpdir(), "path-check-")));
  await mkdir(at("@/allowed/sub"), { recursive: true });
  await mkdir(at("@/allowed-not"));
  await mkdir(at("@/secret/a"), { recursive: true });
  await writeFile(at("@/allowed/file.txt"), "ok");
  await writeFile(at("@/allowed/with space.txt"), "ok");
  await writeFile(at("@/allowed/sub/doc.txt"), "ok");
  await writeFile(at("@/allowed-not/file.txt"), "no");
  await writeFile(at("@/secret/file"), "no");
  await symlink("../secret", at("@/allowed/escape"));
  await symlink("./sub", at("@/allowed/inner"));
  await symlink("../secret/a", at("@/allowed/deep"));
  await symlink("loop", at("@/allowed/loop"));
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

type Opts = { baseDir?: string; resolveSymlinks?: boolean };
const W = ["@/allowed"];

// [name, value, expected normalized ("@" = temp root), options]
const ALLOWED: readonly [string, string, string, Opts?][] = [
  ["plain file inside", "@/allowed/file.txt", "@/allowed/file.txt"],
  ["the allowed directory itself", "@/allowed", "@/allowed"],
  ["trailing slash", "@/allowed/sub/", "@/allowed/sub"],
  ["/./ segments", "@/allowed/./sub/./doc.txt", "@/allowed/sub/doc.txt"],
  ["repeated slashes", "@//allowed///sub//doc.txt", "@/allowed/sub/doc.txt"],
  [".. that stays inside", "@/allowed/sub/../file.txt", "@/allowed/file.txt"],
  ["symlink that stays inside", "@/allowed/inner/doc.txt", "@/allowed/sub/doc.txt"],
  ["new file inside", "@/allowed/new-dir/new.txt", "@/allowed/new-dir/new.txt"],
  ["new dir then .. back inside", "@/allowed/new-dir/../sub/doc.txt", "@/allowed/sub/doc.txt"],
  ["encoded slash that stays inside under both readings", "@/allowed/sub%2fdoc.txt", "@/allowed/sub%2fdoc.txt"],
  ["backslash that stays inside under both readings", "@/allowed/sub\\doc.txt", "@/allowed/sub\\doc.txt"],
  ["file:// URI inside", "file://@/allowed/file.txt", "@/allowed/file.txt"],
  ["file://localhost", "file://localhost@/allowed/file.txt", "@/allowed/file.txt"],
  ["file://LOCALHOST (host is case-insensitive)", "file://LOCALHOST@/allowed/file.txt", "@/allowed/file.txt"],
  ["file: URI with one slash", "file:@/allowed/file.txt", "@/allowed/file.txt"],
  ["file:// URI with an encoded space", "file://@/allowed/with%20space.txt", "@/allowed/with space.txt"],
  ["relative path with baseDir", "allowed/sub/doc.txt", "@/allowed/sub/doc.txt", { baseDir: "@" }],
  ["relative ./ path with baseDir inside", "./file.txt", "@/allowed/file.txt", { baseDir: "@/allowed" }],
  ["NFD name inside is kept as written", "@/allowed/cafe\u0301.txt", "@/allowed/cafe\u0301.txt"],
  ["symlink escape when symlinks are not resolved", "@/allowed/escape/file", "@/allowed/escape/file", { resolveSymlinks: false }],
];

// [name, value, substring of the reason, options]
const DENIED: readonly [string, unknown, string, Opts?][] = [
  ["plain outside", "/etc/passwd", 'path "/etc/passwd" is outside the session\'s allowed paths (@/allowed)'],
  [".. traversal", "@/allowed/../secret/file", "is outside the session's allowed paths"],
  [".. traversal far above the root", "@/allowed/../../../../../../etc/passwd", "is outside"],
  ["prefix confusion", "@/allowed-not/file.txt", "is outside"],
  ["prefix confusion with ..", "@/allowed/../allowed-not", "is outside"],
  ["percent-encoded ..%2f", "@/allowed/..%2f..%2fsecret/file", "once percent-escapes are decoded"],
  ["percent-encoded %2e%2e/", "@/allowed/%2e%2e/secret/file", "once percent-escapes are decoded"],
  ["double-encoded %252e%252e%252f", "@/allowed/%252e%252e%252fsecret/file", "once percent-escapes are decoded"],
  ["four layers of encoding", "@/allowed/%2525252e", "still percent-encoded after 3 rounds"],
  ["decoded inside, but outside as written", "@/secret/%2e%2e/allowed/file.txt", "is outside"],
  ["backslash ..\\secret", "@/allowed/..\\secret\\file", 'and "\\" read as "/"'],
  ["backslashes that only look inside once read as /", "@/secret\\..\\allowed/file.txt", "is outside"],
  ["invalid UTF-8 escape", "@/allowed/%ff", "not valid UTF-8"],
  ["NUL byte", "@/allowed/file.txt\0.png", "path contains a NUL byte"],
  ["encoded NUL byte", "@/allowed/file.txt%00.png", "path after percent-decoding contains a NUL byte"],
  ["escape character", "@/allowed/\u001b[31m", "control character U+001B"],
  ["bidi override", "@/allowed/\u202egnp.txt", "control character U+202E"],
  ["lone surrogate", "@/allowed/\ud800", "lone surrogate"],
  ["file:// URI outside", "file:///etc/passwd", "is outside"],
  ["file://evil-host", "file://evil-host@/allowed/file.txt", 'names host "evil-host"'],
  ["file:// with a path as host", "file://srv/data", 'names host "srv"'],
  ["file:// URI with a query", "file://@/allowed/file.txt?x=/../../secret", "must not have a query"],
  ["file:// URI with encoded traversal", "file://@/allowed/%2e%2e/secret/file", "is outside"],
  ["symlink escape", "@/allowed/escape/file", 'resolves through a symlink to "@/secret/file"'],
  ["new file under the escape symlink", "@/allowed/escape/new.txt", "resolves through a symlink"],
  ["symlink then .. (kernel order, not text order)", "@/allowed/deep/../file", "resolves through a symlink"],
  ["new dir then .. out", "@/allowed/new-dir/../../secret/file", "is outside"],
  ["through a file then .. out", "@/allowed/file.txt/../../secret/file", "is outside"],
  ["symlink loop", "@/allowed/loop/x", "resolving it failed (ELOOP)"],
  ["relative path without baseDir", "allowed/file.txt", 'path must be absolute (got the relative path "allowed/file.txt")'],
  ["relative path escaping baseDir", "../secret/file", "is outside", { baseDir: "@/allowed" }],
  ["home directory", "~/.ssh/id_rsa", "not expanded"],
  ["Windows drive path", "C:\\Windows\\system32", "Windows drive paths"],
  ["empty string", "", "path is empty"],
  ["number", 42, "argument must be a string path"],
  ["null", null, "argument must be a string path"],
  ["object", { path: "@/allowed" }, "argument must be a string path"],
  ["URI against a path-only whitelist", "orders://order/1", 'URI "orders://order/1" is outside'],
];

const resolveOpts = (o: Opts | undefined): Opts => (o?.baseDir === undefined ? { ...o } : { ...o, baseDir: at(o.baseDir) });
const atValue = (v: unknown): unknown => (typeof v === "string" ? at(v) : v);

describe("checkPathInWhitelist on a real directory tree", () => {
  it.each(ALLOWED)("allows: %s", async (_name, value, normalized, opts) => {
    expect(await checkPathInWhitelist(at(value), W.map(at), resolveOpts(opts))).toEqual({ ok: true, normalized: at(normalized) });
  });

  it.each(DENIED)("denies: %s", async (_name, value, reason, opts) => {
    const v = await checkPathInWhitelist(atValue(value), W.map(at), resolveOpts(opts));
    expect(v.ok).toBe(false);
    expect((v as { reason: string }).reason).toContain(at(reason));
  });

  it("matches against the real path of a whitelist entry that goes through a symlink", async () => {
    const v = await checkPathInWhitelist(at("@/secret/file"), [at("@/allowed/escape")]);
    expect(v).toEqual({ ok: true, normalized: at("@/secret/file") });
  });

  it("allows everything (but still no NUL) with *", async () => {
    expect(await checkPathInWhitelist("/etc/passwd", ["*"])).toEqual({ ok: true, normalized: "/etc/passwd" });
    expect((await checkPathInWhitelist("/etc/passwd\0", ["*"])).ok).toBe(false);
  });

  it("denies everything with an empty whitelist", async () => {
    expect(await checkPathInWhitelist(at("@/allowed/file.txt"), [])).toEqual({ ok: false, reason: "the session has no allowed paths" });
  });

  it("rejects a relative baseDir as a programming error", async () => {
    await expect(checkPathInWhitelist("x", W.map(at), { baseDir: "rel" })).rejects.toThrow("baseDir must be an absolute path");
  });
});

const U = ["orders://order/", "https://wiki.example.com/space"];

const URI_CASES: readonly [string, string, PathVerdict | string][] = [
  ["inside the URI prefix", "orders://order/1", { ok: true, normalized: "orders://order/1" }],
  ["the prefix itself", "orders://order/", { ok: true, normalized: "orders://order/" }],
  ["sibling authority (prefix confusion)", "orders://orders-secret", "is outside"],
  ["scheme and host are case-insensitive", "ORDERS://Order/1", { ok: true, normalized: "orders://order/1" }],
  ["path is case-sensitive", "https://wiki.example.com/Space/page", "is outside"],
  ["segment prefix confusion in the path", "https://wiki.example.com/spaceship", "is outside"],
  ["query kept but not matched", "https://WIKI.example.com/space/page?v=2", { ok: true, normalized: "https://wiki.example.com/space/page?v=2" }],
  ["dots resolved inside", "orders://order/1/../2", { ok: true, normalized: "orders://order/2" }],
  ["unreserved escape decoded", "orders://order/%41bc", { ok: true, normalized: "orders://order/Abc" }],
  ["percent-encoded traversal", "orders://order/..%2f..%2fsecret", 'URI "orders://order/..%2f..%2fsecret" once percent-decoded climbs above its root'],
  ["%2e%2e climbs above the authority", "orders://order/%2e%2e/x", "climbs above its root"],
  ["encoded traversal that lands inside once decoded", "https://wiki.example.com/x%2F..%2Fspace/p", "is outside"],
  ["userinfo trick", "https://wiki.example.com@evil.com/space/p", "is outside"],
  ["encoded NUL", "orders://order/1%00", "contains a NUL byte"],
  ["other scheme", "http://wiki.example.com/space/p", "is outside"],
  ["a path against a URI-only whitelist", "/srv/data/x", "is outside"],
];

describe("uriInWhitelist", () => {
  it.each(URI_CASES)("%s", (_name, uri, expected) => {
    const v = uriInWhitelist(uri, U);
    if (typeof expected === "string") expect(v.ok ? v.normalized : v.reason).toContain(expected);
    else expect(v).toEqual(expected);
  });

  it("checks filesystem paths by text only, without symlinks", () => {
    expect(uriInWhitelist("file:///srv/data/a/../b", ["/srv/data"])).toEqual({ ok: true, normalized: "/srv/data/b" });
    expect(uriInWhitelist("/srv/database", ["/srv/data"]).ok).toBe(false);
  });

  it("gives the same answers from checkPathInWhitelist", async () => {
    for (const [, uri] of URI_CASES) expect(await checkPathInWhitelist(uri, U)).toEqual(uriInWhitelist(uri, U));
  });
});

const ENTRIES: readonly [string, string][] = [
  ["/srv/data/", "/srv/data"],
  [" /srv//data/./x/.. ", "/srv/data"],
  ["/", "/"],
  ["file:///srv/data", "/srv/data"],
  ["file://localhost/srv/my%20data/", "/srv/my data"],
  ["ORDERS://Order/", "orders://order/"],
  ["https://Wiki.Example.com/space/", "https://wiki.example.com/space"],
  ["https://wiki.example.com/my space/caf%c3%a9", "https://wiki.example.com/my%20space/caf%C3%A9"],
  ["*", "*"],
  ["test://", "test://"],
  ["TEST://", "test://"],
  ["urn:", "urn:"],
];

const BAD_ENTRIES: readonly [string, string][] = [
  ["", "empty"],
  ["   ", "empty"],
  ["data/reports", "must be an absolute path"],
  ["~/data", "must be an absolute path"],
  ["file://evil/x", 'names host "evil"'],
  ["https://wiki.example.com/space?x=1", "must not have a query"],
  ["C:\\data", "Windows drive paths"],
  ["/srv/\0data", "NUL byte"],
  ["orders://order/../..", "climbs above its root"],
];

describe("normalizeWhitelistEntry", () => {
  it.each(ENTRIES)("%j → %j (and is idempotent)", (entry, expected) => {
    expect(normalizeWhitelistEntry(entry)).toBe(expected);
    expect(normalizeWhitelistEntry(expected)).toBe(expected);
  });

  it.each(BAD_ENTRIES)("rejects %j", (entry, message) => {
    expect(() => normalizeWhitelistEntry(entry)).toThrow(message);
  });
});

const INTERSECTIONS: readonly [string, string[], string[], string[]][] = [
  ["asked narrower", ["/srv/data/reports"], ["/srv/data"], ["/srv/data/reports"]],
  ["held narrower", ["/srv/data"], ["/srv/data/reports", "/srv/data/archive"], ["/srv/data/archive", "/srv/data/reports"]],
  ["equal", ["/srv/data"], ["/srv/data"], ["/srv/data"]],
  ["disjoint", ["/srv/data"], ["/home"], []],
  ["prefix confusion is disjoint", ["/srv/database"], ["/srv/data"], []],
  ["* asked", ["*"], ["/srv/data", "orders://order/"], ["/srv/data", "orders://order/"]],
  ["* held", ["/srv/data", "orders://order/1"], ["*"], ["/srv/data", "orders://order/1"]],
  ["* on both sides", ["*"], ["*"], ["*"]],
  ["a whole scheme held", ["test://static-text/"], ["test://"], ["test://static-text/"]],
  ["a whole scheme asked", ["test://"], ["test://static-text/", "other://x"], ["test://static-text/"]],
  ["URIs", ["orders://order/1", "orders://orders-secret"], ["orders://order/"], ["orders://order/1"]],
  ["a path never covers a URI", ["orders://order/1"], ["/"], []],
  ["deduplicated and sorted", ["/b/x", "/a", "/b/x"], ["/b", "/a/y", "/a"], ["/a", "/a/y", "/b/x"]],
];

describe("intersectPathLists", () => {
  it.each(INTERSECTIONS)("%s", (_name, asked, held, expected) => {
    expect(intersectPathLists(asked, held)).toEqual(expected);
  });
});

/** [entry as typed, value, whether the entry covers it]: the whitelist grammar as the README states it. */
const GRAMMAR: readonly [string, string, boolean][] = [
  ["*", "/etc/passwd", true],
  ["*", "anything://x/y", true],
  ["/data", "/data", true],
  ["/data", "/data/reports/q1.csv", true],
  ["/data", "/database", false],
  ["/data/", "/database/x", false],
  ["file:///data/", "file:///data/x", true],
  ["file:///data/", "/data/x/y", true],
  ["file:///data/", "/data", true],
  ["file:///data/", "file:///database", false],
  ["file:///data/", "/database", false],
  ["test://", "test://static-text", true],
  ["test://", "test://static-text/page", true],
  ["test://", "test:///x", true],
  ["test://", "TEST://Other-Host/x", true],
  ["test://", "other://static-text", false],
  ["test://", "testx://a", false],
  ["test://", "test:opaque", false],
  ["urn:", "urn:isbn:0451450523", true],
  ["urn:", "urn://x", true],
  ["urn:", "urnx:1", false],
  ["orders://order/", "orders://order", true],
  ["orders://order/", "orders://order/ORD-1", true],
  ["orders://order/", "orders://orderly/1", false],
  ["orders://order/ORD-1", "orders://order/ORD-1/lines", true],
  ["orders://order/ORD-1", "orders://order/ORD-12", false],
  ["https://wiki.example.com/space", "https://wiki.example.com/space/page?x=1", true],
  ["https://wiki.example.com/space", "https://wiki.example.com/spaces", false],
];

describe("whitelist grammar: entries cover what users read them to cover", () => {
  it.each(GRAMMAR)("%j covers %j: %s", (entry, value, covered) => {
    expect(uriInWhitelist(value, [normalizeWhitelistEntry(entry)]).ok).toBe(covered);
  });
});
