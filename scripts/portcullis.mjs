#!/usr/bin/env node
// Entry of `npx portcullis` / `npm start`: makes sure the Prisma client exists, then runs the CLI
// (scripts/cli.ts). It runs the ahead-of-time bundle that `npm run build` makes (.build/server/cli.mjs, D177)
// while that is current, builds it first when it is missing or older than the source, and runs the source
// through tsx only when it cannot be built here (a read-only install directory) or PORTCULLIS_SOURCE=1 asks.
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
if (!existsSync(path.join(root, "server/db/generated/client.ts"))) {
  const { generateClient } = await import("./generate-client.mjs");
  generateClient();
}

/** The bundle to run, or undefined for the source through tsx. */
async function bundleToRun() {
  if (process.env.PORTCULLIS_SOURCE === "1") return undefined;
  const { buildServerBundle, currentBundle } = await import("./server-bundle.mjs");
  const current = await currentBundle(root);
  if (current) return current;
  try {
    return await buildServerBundle({ root });
  } catch (err) {
    process.stderr.write(`portcullis: running the source through tsx; the server bundle could not be built: ${err instanceof Error ? err.message : String(err)}\n`);
    return undefined;
  }
}

const bundle = await bundleToRun();
if (bundle) {
  // No process.setSourceMapsEnabled: the logger maps the stacks it writes itself (server/source-mapped-stack.ts, D183).
  await import(pathToFileURL(bundle).href);
} else {
  const { register } = await import("tsx/esm/api");
  register({ tsconfig: path.join(root, "tsconfig.json") });
  await import("./cli.ts");
}
