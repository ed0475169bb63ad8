"use client";
// Toasts for API outcomes: the API's message as the title, validation details listed underneath.
import { toast } from "sonner";
import { isApiError } from "./api-client";

export function notifyError(err: unknown, context?: string) {
  const message = err instanceof Error ? err.message : String(err);
  const title = context ? `${context}: ${message}` : message;
  const fields = isApiError(err) ? err.fieldErrors : [];
  toast.error(title, {
    description: fields.length ? (
      <ul className="mt-1 list-disc space-y-0.5 pl-4">
        {fields.map((f, i) => (
          <li key={i}>
            {f.path ? <span className="font-medium">{f.path}: </span> : null}
            {f.message}
          </li>
        ))}
      </ul>
    ) : undefined,
  });
}

export function notifySuccess(message: string, description?: string) {
  toast.success(message, { description });
}
