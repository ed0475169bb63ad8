"use client";
// A danger button that asks first: a dialog with "Keep it" and the confirming button, which runs the mutation,
// closes the dialog either way (a toast says how it went) and refreshes the queries under `invalidate`.
import { useMutation, useQueryClient, type QueryKey } from "@tanstack/react-query";
import { useState } from "react";
import { Dialog } from "@/components/dialog";
import { notifyError } from "@/components/notify";
import { buttonDanger, buttonDangerQuiet, buttonSecondary } from "@/components/ui";

export function ConfirmButton<T>({
  label,
  busyLabel = label,
  className = buttonDangerQuiet,
  ariaLabel,
  testId,
  title,
  description,
  confirmLabel,
  confirmBusyLabel,
  mutationFn,
  onSuccess,
  errorContext,
  invalidate,
}: {
  /** The button's text, and while the mutation runs. */
  label: string;
  busyLabel?: string;
  className?: string;
  ariaLabel?: string;
  testId?: string;
  /** The dialog. */
  title: string;
  description: React.ReactNode;
  confirmLabel: string;
  confirmBusyLabel: string;
  mutationFn: () => Promise<T>;
  onSuccess: (data: T) => void;
  /** Leads the error toast. */
  errorContext: string;
  invalidate: QueryKey;
}) {
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const mutation = useMutation({
    mutationFn,
    onSuccess: (data) => {
      setConfirming(false);
      onSuccess(data);
    },
    onError: (err) => {
      setConfirming(false);
      notifyError(err, errorContext);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: invalidate }),
  });
  const busy = mutation.isPending;

  return (
    <>
      <button
        type="button"
        className={className}
        onClick={() => setConfirming(true)}
        disabled={busy}
        aria-label={ariaLabel}
        data-testid={testId}
      >
        {busy ? busyLabel : label}
      </button>
      <Dialog
        open={confirming}
        onClose={() => setConfirming(false)}
        title={title}
        description={description}
        footer={
          <>
            <button type="button" className={buttonSecondary} onClick={() => setConfirming(false)} disabled={busy}>
              Keep it
            </button>
            <button type="button" className={buttonDanger} onClick={() => mutation.mutate()} disabled={busy}>
              {busy ? confirmBusyLabel : confirmLabel}
            </button>
          </>
        }
      />
    </>
  );
}
