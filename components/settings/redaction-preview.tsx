"use client";
// "Try it": a text as the audit log and the logs would store it, from the server under the saved settings.
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useId, useState } from "react";
import { card, hint, input, label } from "@/components/ui";
import { previewRedaction, redactionPreviewKey } from "./redaction-api";
import { useDebounced } from "./use-debounced";

const SAMPLE = "Refund for jane.doe@example.com, card 4111 1111 1111 1111, header Authorization: Bearer abc123.def456";
const MAX_CHARS = 20_000;

export function RedactionPreview({ unsaved }: { unsaved: boolean }) {
  const id = useId();
  const [text, setText] = useState(SAMPLE);
  const settled = useDebounced(text, 300);
  const preview = useQuery({
    queryKey: [...redactionPreviewKey, settled],
    queryFn: ({ signal }) => previewRedaction(settled, signal),
    enabled: settled.length > 0,
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
  const pending = text !== settled || preview.isFetching;

  return (
    <div className={`${card} space-y-3 p-4`} data-testid="redaction-try">
      <div>
        <label htmlFor={`${id}-text`} className={label}>
          Try it
        </label>
        <textarea
          id={`${id}-text`}
          value={text}
          onChange={(e) => setText(e.target.value)}
          maxLength={MAX_CHARS}
          rows={3}
          spellCheck={false}
          className={`${input} mt-1 font-mono`}
          data-testid="redaction-try-input"
          aria-describedby={`${id}-hint`}
        />
        <p id={`${id}-hint`} className={hint}>
          Type or paste anything: below is how an audit event or a log line would store it now.
          {unsaved ? " Unsaved changes are not applied yet: save to try them." : ""}
        </p>
      </div>
      <div>
        <p className="flex items-center gap-2 text-sm font-medium text-slate-700">
          Stored as
          {pending && settled ? (
            <span className="text-xs font-normal text-slate-500" role="status">
              updating…
            </span>
          ) : null}
        </p>
        {preview.isError ? (
          <p className="mt-1 text-sm text-red-700" role="alert" data-testid="redaction-preview-error">
            Could not preview: {preview.error.message}
          </p>
        ) : (
          <pre
            className="mt-1 min-h-[2.5rem] rounded-md bg-slate-900 p-3 font-mono text-xs leading-relaxed break-all whitespace-pre-wrap text-slate-100"
            data-testid="redaction-preview"
            aria-live="polite"
          >
            {settled ? (preview.data?.text ?? "") : ""}
          </pre>
        )}
      </div>
    </div>
  );
}
