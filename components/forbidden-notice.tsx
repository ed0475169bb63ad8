import Link from "next/link";
import { LockIcon } from "./icons";
import { buttonPrimary } from "./ui";

/** The 403 page body, shared by the console (inside the shell) and the root fallback. */
export function ForbiddenNotice() {
  return (
    <div className="mx-auto flex max-w-md flex-col items-center py-16 text-center">
      <div className="mb-4 flex h-12 w-12 items-center justify-center rounded-full bg-amber-50 text-amber-700">
        <LockIcon className="h-6 w-6" />
      </div>
      <p className="text-sm font-semibold text-amber-700">403 · Forbidden</p>
      <h1 className="mt-1 text-2xl font-semibold tracking-tight text-slate-900">You don&apos;t have access to this page</h1>
      <p className="mt-2 text-sm text-slate-600">
        Your role does not include this section. If you need it, ask an admin to change your role.
      </p>
      <Link href="/" className={`${buttonPrimary} mt-6`}>
        Go to the dashboard
      </Link>
    </div>
  );
}
