// Prisma loads a query's relations side by side; inside a transaction they share one pg client, which warns
// (and from pg 9 fails) when a query arrives while another runs. withSerialTransactions puts them in turn.
import { spawn } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { testDatabaseUrl } from "../test/test-db";

const REPO_ROOT = path.resolve(import.meta.dirname, "../..");

function runFixture(): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", path.join(REPO_ROOT, "server/test/fixtures/include-in-transaction.ts")], {
      cwd: REPO_ROOT,
      env: { ...process.env, DATABASE_URL: testDatabaseUrl(), NODE_OPTIONS: "" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (s: string) => (stdout += s));
    child.stderr.setEncoding("utf8").on("data", (s: string) => (stderr += s));
    child.once("error", reject);
    child.once("close", (code) => resolve({ code, stdout, stderr }));
  });
}

describe("createDb – queries of one transaction", () => {
  it("a query including four relations in a transaction loads them all, and pg has nothing to warn about", async () => {
    const run = await runFixture();
    expect(run.stderr).not.toContain("already executing a query");
    expect(run.stderr).not.toContain("DeprecationWarning");
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({
      email: expect.stringMatching(/^include-\d+@example\.com$/) as string,
      tokens: ["t1", "t2"],
      agentSessions: 0,
      grants: 0,
      tasks: 0,
    });
  });
});
