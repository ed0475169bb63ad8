import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { getSessionUser, signInSettings } from "@/app/_lib/auth";
import { LogoIcon } from "@/components/icons";
import { SignInForm } from "./sign-in-form";

export const metadata: Metadata = { title: "Sign in" };

/** Only same-origin paths: an open redirect after sign-in would be a phishing aid. */
function safeCallback(raw: string | string[] | undefined): string {
  const value = Array.isArray(raw) ? raw[0] : raw;
  if (!value) return "/";
  try {
    // Only the path is kept (next-auth sends absolute URLs), so the browser stays on the host it is on.
    const url = new URL(value, "http://portcullis.invalid");
    const path = `${url.pathname}${url.search}${url.hash}`;
    return path.startsWith("/") && !path.startsWith("//") && !path.startsWith("/signin") ? path : "/";
  } catch {
    return "/";
  }
}

export default async function SignInPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  if (await getSessionUser()) redirect("/");
  const params = await searchParams;
  const callbackUrl = safeCallback(params.callbackUrl);
  const initialError = typeof params.error === "string" ? params.error : undefined;
  const { sso, passwordSignin } = signInSettings();
  return (
    <main className="flex min-h-screen flex-col items-center justify-center bg-slate-50 px-4 py-12">
      <div className="w-full max-w-sm">
        <div className="flex flex-col items-center text-center">
          <span className="flex h-12 w-12 items-center justify-center rounded-lg bg-indigo-600 text-white shadow-sm">
            <LogoIcon className="h-7 w-7" />
          </span>
          <h1 className="mt-4 text-2xl font-semibold tracking-tight text-slate-900">Sign in to Portcullis</h1>
          <p className="mt-1 text-sm text-slate-600">The console of your MCP gateway</p>
        </div>
        <div className="mt-8 rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
          <SignInForm callbackUrl={callbackUrl} initialError={initialError} ssoName={sso?.name} passwordSignin={passwordSignin} />
        </div>
        <p className="mt-6 text-center text-xs text-slate-500">No account? Ask an admin of this gateway to add you.</p>
      </div>
    </main>
  );
}
