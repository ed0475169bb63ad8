#!/usr/bin/env node
// Entry of `npx portcullis` / `npm start`: makes sure the Prisma client exists, then runs the TypeScript
// CLI (scripts/cli.ts) through tsx, so no separate compile step is needed.
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { register } from "tsx/esm/api";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
if (!existsSync(path.join(root, "server/db/generated/client.ts"))) {
  const { generateClient } = await import("./generate-client.mjs");
  generateClient();
}
register({ tsconfig: path.join(root, "tsconfig.json") });
await import("./cli.ts");
