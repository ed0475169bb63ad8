import Link from "next/link";
import { toolHref, type TNearDuplicate } from "@/components/servers/queries";

const REASON: Record<string, string> = {
  name: "similar names",
  description: "similar descriptions",
  both: "similar names and descriptions",
};

/** Pairs of tools a model could mistake for each other, as a warning with links to both. */
export function NearDuplicates({ pairs }: { pairs: readonly TNearDuplicate[] }) {
  return (
    <section
      aria-labelledby="dupes-heading"
      role="status"
      className="rounded-lg border border-amber-200 bg-amber-50 p-4"
    >
      <h2 id="dupes-heading" className="text-sm font-semibold text-amber-900">
        {pairs.length === 1
          ? "Two tools a model could confuse"
          : `${pairs.length} pairs of tools a model could confuse`}
      </h2>
      <p className="mt-1 text-sm text-amber-900/80">
        Give them clearer names or descriptions, or disable the one agents should not use.
      </p>
      <ul className="mt-3 space-y-1.5 text-sm" aria-label="Near-duplicate tools">
        {pairs.map((p) => (
          <li
            key={`${p.a}|${p.b}`}
            className="flex flex-wrap items-center gap-x-2 gap-y-1"
            data-testid="near-duplicate"
          >
            <Link
              href={toolHref(p.a)}
              className="font-mono break-all text-amber-950 underline decoration-amber-400 hover:decoration-amber-700"
            >
              {p.a}
            </Link>
            <span aria-label="and">↔</span>
            <Link
              href={toolHref(p.b)}
              className="font-mono break-all text-amber-950 underline decoration-amber-400 hover:decoration-amber-700"
            >
              {p.b}
            </Link>
            <span className="text-xs text-amber-800">
              {REASON[p.reason] ?? p.reason} · {Math.round(p.score * 100)}%
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}
