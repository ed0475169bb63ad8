"use client";
// The server page's header actions: restart (or retry when down), enable/disable, and remove after a confirmation.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { Dialog } from "@/components/dialog";
import { notifyError, notifySuccess } from "@/components/notify";
import { buttonDanger, buttonDangerQuiet, buttonSecondary } from "@/components/ui";
import type { TServer } from "@/lib/schemas";
import { removeServer, serverKey, serversKey, toolsKey } from "./queries";
import { reportConnection, reportDisabled, useUpdateServer } from "./server-mutations";
import { serverState } from "@/lib/server-state";

export function ServerActions({ server, toolCount }: { server: TServer; toolCount: number }) {
  const mutation = useUpdateServer(server);
  const [confirming, setConfirming] = useState(false);
  const down = serverState(server).tone === "down";
  return (
    <>
      {server.enabled && (
        <button
          type="button"
          className={buttonSecondary}
          disabled={mutation.isPending}
          title={
            down ? "Try to connect again now" : "End the connection (a stdio server's process is stopped) and reconnect"
          }
          onClick={() =>
            mutation.mutate({
              patch: { action: "restart" },
              // A server that is down is connected now, and the answer says how that went; a running one
              // is stopped and reconnects shortly.
              done: (res) =>
                down
                  ? reportConnection(res, `${server.name} is connected`)
                  : notifySuccess(`Restarting ${server.name}`, "It reconnects in a moment."),
            })
          }
        >
          {down ? "Retry" : "Restart"}
        </button>
      )}
      <button
        type="button"
        className={buttonSecondary}
        disabled={mutation.isPending}
        onClick={() =>
          mutation.mutate({
            patch: { enabled: !server.enabled },
            done: (res) =>
              res.server.enabled ? reportConnection(res, `${server.name} is enabled`) : reportDisabled(server.name),
          })
        }
      >
        {server.enabled ? "Disable" : "Enable"}
      </button>
      <button type="button" className={buttonDangerQuiet} onClick={() => setConfirming(true)}>
        Remove
      </button>
      <RemoveServerDialog
        server={server}
        toolCount={toolCount}
        open={confirming}
        onClose={() => setConfirming(false)}
      />
    </>
  );
}

function RemoveServerDialog({
  server,
  toolCount,
  open,
  onClose,
}: {
  server: TServer;
  toolCount: number;
  open: boolean;
  onClose: () => void;
}) {
  const queryClient = useQueryClient();
  const router = useRouter();
  const mutation = useMutation({
    mutationFn: () => removeServer(server.slug),
    onSuccess: async () => {
      notifySuccess(`${server.name} removed`, "Its tools are no longer offered to agents.");
      queryClient.removeQueries({ queryKey: serverKey(server.slug) });
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: serversKey }),
        queryClient.invalidateQueries({ queryKey: toolsKey }),
      ]);
      onClose();
      router.push("/servers");
    },
    onError: (err) => notifyError(err, `Could not remove ${server.name}`),
  });
  return (
    <Dialog
      open={open}
      onClose={onClose}
      title={`Remove ${server.name}?`}
      description={
        <>
          Agents lose its {toolCount} tool{toolCount === 1 ? "" : "s"} at once, and its versions and tool settings are
          deleted. To stop it for a while instead, disable it. This cannot be undone.
        </>
      }
      footer={
        <>
          <button type="button" className={buttonSecondary} onClick={onClose} disabled={mutation.isPending}>
            Cancel
          </button>
          <button
            type="button"
            className={buttonDanger}
            onClick={() => mutation.mutate()}
            disabled={mutation.isPending}
          >
            {mutation.isPending ? "Removing…" : "Remove server"}
          </button>
        </>
      }
    />
  );
}
