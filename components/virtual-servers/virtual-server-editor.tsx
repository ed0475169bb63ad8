"use client";
// Creates or edits a virtual server in a dialog. A save the poisoning scanner refuses (409
// virtual_server_blocked) shows the findings and asks for an override reason, which is audited.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { isApiError } from "@/components/api-client";
import { Dialog } from "@/components/dialog";
import { notifyError, notifySuccess } from "@/components/notify";
import { buttonPrimary, buttonSecondary, hint, input, label } from "@/components/ui";
import { showInvisible } from "@/lib/show-invisible";
import { VIRTUAL_NAME_MAX, type TVirtualServer } from "@/lib/virtual-server-schemas";
import { draftOf, memberInput, type MemberDraft } from "./member-draft";
import { MemberList } from "./member-list";
import { MemberPicker } from "./member-picker";
import { createVirtualServer, updateVirtualServer, virtualServersKey } from "./queries";

type Finding = { rule: string; severity: string; where: string; span: string; message: string };

function findingsOf(err: unknown): Finding[] | null {
  if (!isApiError(err) || err.code !== "virtual_server_blocked") return null;
  return (err.details as { findings?: Finding[] } | undefined)?.findings ?? [];
}

export function VirtualServerEditor({ editing, onClose }: { editing: TVirtualServer | null; onClose: () => void }) {
  const [name, setName] = useState(editing?.name ?? "");
  const [description, setDescription] = useState(editing?.description ?? "");
  const [instructions, setInstructions] = useState(editing?.instructions ?? "");
  const [members, setMembers] = useState<MemberDraft[]>(editing?.members.map(draftOf) ?? []);
  const [findings, setFindings] = useState<Finding[] | null>(null);
  const [overrideReason, setOverrideReason] = useState("");
  const queryClient = useQueryClient();

  const save = useMutation({
    mutationFn: () => {
      const body = { description, instructions, members: members.map(memberInput), ...(overrideReason.trim() && { overrideReason: overrideReason.trim() }) };
      return editing ? updateVirtualServer(editing.name, body) : createVirtualServer({ name, ...body });
    },
    onSuccess: async (saved) => {
      notifySuccess(editing ? `Virtual server ${saved.name} saved` : `Virtual server ${saved.name} created`, `Agents connect at ${saved.path}.`);
      await queryClient.invalidateQueries({ queryKey: virtualServersKey });
      onClose();
    },
    onError: (err) => {
      const found = findingsOf(err);
      setFindings(found);
      notifyError(err, found ? "The poisoning scanner refused the save" : "Could not save the virtual server");
    },
  });

  const footer = (
    <>
      <button type="button" className={buttonSecondary} onClick={onClose} disabled={save.isPending}>
        Cancel
      </button>
      <button type="submit" form="vs-form" className={buttonPrimary} disabled={save.isPending} data-testid="vs-save">
        {save.isPending ? "Saving…" : findings && overrideReason.trim() ? "Save anyway" : editing ? "Save" : "Create"}
      </button>
    </>
  );

  return (
    <Dialog open onClose={onClose} title={editing ? `Edit ${editing.name}` : "New virtual server"} description="Members of several servers, served together at /mcp/v/<name>." footer={footer}>
      <form
        id="vs-form"
        method="post"
        className="space-y-4"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          save.mutate();
        }}
      >
        <div>
          <label htmlFor="vs-name-input" className={label}>
            Name
          </label>
          <input
            id="vs-name-input"
            className={`${input} mt-1 font-mono`}
            value={name}
            onChange={(e) => setName(e.target.value.toLowerCase())}
            disabled={!!editing}
            maxLength={VIRTUAL_NAME_MAX}
            required
            spellCheck={false}
            autoComplete="off"
            placeholder="e.g. help-desk"
            data-testid="vs-name-input"
          />
          <p className={hint}>Lower-case letters, digits and -. It is part of the URL and cannot be changed later.</p>
        </div>
        <div>
          <label htmlFor="vs-description" className={label}>
            Description
          </label>
          <input id="vs-description" className={`${input} mt-1`} value={description} onChange={(e) => setDescription(e.target.value)} maxLength={500} />
        </div>
        <div>
          <label htmlFor="vs-instructions" className={label}>
            Instructions
          </label>
          <textarea id="vs-instructions" className={`${input} mt-1`} rows={3} value={instructions} onChange={(e) => setInstructions(e.target.value)} maxLength={8000} data-testid="vs-instructions" />
          <p className={hint}>What agents are told when they connect (initialize). Scanned for poisoning.</p>
        </div>
        <div className="space-y-3">
          <h3 className="text-sm font-medium text-slate-700">Members</h3>
          <MemberList members={members} onChange={setMembers} />
          <MemberPicker members={members} onAdd={(m) => setMembers([...members, m])} />
        </div>
        {findings && (
          <div className="space-y-2 rounded-md bg-red-50 p-3 text-sm text-red-800 ring-1 ring-red-200 ring-inset" role="alert" data-testid="vs-findings">
            <p className="font-medium">The poisoning scanner found high-severity problems:</p>
            <ul className="list-disc space-y-1 pl-5">
              {findings.map((f, i) => (
                <li key={i}>
                  <span className="font-mono">{f.where}</span>: {f.message} <code className="break-all">{showInvisible(f.span)}</code>
                </li>
              ))}
            </ul>
            <label htmlFor="vs-override" className={label}>
              Save anyway, because… (audited)
            </label>
            <input id="vs-override" className={input} value={overrideReason} onChange={(e) => setOverrideReason(e.target.value)} maxLength={1000} data-testid="vs-override" />
          </div>
        )}
      </form>
    </Dialog>
  );
}
