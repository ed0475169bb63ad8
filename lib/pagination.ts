// Cursor pagination helpers shared by the REST API and the console.
export type Page<T> = { items: T[]; nextCursor: string | null };

/** Given `limit + 1` rows, returns a page of `limit` and the cursor of the next one. */
export function toPage<T extends { id: string }>(rows: T[], limit: number): Page<T> {
  const more = rows.length > limit;
  const items = more ? rows.slice(0, limit) : rows;
  return { items, nextCursor: more ? (items.at(-1)?.id ?? null) : null };
}
