import { count, desc, eq, sql } from "drizzle-orm";
import { pageNumber } from "~/lib/rules/params";
import { db } from "../db/client.server";
import { containsPattern } from "../db/sql-like.server";
import { users } from "../db/schema";

export const USERS_PAGE_SIZE = 50;

/** The list's query parameters (the screen's address, the JSON call's query string): `q` (part of an e-mail) and `page`. */
export function userListQuery(params: URLSearchParams) {
  return { q: (params.get("q") ?? "").trim().slice(0, 254), page: pageNumber(params.get("page"), 100_000) };
}

export function listUsers(options: { q: string; page: number }) {
  const where = options.q
    ? sql`${users.email} like ${containsPattern(options.q.toLowerCase())} escape '\\'`
    : undefined;
  const total = db().select({ n: count() }).from(users).where(where).get()?.n ?? 0;
  const rows = db()
    .select({
      id: users.id,
      email: users.email,
      isAdmin: users.isAdmin,
      createdAt: users.createdAt,
      lastLoginAt: users.lastLoginAt,
    })
    .from(users)
    .where(where)
    .orderBy(desc(users.createdAt), desc(users.id))
    .limit(USERS_PAGE_SIZE)
    .offset((options.page - 1) * USERS_PAGE_SIZE)
    .all();
  const registered = options.q ? (db().select({ n: count() }).from(users).get()?.n ?? 0) : total;
  return { rows, matching: total, registered, pages: Math.max(1, Math.ceil(total / USERS_PAGE_SIZE)) };
}

export function findUser(id: number) {
  return (
    db()
      .select({ id: users.id, email: users.email, isAdmin: users.isAdmin })
      .from(users)
      .where(eq(users.id, id))
      .get() ?? null
  );
}

export type DeleteUserResult =
  | { ok: true; deletedUserEmail: string; self: boolean }
  | { ok: false; reason: "not-found" | "last-admin"; message: string };

/**
 * Deletes an account (orders keep their copy of the e-mail). The last admin cannot be
 * deleted: the shop would have no one left to run it. Checked in the same transaction.
 */
export function deleteUser(actorId: number, targetId: number): DeleteUserResult {
  return db().transaction(
    (tx) => {
      const target = tx.select().from(users).where(eq(users.id, targetId)).get();
      if (!target) return { ok: false, reason: "not-found", message: "ユーザーが見つかりません" } as const;
      if (target.isAdmin) {
        const admins = tx.select({ n: count() }).from(users).where(eq(users.isAdmin, true)).get()?.n ?? 0;
        if (admins <= 1)
          return {
            ok: false,
            reason: "last-admin",
            message: "最後の管理者は削除できません。先に別の管理者を用意してください。",
          } as const;
      }
      tx.delete(users).where(eq(users.id, targetId)).run();
      return { ok: true, deletedUserEmail: target.email, self: target.id === actorId } as const;
    },
    { behavior: "immediate" },
  );
}
