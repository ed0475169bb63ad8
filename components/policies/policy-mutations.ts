"use client";
// Changes to policy. Each one refreshes everything under ["policy"] (tools, rules, grants, history and
// effective grants all follow from it), and a tier change the tools and servers pages as well.
import { useMutation, useQueryClient, type QueryClient } from "@tanstack/react-query";
import { isApiError } from "@/components/api-client";
import { notifyError, notifySuccess } from "@/components/notify";
import { serversKey, toolsKey } from "@/components/servers/queries";
import { TIER_LABEL } from "@/components/tools/tier-badge";
import type { TCreateGrant, TCreateRule, TGrant, TPolicyChange, TPolicyTool, TRule } from "@/lib/policy-schemas";
import {
  createGrant,
  createRule,
  deleteGrant,
  deleteRule,
  policyKey,
  policyToolsKey,
  revertChange,
  setTier,
  setTiers,
  type TTier,
} from "./queries";
import { describeHolder, RULE_KIND_LABEL } from "./describe";

async function refreshPolicy(queryClient: QueryClient, tiers = false) {
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: policyKey }),
    ...(tiers
      ? [queryClient.invalidateQueries({ queryKey: toolsKey }), queryClient.invalidateQueries({ queryKey: serversKey })]
      : []),
  ]);
}

export function useSetTier(name: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (tier: TTier) => setTier(name, tier),
    onSuccess: async (_res, tier) => {
      // The row shows the new tier at once instead of the old one until the list is refetched.
      queryClient.setQueryData<{ items: TPolicyTool[] }>(policyToolsKey, (old) =>
        old
          ? { items: old.items.map((t) => (t.name === name ? { ...t, riskTier: tier, tierOverride: true } : t)) }
          : old,
      );
      notifySuccess(`${name} is now ${TIER_LABEL[tier].toLowerCase()}`);
      await refreshPolicy(queryClient, true);
    },
    onError: (err) => notifyError(err, `Could not change the tier of ${name}`),
  });
}

export function useSetTiers(done: () => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ tools, riskTier }: { tools: string[]; riskTier: TTier }) => setTiers({ tools, riskTier }),
    onSuccess: async (res, { tools, riskTier }) => {
      queryClient.setQueryData(policyToolsKey, res);
      notifySuccess(
        `${tools.length} tool${tools.length === 1 ? " is" : "s are"} now ${TIER_LABEL[riskTier].toLowerCase()}`,
      );
      done();
      await refreshPolicy(queryClient, true);
    },
    onError: (err) => notifyError(err, "Could not change the tiers"),
  });
}

/** A 422 with details: the form shows them under its fields, so it needs no toast. */
const isValidationError = (err: unknown) => isApiError(err) && err.status === 422 && err.fieldErrors.length > 0;

export function useCreateRule(tool: string, done: (rule: TRule) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: TCreateRule) => createRule(tool, body),
    onSuccess: async (rule) => {
      notifySuccess(
        `${RULE_KIND_LABEL[rule.kind]} rule added to ${tool}`,
        `It checks the argument “${rule.argument}”.`,
      );
      done(rule);
      await refreshPolicy(queryClient);
    },
    onError: (err) => {
      if (!isValidationError(err)) notifyError(err, "Could not add the rule");
    },
  });
}

export function useDeleteRule(tool: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (rule: TRule) => deleteRule(tool, rule.id),
    onSuccess: async (rule) => {
      notifySuccess(`${RULE_KIND_LABEL[rule.kind]} rule on “${rule.argument}” deleted`);
      await refreshPolicy(queryClient);
    },
    onError: (err) => notifyError(err, "Could not delete the rule"),
  });
}

export function useCreateGrant(done: (grant: TGrant) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: TCreateGrant) => createGrant(body),
    onSuccess: async (grant) => {
      notifySuccess(
        `${describeHolder(grant)} may now use ${grant.kind === "tool" ? "tools" : "paths"} matching ${grant.pattern}`,
      );
      done(grant);
      await refreshPolicy(queryClient);
    },
    onError: (err) => {
      if (!isValidationError(err)) notifyError(err, "Could not add the grant");
    },
  });
}

export function useDeleteGrant() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (grant: TGrant) => deleteGrant(grant.id),
    onSuccess: async (grant) => {
      notifySuccess(`Grant of ${grant.pattern} to ${describeHolder(grant)} deleted`);
      await refreshPolicy(queryClient);
    },
    onError: (err) => notifyError(err, "Could not delete the grant"),
  });
}

export function useRevertChange(done: () => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (change: TPolicyChange) => revertChange(change.id),
    onSuccess: async (res) => {
      notifySuccess("Change reverted", res.summary);
      done();
      // A reverted tier shows on the tools pages too.
      await refreshPolicy(queryClient, true);
    },
    onError: (err) => notifyError(err, "Could not revert the change"),
  });
}
