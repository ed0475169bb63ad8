// `/mcp/s/<slug>`: a request other than tools/call and the task requests, relayed over the session's own upstream
// connection. initialize answers with the upstream's capabilities (tasks are the gateway's own, tool lists change
// as the gateway decides); tools/list is the endpoint's listing; prompts, reads, subscriptions and completions pass
// the request pipeline (access, rate limit, output bound, audit) before they are relayed; listings of resources and
// prompts are filtered by what the session may use; anything else, and anything newer than this gateway, as it is.
import { LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS, type JSONRPCRequest, type LoggingLevel } from "@modelcontextprotocol/sdk/types.js";
import { mcpRequestId } from "../../context";
import type { Operation } from "../../pipeline/operation";
import { sessionAccess } from "../../policy/session-access";
import type { ServerRoute } from "../../registry/create-registry";
import { TASK_CAPABILITIES } from "../../tasks/task-tools";
import type { EndpointNaming } from "../endpoint-naming";
import type { McpSessionView } from "../handle-mcp-request";
import { listEndpointTools } from "../list-endpoint-tools";
import { progressRelay } from "../progress-relay";
import type { TransparentDeps } from "./transparent-deps";
import type { LiveSession } from "./live-session";

type Params = Record<string, unknown> & { _meta?: { progressToken?: string | number } & Record<string, unknown> };

/** A string parameter, or "" when absent or not a string. */
const str = (v: unknown): string => (typeof v === "string" ? v : "");

/** The endpoint and session a request is relayed for, and where its progress goes. */
export type RelayScope = {
  deps: TransparentDeps;
  slug: string;
  endpoint: string;
  view: McpSessionView;
  naming: EndpointNaming;
  /** The agent session that owns the gateway's tasks, when there is one. */
  owner: { agentSessionId: string; ownerId: string } | undefined;
  sendProgress: (params: Record<string, unknown>) => Promise<void>;
};

export async function relayRequest(scope: RelayScope, request: JSONRPCRequest, route: ServerRoute, live: LiveSession, signal: AbortSignal): Promise<Record<string, unknown>> {
  const { deps, slug, endpoint, view, naming, owner } = scope;
  const params = (request.params ?? {}) as Params;
  const ctx = { ...view.ctx, requestId: mcpRequestId(view.ctx.requestId, request.id) };
  const progress = progressRelay(params._meta?.progressToken, scope.sendProgress);
  const relay = async (method: string, p: Params, s: AbortSignal) => {
    try {
      return await deps.sessions.forward(live, method, p, { signal: s, timeoutMs: route.timeoutMs, onprogress: progress.onProgress });
    } finally {
      await progress.flushed();
    }
  };
  const forward = () => relay(request.method, params, signal);
  // Prompts, reads, subscriptions and completions: through the request pipeline (access, rate limit, output
  // bound, audit), then relayed over the session's own upstream connection.
  const operation = (op: Pick<Operation, "kind" | "target" | "subject">) =>
    deps.requests(
      {
        ...op,
        endpoint,
        serverSlug: slug,
        upstreamVersion: route.version,
        rateLimitPerMinute: route.rateLimitPerMinute,
        params,
        sessionKey: view.sessionKey,
        mcpSessionId: view.mcpSessionId,
        grant: view.grant,
        signal,
        send: (req, s) => relay(req.method, req.params, s),
      },
      ctx,
      {},
    );
  // Least privilege as on /mcp: tools and prompts by the session's tool whitelist (under their gateway names),
  // resources by its path whitelist; what may not be used is neither listed nor reached.
  const access = await sessionAccess(deps.policy, view.grant);
  const mayUse = (name: string) => access.mayUse(`${slug}__${name}`);
  const { mayRead } = access;

  switch (request.method) {
    case "initialize": {
      const requested = str(params.protocolVersion);
      const { tasks: _tasks, ...capabilities } = live.client.getServerCapabilities() ?? {};
      const instructions = live.client.getInstructions();
      return {
        protocolVersion: SUPPORTED_PROTOCOL_VERSIONS.includes(requested) ? requested : LATEST_PROTOCOL_VERSION,
        // The gateway decides which tools are listed, and tells the agent when that changes.
        // Tasks are the gateway's own (its rows, its tools), whatever the upstream offers.
        capabilities: { ...capabilities, ...(capabilities.tools && { tools: { ...capabilities.tools, listChanged: true } }), ...(owner && { tasks: TASK_CAPABILITIES }) },
        serverInfo: live.client.getServerVersion() ?? route.defs.serverInfo,
        ...(instructions && { instructions }),
      };
    }
    case "tools/list":
      return { tools: await listEndpointTools(deps, naming, view) };
    case "logging/setLevel": {
      const result = await forward();
      await deps.sessions.saveState(view.mcpSessionId, { logLevel: params.level as LoggingLevel });
      return result;
    }
    case "resources/subscribe":
    case "resources/unsubscribe": {
      const uri = str(params.uri);
      const subscribe = request.method === "resources/subscribe";
      const result = await operation({ kind: subscribe ? "resource.subscribe" : "resource.unsubscribe", target: uri, subject: { uri } });
      await deps.sessions.saveState(view.mcpSessionId, subscribe ? { subscribe: uri } : { unsubscribe: uri });
      return result;
    }
    case "resources/read": {
      const uri = str(params.uri);
      return operation({ kind: "resource.read", target: uri, subject: { uri } });
    }
    case "resources/list": {
      const result = (await forward()) as { resources?: { uri: string }[] };
      return { ...result, resources: (result.resources ?? []).filter((r) => mayRead(r.uri)) };
    }
    case "prompts/list": {
      const result = (await forward()) as { prompts?: { name: string }[] };
      return { ...result, prompts: (result.prompts ?? []).filter((p) => mayUse(p.name)) };
    }
    case "prompts/get": {
      const name = str(params.name);
      return operation({ kind: "prompt", target: name, subject: { prompt: `${slug}__${name}` } });
    }
    case "completion/complete": {
      const ref = (params.ref ?? {}) as { type?: string; name?: string; uri?: string };
      const subject = ref.type === "ref/prompt" ? { prompt: `${slug}__${str(ref.name)}` } : undefined;
      return operation({ kind: "completion", target: ref.name ?? ref.uri ?? "", subject });
    }
    default:
      // Listings (resources, templates, prompts) and anything newer than this gateway: as they are.
      return forward();
  }
}
