"use client";
import { useState } from "react";
import { toast } from "sonner";
import { buttonSecondary } from "./ui";

// navigator.clipboard exists only in secure contexts (https or localhost); a console served over plain
// http on a LAN address falls back to the older execCommand path.
async function copyText(text: string): Promise<boolean> {
  if (navigator.clipboard && window.isSecureContext) {
    try {
      await navigator.clipboard.writeText(text);
      return true;
    } catch {
      /* fall through */
    }
  }
  const area = document.createElement("textarea");
  area.value = text;
  area.setAttribute("readonly", "");
  area.style.position = "fixed";
  area.style.opacity = "0";
  // Inside a modal <dialog> only the dialog can take focus, so the helper goes where focus is.
  (document.activeElement?.closest("dialog") ?? document.body).appendChild(area);
  area.select();
  let ok: boolean;
  try {
    ok = document.execCommand("copy");
  } catch {
    ok = false;
  }
  area.remove();
  return ok;
}

export function CopyButton({ text, label = "Copy", what = "Value" }: { text: string; label?: string; what?: string }) {
  const [copied, setCopied] = useState(false);
  async function onClick() {
    if (await copyText(text)) {
      setCopied(true);
      toast.success(`${what} copied to the clipboard`);
      setTimeout(() => setCopied(false), 2000);
    } else {
      toast.error("Could not copy; select the text and copy it by hand.");
    }
  }
  return (
    <button type="button" className={`${buttonSecondary} shrink-0`} onClick={() => void onClick()} aria-label={`${label} ${what.toLowerCase()}`}>
      {copied ? "Copied" : label}
    </button>
  );
}
