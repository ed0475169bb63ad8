"use client";
// Connect, reconnect and the admin's shared connect all start the same way: Portcullis answers with the
// provider's authorization URL and the browser goes there (it comes back through /oauth/upstream/callback).
// The mutation stays pending while the page unloads, so the button cannot start a second authorization; coming
// back with the browser's Back button (a page restored from the back-forward cache) makes it usable again.
import { useMutation } from "@tanstack/react-query";
import { useEffect } from "react";
import { notifyError } from "@/components/notify";
import type { TAuthorizationUrl } from "./types";

export function useAuthorizationRedirect(
  start: (serverId: string) => Promise<TAuthorizationUrl>,
  errorContext: string,
) {
  const mutation = useMutation({
    mutationFn: async (serverId: string) => {
      const { authorizationUrl } = await start(serverId);
      window.location.assign(authorizationUrl);
      return new Promise<never>(() => {});
    },
    onError: (err) => notifyError(err, errorContext),
  });
  const { reset } = mutation;
  useEffect(() => {
    const onShow = (e: PageTransitionEvent) => {
      if (e.persisted) reset();
    };
    window.addEventListener("pageshow", onShow);
    return () => window.removeEventListener("pageshow", onShow);
  }, [reset]);
  return mutation;
}
