// The methods each App Router route file exports, read from the files themselves, so the HTTP server can
// answer a method a route does not serve with our own error before Next.js answers it with an empty 405.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

export const HTTP_METHODS = ["GET", "HEAD", "OPTIONS", "POST", "PUT", "PATCH", "DELETE"] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

type Segment = { kind: "static"; name: string } | { kind: "param" } | { kind: "catchAll"; optional: boolean };
export type Route = { pattern: string; segments: Segment[]; methods: HttpMethod[] };

const METHOD = "(GET|HEAD|OPTIONS|POST|PUT|PATCH|DELETE)";
const DECLARED = new RegExp(`^export\\s+(?:const\\s+${METHOD}\\b|(?:async\\s+)?function\\s+${METHOD}\\b)`, "gm");
const REEXPORTED = /^export\s*\{([^}]*)\}/gm;

/** The HTTP methods a route file exports: `export const GET`, `export (async) function GET`, `export { x as GET }`. */
export function exportedMethods(source: string): HttpMethod[] {
  const found = new Set<string>();
  for (const m of source.matchAll(DECLARED)) found.add((m[1] ?? m[2])!);
  for (const m of source.matchAll(REEXPORTED)) {
    for (const part of m[1]!.split(",")) {
      const name = part
        .trim()
        .split(/\s+as\s+/)
        .pop()
        ?.trim();
      if (name) found.add(name);
    }
  }
  return HTTP_METHODS.filter((method) => found.has(method));
}

/** What Next.js serves for a route that exports `exported`: HEAD with GET, and OPTIONS always. */
export function allowedMethods(exported: readonly HttpMethod[]): HttpMethod[] {
  const allowed = new Set<HttpMethod>([...exported, "OPTIONS"]);
  if (allowed.has("GET")) allowed.add("HEAD");
  return HTTP_METHODS.filter((m) => allowed.has(m));
}

function segmentOf(dir: string): Segment | null {
  if (/^\(.*\)$/.test(dir)) return null; // a route group does not appear in the URL
  const catchAll = /^\[(\[)?\.\.\.\w+\]\]?$/.exec(dir);
  if (catchAll) return { kind: "catchAll", optional: Boolean(catchAll[1]) };
  if (/^\[\w+\]$/.test(dir)) return { kind: "param" };
  return { kind: "static", name: dir };
}

/** Every route.ts under `appDir` whose URL starts with one of `prefixes`. */
export function loadRouteTable(appDir: string, prefixes: readonly string[] = ["/api", "/mcp"]): Route[] {
  const routes: Route[] = [];
  const walk = (dir: string, parts: string[]) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) walk(path.join(dir, entry.name), [...parts, entry.name]);
      else if (entry.name === "route.ts" || entry.name === "route.js") {
        const pattern = `/${parts.join("/")}`;
        if (!prefixes.some((p) => pattern === p || pattern.startsWith(`${p}/`))) continue;
        const segments = parts.map(segmentOf).filter((s): s is Segment => s !== null);
        routes.push({
          pattern,
          segments,
          methods: allowedMethods(exportedMethods(readFileSync(path.join(dir, entry.name), "utf8"))),
        });
      }
    }
  };
  walk(appDir, []);
  return routes;
}

/** How specific a match is, segment by segment (static over a parameter over a catch-all), as Next.js ranks them. */
function rank(route: Route, parts: readonly string[]): number[] | null {
  const score: number[] = [];
  for (let i = 0; i < route.segments.length; i++) {
    const s = route.segments[i]!;
    if (s.kind === "catchAll") {
      if (!s.optional && i >= parts.length) return null;
      return [...score, 0];
    }
    if (i >= parts.length) return null;
    if (s.kind === "static" && s.name !== parts[i]) return null;
    score.push(s.kind === "static" ? 2 : 1);
  }
  return route.segments.length === parts.length ? score : null;
}

/** The route Next.js would serve `pathname` (decoded segments) with, or null. */
export function matchRoute(table: readonly Route[], parts: readonly string[]): Route | null {
  let best: { route: Route; score: number[] } | null = null;
  for (const route of table) {
    const score = rank(route, parts);
    if (!score) continue;
    if (!best || compare(score, best.score) > 0) best = { route, score };
  }
  return best?.route ?? null;
}

function compare(a: number[], b: number[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const d = (a[i] ?? -1) - (b[i] ?? -1);
    if (d !== 0) return d;
  }
  return 0;
}
