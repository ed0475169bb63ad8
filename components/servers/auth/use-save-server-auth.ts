"use client";
// Saving a server's authentication settings: the answer replaces the card's data at once, and the user's own
// connections and the servers (whose status may now wait for a connection) are refreshed.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { serverAuthKey, putServerAuth, upstreamAuthKey } from "@/components/connections/queries";
import { notifyError } from "@/components/notify";
import type { TPutServerAuth, TServerAuth } from "@/components/connections/types";
import { serversKey } from "../queries";

export function useSaveServerAuth(server: { id: string; name: string }, done: (saved: TServerAuth) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: TPutServerAuth) => putServerAuth(server.id, body),
    onSuccess: async (saved) => {
      queryClient.setQueryData(serverAuthKey(server.id), saved);
      done(saved);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: upstreamAuthKey }),
        queryClient.invalidateQueries({ queryKey: serversKey }),
      ]);
    },
    onError: (err) => notifyError(err, `Could not change how ${server.name} authenticates`),
  });
}
