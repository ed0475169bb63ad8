// Prisma loads a query's relations side by side; inside a transaction they share one pg client, which warns
// (and from pg 9 fails) when a query arrives while another runs. withSerialTransactions puts them in turn.
import { describe, expect, it } from "vitest";
import { runScript } from "../test/run-script";
import { testDatabaseUrl } from "../test/test-db";

describe("createDb – queries of one transaction", () => {
  it("a query including four relations in a transaction loads them all, and pg has nothing to warn about", async () => {
    const run = await runScript("server/test/fixtures/include-in-transaction.ts", [], { ...process.env, DATABASE_URL: testDatabaseUrl(), NODE_OPTIONS: "" });
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
