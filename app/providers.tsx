"use client";
// Client-side providers for every page: react-query for API data and sonner for toasts.
import { MutationCache, QueryCache, QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { Toaster } from "sonner";
import { isApiError } from "@/components/api-client";

// A session that ends while a page is open (expiry, sign-out in another tab, account disabled) shows up as
// a 401 from the API: send the browser to sign in and back, rather than toasting on every request.
function onApiError(err: unknown) {
  if (isApiError(err) && err.status === 401 && !window.location.pathname.startsWith("/signin")) {
    const back = `${window.location.pathname}${window.location.search}`;
    window.location.assign(`/signin?callbackUrl=${encodeURIComponent(back)}`);
  }
}

function makeQueryClient() {
  return new QueryClient({
    queryCache: new QueryCache({ onError: onApiError }),
    mutationCache: new MutationCache({ onError: onApiError }),
    defaultOptions: {
      queries: {
        staleTime: 15_000,
        refetchOnWindowFocus: false,
        // A 4xx will not change on retry; only network trouble and 5xx are worth another try.
        retry: (count, err) => count < 2 && !(isApiError(err) && err.status >= 400 && err.status < 500),
      },
    },
  });
}

export function Providers({ children }: { children: React.ReactNode }) {
  const [client] = useState(makeQueryClient);
  // Marks the document as live (React has attached its handlers): the browser tests wait for it after a page
  // load instead of acting on server-rendered HTML (e2e/fixtures.ts).
  useEffect(() => {
    document.documentElement.dataset.hydrated = "";
  }, []);
  return (
    <QueryClientProvider client={client}>
      {children}
      <Toaster position="bottom-right" richColors closeButton />
    </QueryClientProvider>
  );
}
