import { eq, ne } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as listRoute from "~/routes/api/users/list";
import * as itemRoute from "~/routes/api/users/item";
import * as dashboardRoute from "~/routes/api/security-dashboard";
import { USERS_PAGE_SIZE } from "~/server/accounts/user-admin.server";
import { db } from "~/server/db/client.server";
import { orders, users } from "~/server/db/schema";
import { adminWithToken, apiCall } from "../../helpers/api";
import { sessionOf } from "../../helpers/route";
import { commitSession, getSession } from "~/server/http/session.server";

let n = 0;
function user(options: { isAdmin?: boolean; label?: string } = {}) {
  n++;
  return db()
    .insert(users)
    .values({
      email: `${options.label ?? "api-user"}-${n}@example.jp`,
      passwordHash: "x",
      isAdmin: options.isAdmin ?? false,
    })
    .returning()
    .get();
}

async function adminSession(userId: number) {
  const session = await getSession(new Request("http://shop.test/"));
  session.set("userId", userId);
  session.set("loggedInAt", Date.now());
  session.set("adminVerifiedAt", Date.now());
  return (await commitSession(session)).split(";")[0] ?? "";
}

const remove = (id: string, options: { token?: string; cookie?: string }) =>
  apiCall(itemRoute, "DELETE", `/api/video/users/${id}`, { ...options, params: { id } });

type ListAnswer = {
  users: Record<string, unknown>[];
  page: number;
  pageSize: number;
  pages: number;
  total: number;
  registered: number;
};

describe("GET /api/video/users", () => {
  it("lists the accounts with the spec's fields, newest first, searched and paged as the screen is", async () => {
    const { token } = adminWithToken("read");
    const made = Array.from({ length: USERS_PAGE_SIZE + 1 }, () => user({ label: "paged" }));
    db()
      .update(users)
      .set({ lastLoginAt: new Date(Date.UTC(2025, 5, 1)) })
      .where(eq(users.id, made[0]!.id))
      .run();
    const first = await apiCall(listRoute, "GET", "/api/video/users?q=paged", { token });
    expect(first.status).toBe(200);
    const answer = first.data as ListAnswer;
    expect(answer).toMatchObject({
      page: 1,
      pageSize: USERS_PAGE_SIZE,
      pages: 2,
      total: USERS_PAGE_SIZE + 1,
    });
    expect(answer.registered).toBeGreaterThan(USERS_PAGE_SIZE + 1);
    expect(answer.users).toHaveLength(USERS_PAGE_SIZE);
    expect(answer.users[0]).toEqual({
      id: made.at(-1)!.id,
      username: made.at(-1)!.email,
      isAdmin: false,
      createdAt: made.at(-1)!.createdAt.toISOString(),
      lastLoginAt: null,
    });
    const second = (await apiCall(listRoute, "GET", "/api/video/users?q=paged&page=2", { token }))
      .data as ListAnswer;
    expect(second.users).toEqual([
      {
        id: made[0]!.id,
        username: made[0]!.email,
        isAdmin: false,
        createdAt: made[0]!.createdAt.toISOString(),
        lastLoginAt: "2025-06-01T00:00:00.000Z",
      },
    ]);
    // A LIKE wildcard is a character like any other.
    expect(
      ((await apiCall(listRoute, "GET", "/api/video/users?q=%25", { token })).data as ListAnswer).total,
    ).toBe(0);
  });

  it("answers only admins (401 to anyone else), 405 to another method", async () => {
    expect((await apiCall(listRoute, "GET", "/api/video/users")).status).toBe(401);
    const customer = user();
    const cookie = await adminSession(customer.id);
    expect((await apiCall(listRoute, "GET", "/api/video/users", { cookie })).status).toBe(401);
    expect((await apiCall(listRoute, "POST", "/api/video/users", { json: {} })).status).toBe(405);
  });
});

describe("DELETE /api/video/users/{id}", () => {
  it("deletes an account and answers its address; its orders keep their copy", async () => {
    const { token } = adminWithToken("write");
    const customer = user({ label: "leaving" });
    const order = db()
      .insert(orders)
      .values({
        orderNumber: `4${String(n).padStart(7, "0")}`,
        checkoutId: `users-c${n}`,
        paymentIntentId: `users-pi${n}`,
        contestName: "大会",
        customerEmail: customer.email,
        customerName: "退会 花子",
        userId: customer.id,
        totalAmount: 3000,
      })
      .returning()
      .get();
    const answer = await remove(String(customer.id), { token });
    expect(answer).toMatchObject({
      status: 200,
      data: { deletedUserEmail: customer.email, loggedOut: false },
    });
    expect(db().select().from(users).where(eq(users.id, customer.id)).get()).toBeUndefined();
    expect(db().select().from(orders).where(eq(orders.id, order.id)).get()).toMatchObject({
      customerEmail: customer.email,
      userId: null,
    });
    expect(await remove(String(customer.id), { token })).toMatchObject({
      status: 404,
      data: { message: "ユーザーが見つかりません" },
    });
    expect((await remove("abc", { token })).status).toBe(404);
    expect((await apiCall(itemRoute, "GET", "/api/video/users/1", { token })).status).toBe(405);
  });

  it("an admin deleting their own account is logged out of this session, as on the screen", async () => {
    const me = user({ isAdmin: true, label: "self" });
    user({ isAdmin: true, label: "other-admin" });
    const cookie = await adminSession(me.id);
    const answer = await remove(String(me.id), { cookie });
    expect(answer).toMatchObject({ status: 200, data: { deletedUserEmail: me.email, loggedOut: true } });
    expect(answer.headers.get("Set-Cookie")).toMatch(/Expires=Thu, 01 Jan 1970/);
    expect(sessionOf(answer)).toMatch(/=$/);
    expect((await apiCall(dashboardRoute, "GET", "/api/admin/security-dashboard", { cookie })).status).toBe(
      401,
    );
  });

  it("a token whose admin deletes their own account stops working", async () => {
    const { admin, token } = adminWithToken("write");
    expect(await remove(String(admin.id), { token })).toMatchObject({
      status: 200,
      data: { deletedUserEmail: admin.email, loggedOut: false },
    });
    expect((await apiCall(listRoute, "GET", "/api/video/users", { token })).status).toBe(401);
  });

  it("attack: a read-only token, a customer and a visitor delete nobody (403, 401)", async () => {
    const target = user({ label: "kept" });
    const { token } = adminWithToken("read");
    expect(await remove(String(target.id), { token })).toMatchObject({
      status: 403,
      data: { message: "このAPIトークンは読み取り専用です" },
    });
    const customer = user();
    expect((await remove(String(target.id), { cookie: await adminSession(customer.id) })).status).toBe(401);
    expect((await remove(String(target.id), {})).status).toBe(401);
    expect(db().select().from(users).where(eq(users.id, target.id)).get()).toBeDefined();
  });

  it("never deletes the last admin (409), by a session or a token", async () => {
    const { admin, token } = adminWithToken("write");
    // This admin is made the shop's only one.
    db().update(users).set({ isAdmin: false }).where(ne(users.id, admin.id)).run();
    expect(await remove(String(admin.id), { token })).toMatchObject({
      status: 409,
      data: { message: "最後の管理者は削除できません。先に別の管理者を用意してください。" },
    });
    const cookie = await adminSession(admin.id);
    expect((await remove(String(admin.id), { cookie })).status).toBe(409);
    expect(db().select().from(users).where(eq(users.id, admin.id)).get()?.isAdmin).toBe(true);
  });
});
