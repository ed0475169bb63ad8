// What the `/mcp/s/<slug>` endpoint is served with (serve-transparent.ts, relay-request.ts).
import type { Approvals } from "../../approvals/approvals";
import type { AuditWriter } from "../../audit/audit-writer";
import type { Db } from "../../db/client";
import type { ChangeBus } from "../../events/change-bus";
import type { Logger } from "../../logger";
import type { OperationHandler } from "../../pipeline/operation";
import type { CallToolHandler } from "../../pipeline/types";
import type { PolicyCache } from "../../policy/policy-cache";
import type { Registry } from "../../registry/create-registry";
import type { TaskToolDeps } from "../../tasks/task-tools";
import type { SessionUpstreams } from "./session-upstreams";

export type TransparentDeps = { registry: Registry; pipeline: CallToolHandler; requests: OperationHandler; bus: ChangeBus; db: Db; audit: AuditWriter; logger: Logger; sessions: SessionUpstreams; policy: PolicyCache; taskTools: Omit<TaskToolDeps, "db" | "audit">; approvals?: Approvals | undefined; builtinReady?: (() => Promise<void>) | undefined };
