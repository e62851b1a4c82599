import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { db } from "~/server/db/client.server";
import { users } from "~/server/db/schema";
import { deleteUser, listUsers } from "~/server/accounts/user-admin.server";

function user(email: string, isAdmin = false) {
  return db().insert(users).values({ email, passwordHash: "x", isAdmin }).returning().get();
}

describe("user management", () => {
  it("never deletes the last admin, but deletes an admin when another remains", () => {
    const first = user("admin1@example.jp", true);
    expect(deleteUser(first.id, first.id)).toEqual({
      ok: false,
      reason: "last-admin",
      message: expect.stringContaining("最後の管理者"),
    });
    const second = user("admin2@example.jp", true);
    expect(deleteUser(first.id, second.id)).toEqual({
      ok: true,
      deletedUserEmail: "admin2@example.jp",
      self: false,
    });
    expect(deleteUser(first.id, first.id)).toMatchObject({ ok: false });
    const third = user("admin3@example.jp", true);
    expect(deleteUser(first.id, first.id)).toEqual({
      ok: true,
      deletedUserEmail: "admin1@example.jp",
      self: true,
    });
    expect(db().select().from(users).where(eq(users.id, third.id)).get()).toBeTruthy();
  });

  it("searches by e-mail with LIKE wildcards taken literally, and pages", () => {
    user("a_b@example.jp");
    user("axb@example.jp");
    expect(listUsers({ q: "a_b", page: 1 }).rows.map((u) => u.email)).toEqual(["a_b@example.jp"]);
    for (let i = 0; i < 60; i++) user(`bulk${i}@example.jp`);
    const first = listUsers({ q: "bulk", page: 1 });
    expect(first.rows).toHaveLength(50);
    expect(first.pages).toBe(2);
    expect(listUsers({ q: "bulk", page: 2 }).rows).toHaveLength(10);
  });
});
