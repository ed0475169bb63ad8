import type { Metadata } from "next";
import { ForbiddenNotice } from "@/components/forbidden-notice";

export const metadata: Metadata = { title: "No access" };

export default function Forbidden() {
  return (
    <main className="flex min-h-screen items-center justify-center p-4">
      <ForbiddenNotice />
    </main>
  );
}
