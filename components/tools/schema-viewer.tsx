import { DataTable, tableRow as t, type Column } from "@/components/data-table";
import { card } from "@/components/ui";
import { propertyRows, type Schema } from "./json-schema";

const COLUMNS: Column[] = [
  { label: "Property" },
  { label: "Type" },
  { label: "Required", srOnly: true },
  { label: "Description" },
];

/** A schema as a table of its properties, with the raw JSON one click away. */
export function SchemaViewer({
  title,
  schema,
  id,
  empty,
}: {
  title: string;
  schema: Schema;
  id: string;
  empty: string;
}) {
  const rows = propertyRows(schema);
  return (
    <section aria-labelledby={`${id}-heading`} className={`${card} min-w-0 overflow-hidden`}>
      <h2 id={`${id}-heading`} className="border-b border-slate-200 px-4 py-3 text-base font-semibold text-slate-900">
        {title}
      </h2>
      {rows.length === 0 ? (
        <p className="px-4 py-4 text-sm text-slate-600">{empty}</p>
      ) : (
        <DataTable columns={COLUMNS} label={title}>
          {rows.map((r) => (
            <tr key={r.path} className={t.tr} data-testid="schema-row" data-path={r.path}>
              <td className={`${t.cell} min-w-0 sm:align-top`}>
                <div
                  className="font-mono text-sm sm:whitespace-nowrap"
                  style={{ paddingLeft: `${r.depth}rem` }}
                  title={r.path}
                >
                  {r.depth > 0 && (
                    <span aria-hidden="true" className="text-slate-400">
                      ↳{" "}
                    </span>
                  )}
                  <span className="font-medium text-slate-900">{r.name}</span>
                </div>
                {r.depth > 0 && (
                  <div
                    className="font-mono text-xs break-all text-slate-400 sm:whitespace-nowrap"
                    style={{ paddingLeft: `${r.depth}rem` }}
                  >
                    {r.path}
                  </div>
                )}
              </td>
              <td className={`${t.cell} font-mono text-xs text-indigo-700 sm:align-top sm:whitespace-nowrap`}>
                {r.type}
              </td>
              <td className={`${t.cell} sm:align-top`}>
                {r.required ? (
                  <span className="palette-fixed rounded bg-slate-800 px-1.5 py-0.5 text-xs font-medium text-white">required</span>
                ) : (
                  <span className="text-xs text-slate-400">optional</span>
                )}
              </td>
              <td className={`${t.cell} w-full text-slate-700 sm:w-auto sm:align-top`}>
                {r.description ?? <span className="text-slate-400 italic">No description</span>}
                {r.details.length > 0 && (
                  <ul className="mt-1 flex flex-wrap gap-1">
                    {r.details.map((d) => (
                      <li
                        key={d}
                        className="rounded bg-slate-100 px-1.5 py-0.5 font-mono text-xs break-all text-slate-700"
                      >
                        {d}
                      </li>
                    ))}
                  </ul>
                )}
              </td>
            </tr>
          ))}
        </DataTable>
      )}
      <details className="group border-t border-slate-200">
        <summary className="cursor-pointer px-4 py-2.5 text-sm font-medium text-slate-700 select-none hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-offset-[-2px] focus-visible:outline-indigo-600">
          <span className="group-open:hidden">Show</span>
          <span className="hidden group-open:inline">Hide</span> the JSON Schema
        </summary>
        <pre className="max-h-[28rem] overflow-auto bg-slate-900 p-4 font-mono text-xs leading-relaxed text-slate-100">
          {JSON.stringify(schema, null, 2)}
        </pre>
      </details>
    </section>
  );
}
