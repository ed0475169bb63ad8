"use client";
// The pieces of a detail page (a task, an approval, an audit event): the term / value list of its facts, and
// what the page shows until its record is loaded (loading, "there is no such …" on a 404, or the error).
import Link from "next/link";
import { isApiError } from "@/components/api-client";
import { EmptyState } from "@/components/empty-state";
import { LoadFailed, Loading } from "@/components/load-state";
import { Breadcrumbs, type Crumb } from "@/components/servers/breadcrumbs";
import { buttonPrimary } from "@/components/ui";

export type DetailField = [term: string, value: React.ReactNode];

/** A `<dl>` of facts, a term above its value; `className` lays out the grid. */
export function DetailFields({
  items,
  className,
  valueClassName = "mt-1 text-slate-900",
}: {
  items: readonly DetailField[];
  className: string;
  valueClassName?: string;
}) {
  return (
    <dl className={className}>
      {items.map(([term, value]) => (
        <div key={term} className="min-w-0">
          <dt className="text-slate-500">{term}</dt>
          <dd className={valueClassName}>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** A detail page before its record is there: loading, missing (404) or failed to load. */
export function DetailUnavailable({
  crumbs,
  what,
  error,
  retry,
  icon,
  missingTitle,
  back,
  children,
}: {
  crumbs: readonly Crumb[];
  /** "the task": in "Loading the task…" and "Could not load the task". */
  what: string;
  /** The query's error; none while it loads. */
  error: Error | null;
  retry: () => unknown;
  icon: React.ReactNode;
  missingTitle: string;
  /** The button back to the list, under the "missing" note. */
  back?: { href: string; label: string } | undefined;
  /** Why it may be missing. */
  children: React.ReactNode;
}) {
  const missing = isApiError(error) && error.status === 404;
  return (
    <>
      <Breadcrumbs items={crumbs} />
      {!error ? (
        <Loading what={what} />
      ) : missing ? (
        <EmptyState icon={icon} title={missingTitle}>
          {children}
          {back && (
            <p className="pt-2">
              <Link href={back.href} className={buttonPrimary}>
                {back.label}
              </Link>
            </p>
          )}
        </EmptyState>
      ) : (
        <LoadFailed what={what} error={error} retry={retry} />
      )}
    </>
  );
}
