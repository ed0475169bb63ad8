"use client";
// A modal on the native <dialog> element: the browser traps focus, Escape closes it, and the rest of the
// page is inert while it is open.
import { useEffect, useId, useRef } from "react";
import { DialogFooter } from "./dialog-footer";

export function Dialog({
  open,
  onClose,
  title,
  description,
  children,
  footer,
  stickyFooter = false,
}: {
  open: boolean;
  onClose: () => void;
  title: string;
  description?: React.ReactNode;
  children?: React.ReactNode;
  footer?: React.ReactNode;
  /** Keep the footer (the main button) in view while a long body scrolls. */
  stickyFooter?: boolean;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const descriptionId = useId();

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);

  return (
    <dialog
      ref={ref}
      onClose={onClose}
      aria-labelledby={titleId}
      aria-describedby={description ? descriptionId : undefined}
      className="m-auto w-[calc(100%-2rem)] max-w-xl rounded-lg bg-white p-0 text-slate-900 shadow-xl backdrop:bg-slate-900/50"
    >
      {open && (
        <div className="p-6">
          <h2 id={titleId} className="text-base font-semibold text-slate-900">
            {title}
          </h2>
          {description && (
            <div id={descriptionId} className="mt-2 text-sm text-slate-600">
              {description}
            </div>
          )}
          {children && <div className="mt-4">{children}</div>}
          {footer && <DialogFooter sticky={stickyFooter}>{footer}</DialogFooter>}
        </div>
      )}
    </dialog>
  );
}
