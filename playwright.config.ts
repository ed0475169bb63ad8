// Browser tests against a real Portcullis (embedded PostgreSQL, migrations, seeded admin) in Debian's
// Chromium; never a browser Playwright downloads. Run through `node scripts/e2e.mjs`.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { defineConfig, devices } from "@playwright/test";
import { ADMIN_EMAIL, ADMIN_PASSWORD, DEFAULT_E2E_PORT } from "./e2e/constants";

// Playwright loads this file in the runner and again in each worker; the environment carries the values
// chosen first, so every process talks to the same server and data directory.
process.env.E2E_PORT ??= String(DEFAULT_E2E_PORT);
process.env.E2E_DATA_DIR ??= mkdtempSync(path.join(tmpdir(), "portcullis-e2e-"));
const port = Number(process.env.E2E_PORT);
const dataDir = process.env.E2E_DATA_DIR;
const baseURL = `http://127.0.0.1:${port}`;

export default defineConfig({
  testDir: "./e2e",
  fullyParallel: false,
  workers: 1,
  forbidOnly: true,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  // scripts/test.mjs asks for a JSON report to count the tests it ran.
  reporter: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ? [["list"], ["json"]] : [["list"]],
  outputDir: path.join(tmpdir(), "portcullis-e2e-results"),
  use: {
    baseURL,
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    // One browser context per worker, reset between tests (cookies, storage, cache, pages, routes; e2e/fixtures.ts
    // undoes the rest), instead of a new one per test: a new context starts a renderer with nothing cached, and
    // Chromium spent about 3 s of CPU on each test's first page. Whole suite, this machine (D182): Chromium 928 → 637
    // CPU seconds, 13.1 → 10.5 minutes. A test that asks for other options (a phone, no JavaScript) gets a context of
    // its own, as Playwright does for any option it cannot change on a reused one. E2E_NO_REUSE=1 turns it off (to
    // tell a test that depends on another's state from one that fails alone).
    reuseContext: process.env.E2E_NO_REUSE !== "1",
    launchOptions: {
      executablePath: "/usr/bin/chromium",
      args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
    },
  },
  projects: [{ name: "chromium", use: { ...devices["Desktop Chrome"], viewport: { width: 1280, height: 800 } } }],
  webServer: {
    command: "node scripts/portcullis.mjs start --no-build",
    url: `${baseURL}/api/health`,
    reuseExistingServer: false,
    timeout: 180_000,
    // SIGINT lets Portcullis stop its embedded PostgreSQL instead of leaving it running.
    gracefulShutdown: { signal: "SIGINT", timeout: 20_000 },
    stdout: "pipe",
    stderr: "pipe",
    env: {
      NODE_ENV: "production",
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: "127.0.0.1",
      PUBLIC_URL: baseURL,
      ADMIN_EMAIL,
      ADMIN_PASSWORD,
      LOG_LEVEL: "warn",
    },
  },
});
