// Generates the Prisma client (server/db/generated). The Prisma CLI wants its schema-engine binary even
// for `generate`, which never uses it; pointing it at any existing file stops the download attempt.
import { execFileSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

export function generateClient() {
  execFileSync(process.execPath, [path.join(root, "node_modules/prisma/build/index.js"), "generate"], {
    cwd: root,
    stdio: ["ignore", "inherit", "inherit"],
    env: { ...process.env, PRISMA_SCHEMA_ENGINE_BINARY: process.env.PRISMA_SCHEMA_ENGINE_BINARY ?? process.execPath, PRISMA_HIDE_UPDATE_MESSAGE: "1" },
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) generateClient();
