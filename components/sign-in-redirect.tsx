"use client";
// Rendered by the console layout when nobody is signed in. A layout cannot know the URL, so the browser
// supplies it: the visitor lands on the sign-in page and comes back to where they were going.
import { usePathname, useSearchParams } from "next/navigation";
import { useEffect } from "react";

export function SignInRedirect() {
  const pathname = usePathname();
  const search = useSearchParams().toString();
  useEffect(() => {
    const target = `${pathname}${search ? `?${search}` : ""}`;
    window.location.replace(`/signin?callbackUrl=${encodeURIComponent(target)}`);
  }, [pathname, search]);
  return (
    <p className="p-8 text-center text-sm text-slate-500" role="status">
      Taking you to the sign-in page…
    </p>
  );
}
