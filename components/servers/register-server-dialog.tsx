"use client";
// Registering a server connects to it at once. While the request runs the dialog shows the steps the gateway
// is on (installing a package, starting, initializing, listing tools), then the tools it found or why it did
// not connect, so there is no separate "test connection" step. A refused request goes back to the form.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { toast } from "sonner";
import { Dialog } from "@/components/dialog";
import { notifyError, notifySuccess } from "@/components/notify";
import { buttonPrimary, buttonSecondary } from "@/components/ui";
import { createServer, serverHref, serversKey, toolsKey } from "./queries";
import { RegisterProgress } from "./register-progress";
import { REGISTER_FORM_ID, RegisterServerForm } from "./register-server-form";

export function RegisterServerDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const queryClient = useQueryClient();
  const mutation = useMutation({
    mutationFn: createServer,
    onSuccess: async ({ server, tools }) => {
      const live = tools.filter((t) => !t.removed).length;
      if (server.status === "DOWN") {
        toast.error(`Registered ${server.name}, but it could not connect`, {
          description: server.lastError ?? "No error was reported.",
        });
      } else if (server.status !== "CONNECTING") {
        notifySuccess(`Registered ${server.name}`, `${live} tool${live === 1 ? "" : "s"} discovered.`);
      }
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: serversKey }),
        queryClient.invalidateQueries({ queryKey: toolsKey }),
      ]);
    },
    onError: (err) => notifyError(err, "Could not register the server"),
  });
  /** The server being registered: set when the form is sent, cleared when the request is refused. */
  const [sent, setSent] = useState<{ slug: string; packaged: boolean } | null>(null);
  const showProgress = sent !== null && !mutation.isError;

  function close() {
    mutation.reset();
    setSent(null);
    onClose();
  }

  return (
    <Dialog
      open={open}
      onClose={close}
      title="Register a server"
      description="Portcullis connects to the server right away and lists its tools. Agents see them once the server is healthy."
      footer={
        showProgress ? (
          <>
            <button type="button" className={buttonSecondary} onClick={close}>
              {mutation.isPending ? "Close, keep registering" : "Done"}
            </button>
            {mutation.isSuccess && (
              <Link href={serverHref(sent.slug)} className={buttonPrimary} onClick={close}>
                Open the server
              </Link>
            )}
          </>
        ) : (
          <>
            <button type="button" className={buttonSecondary} onClick={close}>
              Cancel
            </button>
            {/* The footer sits outside the <form>; `form=` ties the button to it. */}
            <button type="submit" form={REGISTER_FORM_ID} className={buttonPrimary} disabled={mutation.isPending}>
              Register server
            </button>
          </>
        )
      }
    >
      {showProgress && <RegisterProgress slug={sent.slug} packaged={sent.packaged} answer={mutation.data} />}
      {/* Kept while the request runs, so a refused one comes back to the form as it was filled. */}
      <div hidden={showProgress}>
        <RegisterServerForm
          pending={mutation.isPending}
          error={mutation.error}
          onSubmit={(body) => {
            setSent({ slug: body.slug, packaged: body.transport === "npm" || body.transport === "pypi" });
            mutation.mutate(body);
          }}
        />
      </div>
    </Dialog>
  );
}
