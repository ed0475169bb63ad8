import type { TUser, TUserListQuery } from "../../lib/schemas";
import { toPage, type Page } from "../../lib/pagination";
import type { Db } from "../db/client";
import { toUserDto } from "./user-dto";

export async function listUsers(db: Db, q: TUserListQuery): Promise<Page<TUser>> {
  // `contains` becomes ILIKE '%…%' with the text as given: escape LIKE's wildcards (and its escape character,
  // the backslash) so "%" or "_" in a search are plain characters, not "match everything".
  const text = q.q ? { contains: q.q.replace(/[\\%_]/g, "\\$&"), mode: "insensitive" as const } : undefined;
  const rows = await db.user.findMany({
    ...(text ? { where: { OR: [{ email: text }, { name: text }] } } : {}),
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    take: q.limit + 1,
    ...(q.cursor ? { cursor: { id: q.cursor }, skip: 1 } : {}),
  });
  return toPage(rows.map(toUserDto), q.limit);
}

export async function getUserByEmail(db: Db, email: string) {
  return db.user.findUnique({ where: { email: email.trim().toLowerCase() } });
}
