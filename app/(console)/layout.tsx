// Every console page lives in this group, and the shell renders only for a signed-in user. The guard itself
// is each page's requirePageUser call: it knows the URL (a layout does not), so strangers get a 307 to the
// sign-in page that keeps their destination, and it runs on every navigation (a layout does not re-run).
// SignInRedirect is the browser-side backstop should a page ever render for a stranger.
import { Suspense } from "react";
import { getSessionUser } from "@/app/_lib/auth";
import { ConsoleShell } from "@/components/console-shell";
import { SignInRedirect } from "@/components/sign-in-redirect";
import { hasRole, NAV } from "@/lib/roles";

export default async function ConsoleLayout({ children }: { children: React.ReactNode }) {
  const user = await getSessionUser();
  if (!user) {
    return (
      <>
        <Suspense>
          <SignInRedirect />
        </Suspense>
        {children}
      </>
    );
  }
  const nav = NAV.filter((item) => hasRole(user.role, item.minRole));
  return (
    <ConsoleShell user={{ email: user.email, name: user.name, role: user.role }} nav={nav}>
      {children}
    </ConsoleShell>
  );
}
