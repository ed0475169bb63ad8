// "Path" parameter rule and resource whitelist: a path or URI passes only if every way a server might read it
// (as written, and percent-decoded with "\" as "/") lies inside an allowed prefix, matched on whole segments.
// Filesystem paths are POSIX and resolved through symlinks like the kernel does; URIs never touch the disk.
import { realpath } from "node:fs/promises";
import path from "node:path";
import { compareCodeUnits } from "../../lib/compare-code-units";

export type PathVerdict = { ok: true; normalized: string } | { ok: false; reason: string };

/** One meaning of a value: a filesystem path (absolute, not yet resolved) or a canonical URI. */
type Reading = {
  kind: "fs" | "uri";
  text: string;
  /** false: what a correct server reads; true: what a server that decodes everything (and "\") reads. */
  decoded: boolean;
  /** Query and fragment of a URI, kept for `normalized` but not matched. */
  suffix: string;
};
type Resolved = Reading & { lexical: string };
type Resolver = (absolute: string) => Promise<string>;

/** Thrown inside this module to end a check with a reason; never escapes it. */
class Denied extends Error {}

const MAX_DECODE_ROUNDS = 3;
const ESCAPE = /%[0-9a-f]{2}/i;
const ESCAPE_RUNS = /(?:%[0-9a-f]{2})+/gi;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const BIDI_CONTROLS = new Set([0x200e, 0x200f, 0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069]);
/** Two or more letters before ":", so "C:" stays a drive letter. */
const URI_SCHEME = /^([a-z][a-z0-9+.-]+):/i;
/** A whitelist entry that is a scheme alone (`urn:`): every URI of that scheme. */
const WHOLE_SCHEME = /^[a-z][a-z0-9+.-]+:$/;
const DRIVE_LETTER = /^[a-z]:([\\/]|$)/i;
const FILE_URI = /^file:(?:\/\/([^/?#]*))?([^?#]*)([?#][\s\S]*)?$/i;
/** Characters a URI may hold as they are; anything else is percent-encoded in the canonical form. */
const URI_ESCAPE_OR_OTHER = /%[0-9a-f]{2}|[^A-Za-z0-9\-._~!$&'()*+,;=:@/%[\]]/giu;
const UNRESERVED = /^[A-Za-z0-9\-._~]$/;
const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

function deny(reason: string): never {
  throw new Denied(reason);
}

function quote(s: string): string {
  return JSON.stringify(s.length > 200 ? `${s.slice(0, 200)}…` : s);
}

// ---------------------------------------------------------------------------------------------- text checks

function firstControlChar(s: string): number | undefined {
  for (const ch of s) {
    const c = ch.codePointAt(0) ?? 0;
    if (c < 0x20 || (c >= 0x7f && c <= 0x9f) || BIDI_CONTROLS.has(c)) return c;
  }
  return undefined;
}

/** Denies NUL, other control characters, bidi overrides and broken UTF-16. */
function checkText(s: string, what: string): void {
  if (LONE_SURROGATE.test(s)) deny(`${what} contains invalid Unicode (a lone surrogate)`);
  const c = firstControlChar(s);
  if (c === undefined) return;
  deny(`${what} contains ${c === 0 ? "a NUL byte" : `control character U+${c.toString(16).toUpperCase().padStart(4, "0")}`}; remove it`);
}

function decodeOnce(s: string): string {
  try {
    return s.replace(ESCAPE_RUNS, (run) => utf8.decode(Buffer.from(run.replaceAll("%", ""), "hex")));
  } catch {
    return deny(`path ${quote(s)} has percent-escapes that are not valid UTF-8`);
  }
}

/** Decodes until stable; a value still encoded after MAX_DECODE_ROUNDS rounds is an attack, not a name. */
function decodeFully(s: string): string {
  let cur = s;
  for (let i = 0; i < MAX_DECODE_ROUNDS && ESCAPE.test(cur); i++) cur = decodeOnce(cur);
  if (ESCAPE.test(cur)) deny(`path ${quote(s)} is still percent-encoded after ${String(MAX_DECODE_ROUNDS)} rounds of decoding`);
  return cur;
}

/** The sloppy reading: every escape decoded, "\" taken as a separator, NFC. */
function looseDecode(s: string): string {
  const out = decodeFully(s).replaceAll("\\", "/").normalize("NFC");
  checkText(out, "path after percent-decoding");
  return out;
}

// ------------------------------------------------------------------------------------------ filesystem paths

/** Collapses "//", "." and ".." by text alone and drops a trailing "/". */
function lexical(p: string): string {
  const n = path.posix.normalize(p);
  return n.length > 1 ? n.replace(/\/+$/, "") : n;
}

function fsReading(p: string, baseDir: string | undefined, decoded: boolean): Reading {
  if (p.startsWith("~")) deny(`path ${quote(p)} starts with "~", which is not expanded; use an absolute path`);
  if (p.startsWith("/")) return { kind: "fs", text: p, decoded, suffix: "" };
  if (baseDir === undefined) deny(`path must be absolute (got the relative path ${quote(p)})`);
  return { kind: "fs", text: `${baseDir}/${p}`, decoded, suffix: "" };
}

/** file:///p, file://localhost/p and file:/p name a local file; any other host is another machine. */
function fileUriReadings(raw: string): [Reading, Reading] {
  const [, host, p = "", rest] = FILE_URI.exec(raw) ?? [];
  if (rest) deny(`file: URI ${quote(raw)} must not have a query or fragment`);
  if (host !== undefined && host !== "" && host.toLowerCase() !== "localhost") {
    deny(`file: URI ${quote(raw)} names host "${host}"; only local files are allowed (write file:///absolute/path)`);
  }
  if (!p.startsWith("/")) deny(`file: URI ${quote(raw)} must hold an absolute path (file:///absolute/path)`);
  const once = decodeOnce(p);
  checkText(once, "path after percent-decoding");
  return [fsReading(once, undefined, false), fsReading(looseDecode(p), undefined, true)];
}

/** Like realpath(3), but a path that does not exist yet keeps its missing tail after the deepest real ancestor. */
async function realResolve(absolute: string): Promise<string> {
  const segments = absolute.split("/").filter((s) => s !== "" && s !== ".");
  for (let i = segments.length; i >= 0; i--) {
    const real = await realpathOrNull(`/${segments.slice(0, i).join("/")}`);
    if (real === null) continue;
    const tail = segments.slice(i);
    const joined = path.posix.resolve(real, ...tail);
    // ".." in the missing tail may climb back into existing directories: resolve those again (no ".." left).
    return tail.includes("..") ? realResolve(joined) : joined;
  }
  return lexical(absolute);
}

async function realpathOrNull(p: string): Promise<string | null> {
  try {
    return await realpath(p);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return null;
    return deny(`cannot check path ${quote(p)}: resolving it failed (${code ?? String(err)})`);
  }
}

// ------------------------------------------------------------------------------------------------------ URIs

/** Unreserved escapes decoded, other escapes upper-cased, characters a URI may not hold encoded (RFC 3986 6.2.2). */
function canonicalEscapes(s: string): string {
  return s.replace(URI_ESCAPE_OR_OTHER, (m) => {
    if (m.length !== 3 || !m.startsWith("%")) return encodeURIComponent(m);
    const c = String.fromCharCode(parseInt(m.slice(1), 16));
    return UNRESERVED.test(c) ? c : m.toUpperCase();
  });
}

function resolveDots(parts: readonly string[], what: string): string[] {
  const out: string[] = [];
  for (const part of parts) {
    if (part === "" || part === ".") continue;
    if (part !== "..") out.push(part);
    else if (out.pop() === undefined) deny(`${what} climbs above its root with ".."`);
  }
  return out;
}

/**
 * scheme:[//authority]path with scheme and authority lower-cased, no empty or dot segments, no trailing "/".
 * A bare `scheme://` stays as it is: as a whitelist entry it means every URI of the scheme, whatever its authority.
 */
function joinUri(scheme: string, main: string, mapPath: (p: string) => string, what: string): string {
  if (main === "//") return `${scheme.toLowerCase()}://`;
  let authority: string | null = null;
  let p = main;
  if (main.startsWith("//")) {
    const end = main.indexOf("/", 2);
    authority = (end < 0 ? main.slice(2) : main.slice(2, end)).toLowerCase();
    p = end < 0 ? "" : main.slice(end);
  }
  const segments = resolveDots(mapPath(p).split("/"), what);
  const lead = authority !== null || p.startsWith("/") ? "/" : "";
  return `${scheme.toLowerCase()}:${authority === null ? "" : `//${authority}`}${lead}${segments.join("/")}`;
}

function splitScheme(raw: string): { scheme: string; rest: string } {
  const scheme = URI_SCHEME.exec(raw)?.[1] ?? "";
  return { scheme, rest: raw.slice(scheme.length + 1) };
}

/** The meaning RFC 3986 gives the URI: query and fragment apart, %2F stays inside its segment. */
function canonicalUri(raw: string): Reading {
  const { scheme, rest } = splitScheme(raw.normalize("NFC"));
  const cut = rest.search(/[?#]/);
  const main = cut < 0 ? rest : rest.slice(0, cut);
  const text = joinUri(scheme, main, canonicalEscapes, `URI ${quote(raw)}`);
  return { kind: "uri", text, decoded: false, suffix: cut < 0 ? "" : rest.slice(cut) };
}

/** What a server that decodes the whole URI before splitting it reads (query included, as path). */
function looseUri(raw: string): Reading {
  const { scheme, rest } = splitScheme(raw);
  const text = joinUri(scheme, looseDecode(rest), (p) => p, `URI ${quote(raw)} once percent-decoded`);
  return { kind: "uri", text, decoded: true, suffix: "" };
}

// --------------------------------------------------------------------------------------------------- values

/** The standard reading first (it becomes `normalized`), then the fully decoded one. */
function readingsOf(raw: string, baseDir: string | undefined): [Reading, Reading] {
  if (/^file:/i.test(raw)) return fileUriReadings(raw);
  if (DRIVE_LETTER.test(raw)) deny(`Windows drive paths like ${quote(raw)} are not supported; use an absolute POSIX path`);
  if (URI_SCHEME.test(raw)) return [canonicalUri(raw), looseUri(raw)];
  return [fsReading(raw, baseDir, false), fsReading(looseDecode(raw), baseDir, true)];
}

function precheck(value: unknown, whitelist: readonly string[]): string {
  if (typeof value !== "string") deny("argument must be a string path");
  if (whitelist.length === 0) deny("the session has no allowed paths");
  if (value.trim() === "") deny("path is empty");
  checkText(value, "path");
  return value;
}

/**
 * Segment-wise prefix: "/srv/data" holds "/srv/data/x" but not "/srv/database"; an entry ending in "/" (such as
 * `orders://order/` or a whole scheme, `test://`) or in ":" (`urn:`, every URI of the scheme) is a plain prefix.
 */
function inside(value: string, entry: string): boolean {
  if (entry === "*") return true;
  if (entry.endsWith("/") || WHOLE_SCHEME.test(entry)) return value.startsWith(entry);
  return value === entry || value.startsWith(`${entry}/`);
}

function listEntries(whitelist: readonly string[]): string {
  const shown = whitelist.slice(0, 5).join(", ");
  return whitelist.length > 5 ? `${shown} and ${String(whitelist.length - 5)} more` : shown;
}

function outsideReason(raw: string, r: Resolved, whitelist: readonly string[]): string {
  const noun = r.kind === "uri" ? "URI" : "path";
  const allowed = `the session's allowed paths (${listEntries(whitelist)})`;
  if (r.decoded) {
    return `${noun} ${quote(raw)} leads outside ${allowed} once percent-escapes are decoded and "\\" read as "/" (to ${quote(r.text)}); send it without escapes or backslashes`;
  }
  if (r.kind === "fs" && r.text !== r.lexical) return `path ${quote(raw)} resolves through a symlink to ${quote(r.text)}, outside ${allowed}`;
  return `${noun} ${quote(raw)} is outside ${allowed}`;
}

type EntryLists = { standard: string[]; decoded: string[] };

function judge(raw: string, readings: readonly [Resolved, Resolved], entries: EntryLists, whitelist: readonly string[]): string {
  for (const r of readings) {
    const list = r.decoded ? entries.decoded : entries.standard;
    if (!list.some((e) => inside(r.text, e))) deny(outsideReason(raw, r, whitelist));
  }
  return readings[0].text + readings[0].suffix;
}

/** Each entry as the standard reading sees it, and as the decoded reading does (an entry that cannot be decoded matches nothing). */
function entryTexts(whitelist: readonly string[]): EntryLists {
  const decoded: string[] = [];
  for (const e of whitelist) {
    try {
      decoded.push(e.startsWith("/") ? lexical(looseDecode(e)) : looseUri(e).text);
    } catch (err) {
      if (!(err instanceof Denied)) throw err;
    }
  }
  return { standard: [...whitelist], decoded };
}

async function resolveReading(r: Reading, resolve: Resolver): Promise<Resolved> {
  if (r.kind === "uri") return { ...r, lexical: r.text };
  return { ...r, text: await resolve(r.text), lexical: lexical(r.text) };
}

/** Filesystem entries resolved too (an unreadable one stays as written), so "/tmp/x" works where /tmp is a symlink. */
async function resolveEntries(texts: readonly string[], resolve: Resolver): Promise<string[]> {
  return Promise.all(texts.map(async (e) => (e.startsWith("/") ? resolve(e).catch(() => lexical(e)) : e)));
}

function toVerdict(run: () => string): PathVerdict {
  try {
    return { ok: true, normalized: run() };
  } catch (err) {
    if (err instanceof Denied) return { ok: false, reason: err.message };
    throw err;
  }
}

async function toVerdictAsync(run: () => Promise<string>): Promise<PathVerdict> {
  try {
    return { ok: true, normalized: await run() };
  } catch (err) {
    if (err instanceof Denied) return { ok: false, reason: err.message };
    throw err;
  }
}

// -------------------------------------------------------------------------------------------------- exports

/** Normalizes one whitelist entry (what an admin or session creator typed): absolute path, file:// URI, or other URI prefix, or "*". Throws an Error with a readable message for an invalid entry (relative path, empty). */
export function normalizeWhitelistEntry(entry: string): string {
  const raw = entry.trim();
  if (raw === "") throw new Error("whitelist entry is empty");
  if (raw === "*") return "*";
  try {
    checkText(raw, "whitelist entry");
    if (/^file:/i.test(raw)) return lexical(fileUriReadings(raw)[0].text.normalize("NFC"));
    if (DRIVE_LETTER.test(raw)) deny("Windows drive paths are not supported; use an absolute POSIX path");
    if (URI_SCHEME.test(raw)) {
      const uri = canonicalUri(raw);
      if (uri.suffix !== "") deny("a URI prefix must not have a query or fragment");
      return uri.text;
    }
    if (!raw.startsWith("/")) deny("must be an absolute path (/srv/data), a URI prefix (orders://order/) or *");
    return lexical(raw.normalize("NFC"));
  } catch (err) {
    if (err instanceof Denied) throw new Error(`invalid whitelist entry ${quote(entry)}: ${err.message}`, { cause: err });
    throw err;
  }
}

/** Whether `value` (a tool argument) lies inside one of `whitelist` (already-normalized entries). Async because of realpath. */
export async function checkPathInWhitelist(
  value: unknown,
  whitelist: readonly string[],
  opts: { baseDir?: string; resolveSymlinks?: boolean /* default true */ } = {},
): Promise<PathVerdict> {
  const { baseDir } = opts;
  if (baseDir !== undefined && !baseDir.startsWith("/")) throw new Error(`baseDir must be an absolute path (got ${quote(baseDir)})`);
  const resolve: Resolver = opts.resolveSymlinks === false ? async (p) => lexical(p) : realResolve;
  return toVerdictAsync(async () => {
    const raw = precheck(value, whitelist);
    if (whitelist.includes("*")) return raw.normalize("NFC");
    const [standard, decoded] = readingsOf(raw, baseDir);
    const readings = [await resolveReading(standard, resolve), await resolveReading(decoded, resolve)] as const;
    const texts = entryTexts(whitelist);
    const entries = { standard: await resolveEntries(texts.standard, resolve), decoded: await resolveEntries(texts.decoded, resolve) };
    return judge(raw, readings, entries, whitelist);
  });
}

/** Sync check for URIs/paths without touching the filesystem (for resource URIs in resources/read). */
export function uriInWhitelist(uri: string, whitelist: readonly string[]): PathVerdict {
  return toVerdict(() => {
    const raw = precheck(uri, whitelist);
    if (whitelist.includes("*")) return raw.normalize("NFC");
    const lex = (r: Reading): Resolved => (r.kind === "fs" ? { ...r, text: lexical(r.text), lexical: lexical(r.text) } : { ...r, lexical: r.text });
    const [standard, decoded] = readingsOf(raw, undefined);
    return judge(raw, [lex(standard), lex(decoded)], entryTexts(whitelist), whitelist);
  });
}

/** Intersection of two whitelists of normalized entries (what a session asked ∩ what the user holds): for each pair keep the narrower when one contains the other; "*" contains everything. Result deduplicated, sorted. */
export function intersectPathLists(asked: readonly string[], held: readonly string[]): string[] {
  const out = new Set<string>();
  for (const a of asked) {
    for (const h of held) {
      if (covers(h, a)) out.add(a);
      else if (covers(a, h)) out.add(h);
    }
  }
  return [...out].sort(compareCodeUnits);
}

function covers(outer: string, inner: string): boolean {
  return outer === "*" || (inner !== "*" && inside(inner, outer));
}
