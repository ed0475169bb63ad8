import type { Metadata } from "next";
import { ForbiddenNotice } from "@/components/forbidden-notice";

export const metadata: Metadata = { title: "No access" };

/** A console page refused the user's role: answered 403, inside the shell so the way back is visible. */
export default function ConsoleForbidden() {
  return <ForbiddenNotice />;
}
