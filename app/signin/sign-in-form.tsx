"use client";
import { signIn } from "next-auth/react";
import { useSearchParams } from "next/navigation";
import { useState } from "react";

export function SignInForm() {
  const params = useSearchParams();
  const [error, setError] = useState<string | null>(null);
  async function onSubmit(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    const res = await signIn("credentials", { email: form.get("email"), password: form.get("password"), redirect: false });
    if (res?.ok) window.location.assign(params.get("callbackUrl") ?? "/");
    else setError(res?.error ?? "failed");
  }
  return (
    <form onSubmit={(e) => void onSubmit(e)} className="w-80 space-y-3">
      <input name="email" type="email" aria-label="E-mail" className="w-full border p-2" />
      <input name="password" type="password" aria-label="Password" className="w-full border p-2" />
      <button type="submit">Sign in</button>
      {error && <p role="alert">{error}</p>}
    </form>
  );
}
