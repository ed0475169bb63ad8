// What each kind of operation sends upstream, what its audit event records and what it is counted against, in
// one table; and the executor, which sends it. The steps around it are the same for every kind
// (build-request-pipeline.ts).
import type { AuditRow } from "../audit/audit-writer";
import type { Operation, OperationHandler, OperationKind, OperationResult } from "./operation";
import type { RateTarget } from "./rate-limit";

type KindSpec = {
  method: string;
  action: string;
  targetType: string;
  /** Stored (redacted) with the event: a resource's URI; of prompt and completion arguments only the names. */
  auditArguments: (op: Operation) => AuditRow["arguments"];
  /** Counted against, besides the session; none: never refused for rate (an agent can always unsubscribe). */
  rate?: (op: Operation) => RateTarget;
};

const keysOf = (v: unknown) => (typeof v === "object" && v !== null ? Object.keys(v) : []);
const promptOf = (op: Operation) => (op.subject && "prompt" in op.subject ? op.subject.prompt : `${op.serverSlug}__${op.target}`);
const resources = (op: Operation): RateTarget => ({ key: `resources:${op.serverSlug}`, perMinute: op.rateLimitPerMinute, what: `the resources of ${op.serverSlug}` });

export const OPERATION_KINDS: Record<OperationKind, KindSpec> = {
  prompt: {
    method: "prompts/get",
    action: "prompt.fetched",
    targetType: "prompt",
    auditArguments: (op) => ({ keys: keysOf(op.params.arguments) }),
    rate: (op) => ({ key: `prompt:${promptOf(op)}`, perMinute: op.rateLimitPerMinute, what: `the prompt ${promptOf(op)}` }),
  },
  "resource.read": { method: "resources/read", action: "resource.read", targetType: "resource", auditArguments: (op) => ({ uri: op.target }), rate: resources },
  "resource.subscribe": { method: "resources/subscribe", action: "resource.subscribed", targetType: "resource", auditArguments: (op) => ({ uri: op.target }), rate: resources },
  "resource.unsubscribe": { method: "resources/unsubscribe", action: "resource.unsubscribed", targetType: "resource", auditArguments: (op) => ({ uri: op.target }) },
  completion: {
    method: "completion/complete",
    action: "completion.requested",
    targetType: "completion",
    auditArguments: (op) => ({ keys: [(op.params.argument as { name?: unknown } | undefined)?.name].filter((n) => typeof n === "string") }),
    rate: (op) => ({ key: `completions:${op.serverSlug}`, perMinute: op.rateLimitPerMinute, what: `completions of ${op.serverSlug}` }),
  },
};

/** The last step: the request goes to the upstream over the connection the endpoint named. */
export const executeOperation: OperationHandler = async (op) => (await op.send({ method: OPERATION_KINDS[op.kind].method, params: op.params }, op.signal)) as OperationResult;
