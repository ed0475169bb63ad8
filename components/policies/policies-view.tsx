"use client";
// The Policies page: tiers and parameter rules per tool, grants, a simulator and the history of changes.
import { PageHeader } from "@/components/page-header";
import { Tabs } from "@/components/tabs";
import { GrantsPanel } from "./grants-panel";
import { PolicyHistory } from "./policy-history";
import { PolicyTools } from "./policy-tools";
import { Simulator } from "./simulator";

export function PoliciesView({ currentUserId }: { currentUserId: string }) {
  return (
    <>
      <PageHeader
        title="Policies"
        description="What agents may call and how: risk tiers and argument rules per tool, grants per role and user."
      />
      <Tabs
        label="Policy sections"
        tabs={[
          { id: "tools", label: "Tools", panel: <PolicyTools /> },
          { id: "grants", label: "Grants", panel: <GrantsPanel /> },
          { id: "simulator", label: "Simulator", panel: <Simulator currentUserId={currentUserId} /> },
          { id: "history", label: "History", panel: <PolicyHistory /> },
        ]}
      />
    </>
  );
}
