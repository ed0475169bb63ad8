"use client";
// Changing one tool's settings: the answer replaces the tool in its server's cached detail, then the
// lists refresh. Each setting says in its toast what it means for agents.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { notifyError, notifySuccess } from "@/components/notify";
import { serverKey, toolsKey, updateTool, type TServerWithTools } from "@/components/servers/queries";
import type { TToolSummary, TUpdateTool } from "@/lib/schemas";
import { TIER_LABEL } from "./tier-badge";

function describe(tool: TToolSummary, patch: TUpdateTool): string {
  if (patch.enabled !== undefined)
    return tool.enabled ? `${tool.name} is enabled` : `${tool.name} is disabled: agents can no longer call it`;
  if (patch.strict !== undefined)
    return tool.strict
      ? `${tool.name} now rejects undeclared arguments`
      : `${tool.name} accepts undeclared arguments again`;
  if (patch.requiredApprovals !== undefined)
    return tool.requiredApprovals >= 2
      ? `${tool.name} now needs two approvers for each high-risk call`
      : `${tool.name} needs one approver again`;
  if (patch.riskTier !== undefined) return `${tool.name} is now ${TIER_LABEL[tool.riskTier].toLowerCase()}`;
  if (patch.timeoutMs !== undefined)
    return tool.timeoutMs === null
      ? `${tool.name} uses the server's timeout`
      : `${tool.name} times out after ${tool.timeoutMs} ms`;
  if (patch.rateLimitPerMinute !== undefined)
    return tool.rateLimitPerMinute === null
      ? `${tool.name} uses its server's rate limit`
      : `${tool.name} takes at most ${tool.rateLimitPerMinute} calls a minute`;
  if (patch.exampleRequests !== undefined) {
    const n = tool.exampleRequests.length;
    if (n === 0) return `${tool.name} has no example requests`;
    return `${tool.name} has ${n} example ${n === 1 ? "request" : "requests"} for search`;
  }
  return `${tool.name} updated`;
}

export function useUpdateTool(tool: Pick<TToolSummary, "name" | "server">) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (patch: TUpdateTool) => updateTool(tool.name, patch),
    onSuccess: async (updated, patch) => {
      queryClient.setQueryData<TServerWithTools>(serverKey(tool.server), (old) =>
        old ? { ...old, tools: old.tools.map((t) => (t.name === updated.name ? updated : t)) } : old,
      );
      notifySuccess(describe(updated, patch));
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: serverKey(tool.server) }),
        queryClient.invalidateQueries({ queryKey: toolsKey }),
      ]);
    },
    onError: (err) => notifyError(err, `Could not change ${tool.name}`),
  });
}
