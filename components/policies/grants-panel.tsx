"use client";
// The Grants tab: who may put which tools and paths into their agent sessions.
import { AddGrantForm } from "./add-grant-form";
import { EffectiveGrant } from "./effective-grant";
import { GrantsList } from "./grants-list";

export function GrantsPanel() {
  return (
    <div className="grid min-w-0 gap-6 xl:grid-cols-2">
      <div className="min-w-0 space-y-6">
        <AddGrantForm />
        <EffectiveGrant />
      </div>
      <div className="min-w-0">
        <GrantsList />
      </div>
    </div>
  );
}
