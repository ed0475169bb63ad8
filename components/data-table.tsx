// The console's tables: a table from `sm` up and a list of wrapped rows on phones (see responsiveTable), and
// the card with a heading that most of them sit in. Rows stay the caller's own <tr>s, styled with `tableRow`.
import type { ReactNode } from "react";
import { card, responsiveTable } from "@/components/ui";

export type Column = {
  label: string;
  /** Read to screen readers only, e.g. a column of buttons. */
  srOnly?: boolean;
  /** Added to the header cell, e.g. `text-right` or `hidden md:table-cell` (give the row's cells the same). */
  className?: string;
};

/** The classes for a row (`tr`) and its cells (`cell`, plus a cell's own). */
export const tableRow = { tr: responsiveTable.tr, cell: responsiveTable.cell, cellMd: responsiveTable.cellMd };

export function DataTable({
  columns,
  label,
  children,
}: {
  columns: readonly Column[];
  /** The table's accessible name, when no heading names it. */
  label?: string | undefined;
  /** The rows. */
  children: ReactNode;
}) {
  const t = responsiveTable;
  return (
    <div className={t.wrapper}>
      <table className={t.table} aria-label={label}>
        <thead className={t.thead}>
          <tr>
            {columns.map((c) => (
              <th key={c.label} scope="col" className={c.className ? `${t.th} ${c.className}` : t.th}>
                {c.srOnly ? <span className="sr-only">{c.label}</span> : c.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className={t.tbody}>{children}</tbody>
      </table>
    </div>
  );
}

/** A card whose heading (with `aside`, e.g. "Refreshing…", on the right) names the table or list below it. */
export function TableCard({
  id,
  title,
  aside,
  children,
}: {
  /** The heading's id; the section is labelled by it. */
  id: string;
  title: ReactNode;
  aside?: ReactNode;
  children: ReactNode;
}) {
  return (
    <section aria-labelledby={id} className={`${card} min-w-0 overflow-hidden`}>
      <div className="flex flex-wrap items-center justify-between gap-x-4 gap-y-2 border-b border-slate-200 px-4 py-3">
        <h2 id={id} className="text-base font-semibold text-slate-900">
          {title}
        </h2>
        {aside}
      </div>
      {children}
    </section>
  );
}

/** The "Refreshing…" note beside a table's heading while it refetches. */
export function Refreshing({ when }: { when: boolean }) {
  return when ? <span className="text-xs text-slate-500">Refreshing…</span> : null;
}
