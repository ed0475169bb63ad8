import Link from "next/link";

export type Crumb = { href?: string; label: string };

/** Where a detail page sits: "Servers & Tools › memory › create_entities". The last item is the page. */
export function Breadcrumbs({ items }: { items: readonly Crumb[] }) {
  return (
    <nav aria-label="Breadcrumb" className="mb-3 min-w-0">
      <ol className="flex min-w-0 flex-wrap items-center gap-1 text-sm text-slate-500">
        {items.map((c, i) => (
          <li key={`${i}-${c.label}`} className="flex min-w-0 items-center gap-1">
            {i > 0 && (
              <span aria-hidden="true" className="text-slate-400">
                ›
              </span>
            )}
            {c.href ? (
              <Link href={c.href} className="truncate hover:text-indigo-700 hover:underline">
                {c.label}
              </Link>
            ) : (
              <span aria-current="page" className="truncate text-slate-700">
                {c.label}
              </span>
            )}
          </li>
        ))}
      </ol>
    </nav>
  );
}
