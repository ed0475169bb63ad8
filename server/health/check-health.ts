import type { THealth } from "../../lib/schemas";
import type { Db } from "../db/client";

export async function checkHealth(db: Db, version: string, timeoutMs = 2000): Promise<THealth> {
  const t = performance.now();
  try {
    await Promise.race([
      db.$queryRaw`SELECT 1`,
      new Promise((_, reject) => setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs).unref()),
    ]);
    return { status: "ok", version, database: { status: "up", latencyMs: Math.round(performance.now() - t) } };
  } catch (err) {
    const text = err instanceof Error ? err.message : String(err);
    // Prisma puts the real reason ("Can't reach database server at …") on the last line.
    const message = text.split("\n").map((l) => l.trim()).filter(Boolean).at(-1) ?? "database unreachable";
    return { status: "degraded", version, database: { status: "down", latencyMs: null, error: message } };
  }
}
