// browse_catalog's cursor: the listing it belongs to (a server's slug, "" for the server list) and the last key
// handed out, so the next page starts after it whatever was added or removed meanwhile (keyset paging, stable
// order). It carries no access: every page is filtered again for the session. Anything it did not hand out for
// this listing is refused `invalid_cursor`, never read as a position.
export const MAX_CURSOR_CHARS = 400;
const PREFIX = "c1.";
const BASE64URL = /^[A-Za-z0-9_-]+$/;

export function encodeCursor(listing: string, lastKey: string): string {
  return PREFIX + Buffer.from(JSON.stringify([listing, lastKey]), "utf8").toString("base64url");
}

/** The last key of `listing` a cursor holds, or why it is not one of that listing's cursors. */
export function decodeCursor(cursor: string, listing: string): { after: string } | { problem: string } {
  if (cursor.length > MAX_CURSOR_CHARS || !cursor.startsWith(PREFIX) || !BASE64URL.test(cursor.slice(PREFIX.length))) {
    return { problem: "is not a cursor browse_catalog handed out" };
  }
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(cursor.slice(PREFIX.length), "base64url").toString("utf8"));
  } catch {
    return { problem: "is not a cursor browse_catalog handed out" };
  }
  if (!Array.isArray(value) || value.length !== 2 || typeof value[0] !== "string" || typeof value[1] !== "string" || value[1].length === 0) {
    return { problem: "is not a cursor browse_catalog handed out" };
  }
  if (value[0] !== listing) return { problem: value[0] ? `belongs to the tools of another server; pass the server it came with` : "belongs to the server list; pass it without server" };
  return { after: value[1] };
}
