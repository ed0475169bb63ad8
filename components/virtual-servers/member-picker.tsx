"use client";
// Adds a member: a kind, a server, then one of that server's tools, prompts or resources.
import { useState } from "react";
import { buttonSecondary, label, select } from "@/components/ui";
import type { TVirtualMemberInput } from "@/lib/virtual-server-schemas";
import { memberKey, type MemberDraft } from "./member-draft";
import { useOfferings, useServers, useTools } from "./queries";

type Kind = TVirtualMemberInput["kind"];
const KINDS: { value: Kind; label: string }[] = [
  { value: "tool", label: "Tool" },
  { value: "prompt", label: "Prompt" },
  { value: "resource", label: "Resource" },
];

export function MemberPicker({ members, onAdd }: { members: readonly MemberDraft[]; onAdd: (m: MemberDraft) => void }) {
  const [kind, setKind] = useState<Kind>("tool");
  const [server, setServer] = useState("");
  const [name, setName] = useState("");
  const servers = useServers();
  const tools = useTools();
  const offerings = useOfferings(server, kind !== "tool");
  const taken = new Set(members.map(memberKey));
  const choices: { value: string; label: string }[] =
    kind === "tool"
      ? (tools.data?.items ?? []).filter((t) => t.server === server).map((t) => ({ value: t.tool, label: t.tool }))
      : kind === "prompt"
        ? (offerings.data?.prompts ?? []).map((p) => ({ value: p.name, label: p.name }))
        : (offerings.data?.resources ?? []).map((r) => ({ value: r.uri, label: `${r.name} (${r.uri})` }));
  const open = choices.filter((c) => !taken.has(memberKey({ kind, server, name: c.value })));

  return (
    <fieldset className="grid gap-3 rounded-md bg-slate-50 p-3 sm:grid-cols-[8rem_minmax(0,1fr)_minmax(0,1.5fr)_auto] sm:items-end" data-testid="vs-member-picker">
      <legend className="sr-only">Add a member</legend>
      <div>
        <label htmlFor="vs-kind" className={label}>
          Kind
        </label>
        <select id="vs-kind" className={`${select} mt-1`} value={kind} onChange={(e) => (setKind(e.target.value as Kind), setName(""))} data-testid="vs-kind">
          {KINDS.map((k) => (
            <option key={k.value} value={k.value}>
              {k.label}
            </option>
          ))}
        </select>
      </div>
      <div>
        <label htmlFor="vs-server" className={label}>
          Server
        </label>
        <select id="vs-server" className={`${select} mt-1`} value={server} onChange={(e) => (setServer(e.target.value), setName(""))} data-testid="vs-server">
          <option value="">Choose…</option>
          {(servers.data?.items ?? [])
            .filter((s) => s.slug !== "portcullis")
            .map((s) => (
              <option key={s.slug} value={s.slug}>
                {s.slug}
              </option>
            ))}
        </select>
      </div>
      <div>
        <label htmlFor="vs-name" className={label}>
          {kind === "resource" ? "Resource" : kind === "prompt" ? "Prompt" : "Tool"}
        </label>
        <select id="vs-name" className={`${select} mt-1`} value={name} onChange={(e) => setName(e.target.value)} disabled={server === ""} data-testid="vs-name">
          <option value="">{server === "" ? "Choose a server first" : open.length ? "Choose…" : "Nothing left to add"}</option>
          {open.map((c) => (
            <option key={c.value} value={c.value}>
              {c.label}
            </option>
          ))}
        </select>
      </div>
      <button
        type="button"
        className={buttonSecondary}
        disabled={name === ""}
        onClick={() => {
          onAdd({ kind, server, name, exposedName: "", description: "" });
          setName("");
        }}
        data-testid="vs-add-member"
      >
        Add
      </button>
    </fieldset>
  );
}
