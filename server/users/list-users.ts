import type { TPageQuery, TUser } from "../../lib/schemas";
import { toPage, type Page } from "../../lib/pagination";
import type { Db } from "../db/client";
import { toUserDto } from "./user-dto";

export async function listUsers(db: Db, q: TPageQuery): Promise<Page<TUser>> {
  const rows = await db.user.findMany({
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    take: q.limit + 1,
    ...(q.cursor ? { cursor: { id: q.cursor }, skip: 1 } : {}),
  });
  return toPage(rows.map(toUserDto), q.limit);
}

export async function getUserByEmail(db: Db, email: string) {
  return db.user.findUnique({ where: { email: email.trim().toLowerCase() } });
}
