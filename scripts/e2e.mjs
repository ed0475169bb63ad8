#!/usr/bin/env node
// `npm run test:e2e`: Playwright in Debian's Chromium against a fresh Portcullis. Builds the console once
// when there is no build; passes Playwright's exit code through. Extra arguments go to `playwright test`.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const CHROMIUM = "/usr/bin/chromium";

if (!existsSync(CHROMIUM)) {
  console.error(
    [
      `e2e: Chromium is not installed at ${CHROMIUM}.`,
      "The browser tests use Debian's Chromium, never a browser downloaded by Playwright. Install it with:",
      "",
      "  sudo apt-get update && sudo apt-get install -y chromium",
      "",
      "(as root, drop `sudo`), then run `npm run test:e2e` again.",
    ].join("\n"),
  );
  process.exit(1);
}

const run = (args, env = process.env) => spawnSync(process.execPath, args, { cwd: root, stdio: "inherit", env });

if (!existsSync(path.join(root, ".next", "BUILD_ID"))) {
  console.log("e2e: no Next.js build found; running `next build` first.");
  const build = run([path.join(root, "node_modules/next/dist/bin/next"), "build"], { ...process.env, NODE_ENV: "production" });
  if (build.status !== 0) {
    console.error("e2e: `next build` failed; see the output above.");
    process.exit(build.status ?? 1);
  }
}

// A throwaway data directory for this run (playwright.config.ts makes one itself when run directly).
const ownDataDir = !process.env.E2E_DATA_DIR;
const dataDir = process.env.E2E_DATA_DIR ?? mkdtempSync(path.join(tmpdir(), "portcullis-e2e-"));
const res = run([path.join(root, "node_modules/@playwright/test/cli.js"), "test", ...process.argv.slice(2)], {
  ...process.env,
  E2E_DATA_DIR: dataDir,
});
if (ownDataDir) rmSync(dataDir, { recursive: true, force: true });
if (res.error) console.error(`e2e: could not run Playwright: ${res.error.message}`);
process.exit(res.status ?? 1);
