import type { Metadata } from "next";
import Link from "next/link";
import { buttonPrimary } from "@/components/ui";

export const metadata: Metadata = { title: "Page not found" };

export default function NotFound() {
  return (
    <main className="flex min-h-screen items-center justify-center p-4">
      <div className="max-w-md text-center">
        <p className="text-sm font-semibold text-indigo-600">404 · Not found</p>
        <h1 className="mt-1 text-2xl font-semibold tracking-tight text-slate-900">This page does not exist</h1>
        <p className="mt-2 text-sm text-slate-600">Check the address, or start again from the dashboard.</p>
        <Link href="/" className={`${buttonPrimary} mt-6`}>
          Go to the dashboard
        </Link>
      </div>
    </main>
  );
}
