// Shared Tailwind class strings, so buttons and fields look the same on every page.
const focus = "focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600";
const buttonBase = `inline-flex items-center justify-center gap-1.5 rounded-md px-3 py-2 text-sm font-medium shadow-xs transition-colors disabled:cursor-not-allowed disabled:opacity-50 ${focus}`;

export const buttonPrimary = `${buttonBase} bg-indigo-600 text-white hover:bg-indigo-500`;
export const buttonSecondary = `${buttonBase} bg-white text-slate-700 ring-1 ring-inset ring-slate-300 hover:bg-slate-50`;
export const buttonDanger = `${buttonBase} bg-red-600 text-white hover:bg-red-500`;
export const buttonDangerQuiet = `${buttonBase} bg-white text-red-700 ring-1 ring-inset ring-red-200 hover:bg-red-50`;

export const input =
  "block w-full rounded-md border-0 bg-white px-3 py-2 text-sm text-slate-900 shadow-xs ring-1 ring-inset ring-slate-300 placeholder:text-slate-400 focus:ring-2 focus:ring-inset focus:ring-indigo-600 focus:outline-none disabled:bg-slate-50 disabled:text-slate-500";
export const select = `${input} pr-8`;
/** A select that sits in a table row: its own width instead of the full column. */
export const selectCompact =
  "block w-32 rounded-md border-0 bg-white py-1.5 pr-8 pl-2.5 text-sm text-slate-900 shadow-xs ring-1 ring-inset ring-slate-300 focus:ring-2 focus:ring-inset focus:ring-indigo-600 focus:outline-none disabled:bg-slate-50 disabled:text-slate-500";
export const label = "block text-sm font-medium text-slate-700";
export const hint = "mt-1 text-xs text-slate-500";
export const card = "rounded-lg border border-slate-200 bg-white shadow-xs";

/**
 * A table that is a table from `sm` up and a list of wrapped rows on phones, so nothing scrolls sideways.
 * Cells take `cell` (or `cell` plus their own classes); hide a column on phones with `hidden sm:table-cell`.
 */
export const responsiveTable = {
  wrapper: "relative overflow-x-auto",
  table: "block w-full text-sm sm:table sm:min-w-full sm:divide-y sm:divide-slate-200",
  thead: "hidden bg-slate-50 text-left text-xs font-semibold tracking-wide text-slate-500 uppercase sm:table-header-group",
  th: "px-4 py-2.5",
  tbody: "block divide-y divide-slate-100 sm:table-row-group",
  tr: "flex flex-wrap items-center gap-x-3 gap-y-2 px-4 py-3 sm:table-row sm:p-0",
  cell: "sm:table-cell sm:px-4 sm:py-3 sm:align-middle",
  /** A cell whose column shows from `md` up (its header: `hidden md:table-cell`); `cell` would show it from `sm`. */
  cellMd: "hidden md:table-cell md:px-4 md:py-3 md:align-middle",
};
