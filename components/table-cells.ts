// Class names for the cells of the console's responsive tables (see data-table.tsx).

/** A cell from a breakpoint on (not `t.cell`, whose `sm:table-cell` would show it before its header). */
export const wideCell = (from: string) => `hidden sm:px-4 sm:py-3 sm:align-middle ${from}`;
