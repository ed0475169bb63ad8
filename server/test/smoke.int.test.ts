import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDb, truncateAll } from "./test-db";

describe("integration harness", () => {
  const db = createTestDb();
  beforeAll(() => truncateAll(db));
  afterAll(() => db.$disconnect());

  it("runs against a migrated embedded PostgreSQL", async () => {
    const [row] = await db.$queryRaw<{ count: bigint }[]>`SELECT count(*) AS count FROM _prisma_migrations`;
    expect(Number(row?.count)).toBeGreaterThanOrEqual(1);
    expect(await db.user.count()).toBe(0);
  });
});
