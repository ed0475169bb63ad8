// Whether this process should be sent traffic (GET /api/ready, a load balancer's or Kubernetes's readiness
// probe), apart from whether it is alive (/api/health). Ready only when every part that serves a call is up:
// the schema migrated to what this release knows, the database answering, the change bus listening (caches
// serve nothing while it is not), the task workers started and the upstreams' start-up done (servers that are
// down do not hold it back: they are part of normal operation). A draining process (SIGTERM) is not ready, so the
// balancer stops sending it new work while what it has finishes.
import type { TReadiness } from "../../lib/schemas";

export type ReadinessCheck = keyof TReadiness["checks"];

const CHECKS: readonly ReadinessCheck[] = ["migrations", "database", "changeBus", "tasks", "upstreams"];

export type Readiness = {
  /** Records a part as up (or down again: the change bus lost its connection). */
  set(check: Exclude<ReadinessCheck, "database">, up: boolean): void;
  /** From now on not ready, whatever the checks say. */
  drain(): void;
  readonly draining: boolean;
  /** The report; `databaseUp` pings the database (it is asked each time, not remembered). */
  report(databaseUp: () => Promise<boolean>): Promise<TReadiness>;
};

export function createReadiness(): Readiness {
  const up = new Set<ReadinessCheck>();
  let draining = false;
  return {
    set(check, isUp) {
      if (isUp) up.add(check);
      else up.delete(check);
    },
    drain() {
      draining = true;
    },
    get draining() {
      return draining;
    },
    async report(databaseUp) {
      const database = await databaseUp();
      const checks = Object.fromEntries(CHECKS.map((c) => [c, c === "database" ? database : up.has(c)])) as TReadiness["checks"];
      const status = draining ? "draining" : CHECKS.every((c) => checks[c]) ? "ready" : "not_ready";
      return { status, checks };
    },
  };
}
