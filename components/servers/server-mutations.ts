"use client";
// Changes to a server, shared by the list and the server page: the answer is put in the cache at once
// and everything under ["servers"] and ["tools"] is refreshed.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { toast } from "sonner";
import { notifyError, notifySuccess } from "@/components/notify";
import type { TServer, TUpdateServer } from "@/lib/schemas";
import { serverKey, serversKey, toolsKey, updateServer, type TServerWithTools } from "./queries";
import { serverState } from "@/lib/server-state";

export type ServerChange = { patch: TUpdateServer; done?: (res: TServerWithTools) => void };

export function useUpdateServer(server: Pick<TServer, "slug" | "name">) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ patch }: ServerChange) => updateServer(server.slug, patch),
    onSuccess: async (res, { done }) => {
      queryClient.setQueryData(serverKey(server.slug), res);
      done?.(res);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: serversKey }),
        queryClient.invalidateQueries({ queryKey: toolsKey }),
      ]);
    },
    onError: (err) => notifyError(err, `Could not change ${server.name}`),
  });
}

/** What to tell after an attempt to (re)connect: connected, or still down and why. */
export function reportConnection(res: TServerWithTools, connected: string) {
  const { server } = res;
  if (serverState(server).tone === "down")
    toast.error(`${server.name} is still down`, { description: server.lastError ?? undefined });
  else notifySuccess(connected, `${server.toolCount} tool${server.toolCount === 1 ? "" : "s"} available.`);
}

export function reportDisabled(name: string) {
  notifySuccess(`${name} is disabled`, "Its tools are hidden from agents until you enable it again.");
}
