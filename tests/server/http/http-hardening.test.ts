import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { setClock } from "~/server/core/clock.server";
import { db } from "~/server/db/client.server";
import { checkouts, orders } from "~/server/db/schema";
import { commitSession, getSession } from "~/server/http/session.server";
import { createContest } from "~/server/catalog/contests.server";
import { deleteExpiredDrafts, DRAFT_EXPIRY_MS, NEW_DRAFTS_PER_ADDRESS } from "~/server/checkout/draft.server";
import { applySecurityHeaders } from "~/server/http/security-headers.server";
import { callRoute, sessionOf } from "../../helpers/route";
import { formRequest, seedContest } from "../../helpers/shop";
import { createUser } from "../../helpers/accounts";

const orderForm = () => import("~/routes/storefront/order-form");

async function cookieWith(values: Record<string, unknown>): Promise<string> {
  const session = await getSession(new Request("http://shop.test/"));
  for (const [key, value] of Object.entries(values)) session.set(key as "checkoutId", value as string);
  return (await commitSession(session)).split(";")[0] ?? "";
}

describe("HTTP hardening", () => {
  it("bad percent-escapes in the order-form slug are a 404, not a 500", async () => {
    const { loader, action } = await orderForm();
    for (const slug of ["%", "%E0%A4%A", "%ZZ", "a%"]) {
      const request = new Request(`http://shop.test/order-form/x`);
      const page = await callRoute(loader, request, { contestSlug: slug });
      expect(page.status, slug).toBe(404);
      const post = await callRoute(action, formRequest("/order-form/x", [["intent", "next"]]), {
        contestSlug: slug,
      });
      expect(post.status, slug).toBe(404);
    }
  });

  it("after logout, /payment-complete no longer shows the previous customer's order", async () => {
    const user = await createUser("complete@example.jp", "Secret-Pass1");
    const order = db()
      .insert(orders)
      .values({
        orderNumber: "31000001",
        checkoutId: "pc-checkout",
        paymentIntentId: "pc-pi",
        contestName: "完了テスト大会",
        customerEmail: "complete@example.jp",
        customerName: "完了 花子",
        totalAmount: 3000,
        lineCount: 1,
      })
      .returning()
      .get();
    const cookie = await cookieWith({
      userId: user.id,
      lastOrderId: order.id,
    });
    const { loader } = await import("~/routes/checkout/payment-complete");
    const before = await callRoute(
      loader,
      new Request("http://shop.test/payment-complete", { headers: { Cookie: cookie } }),
    );
    expect(before.data).toMatchObject({ orderNumber: "31000001" });

    const { action: logout } = await import("~/routes/account/logout");
    const out = await callRoute(
      logout,
      new Request("http://shop.test/logout", { method: "POST", headers: { Cookie: cookie } }),
    );
    const after = await callRoute(
      loader,
      new Request("http://shop.test/payment-complete", { headers: { Cookie: sessionOf(out) } }),
    );
    expect(after.status).toBe(302);
    expect(after.location).toBe("/");
    expect(JSON.stringify(after.data)).not.toContain("complete@example.jp");
  });

  it("after the 60-minute admin window, the login left gets no admin-only media list", async () => {
    const T0 = Date.UTC(2025, 5, 1, 3, 0, 0);
    const admin = await createUser("window@example.jp", "Secret-Pass1", { isAdmin: true });
    const contestId = createContest("非公開の大会"); // unpublished: only an admin may list it
    const cookie = await cookieWith({
      userId: admin.id,
      loggedInAt: T0,
      adminVerifiedAt: T0,
    });
    const { loader } = await import("~/routes/api/media/list");
    const list = () =>
      callRoute(
        loader,
        new Request(`http://shop.test/api/video/contests/${contestId}/media`, {
          headers: { Cookie: cookie },
        }),
        {
          id: String(contestId),
        },
      );
    setClock(() => T0 + 10 * 60 * 1000);
    const inside = await list();
    expect(inside.status).toBe(200);
    setClock(() => T0 + 61 * 60 * 1000);
    expect((await list()).status).toBe(404);
  });

  it("personal and admin pages and APIs are sent with Cache-Control: private, no-store", async () => {
    const admin = await createUser("nostore@example.jp", "Secret-Pass1", { isAdmin: true });
    const contestId = createContest("キャッシュしない大会");
    const cookie = await cookieWith({
      userId: admin.id,
      loggedInAt: Date.now(),
      adminVerifiedAt: Date.now(),
    });
    const paths = [
      "/account",
      "/account/password",
      "/purchase-history",
      "/admin",
      "/admin/orders",
      "/admin/sales.csv",
      "/admin-login",
      "/admin-2fa-verify",
      "/order-confirmation",
      "/email-verification",
      "/payment",
      "/payment-complete",
      "/download/abc",
      "/api/admin/security-dashboard",
      "/api/video/contests/1/media/chunked-status",
      "/api/video/contests/1/media/5",
    ];
    for (const pathname of paths) {
      const headers = new Headers({ "Content-Type": "text/html; charset=utf-8" });
      applySecurityHeaders(headers, { pathname });
      expect(headers.get("Cache-Control"), pathname).toBe("private, no-store");
    }
    // The admin's media list (unpublished media) under the public list's address.
    const { loader } = await import("~/routes/api/media/list");
    const list = await callRoute(
      loader,
      new Request(`http://shop.test/api/video/contests/${contestId}/media`, { headers: { Cookie: cookie } }),
      { id: String(contestId) },
    );
    expect(list.status).toBe(200);
    expect(list.headers.get("Cache-Control")).toBe("private, no-store");
    for (const pathname of [
      "/",
      "/about",
      "/order-form/taikai",
      "/api/contests",
      "/media/x.jpg",
      "/administrator",
    ]) {
      const headers = new Headers({ "Cache-Control": "public, max-age=30" });
      applySecurityHeaders(headers, { pathname });
      expect(headers.get("Cache-Control"), pathname).toBe("public, max-age=30");
    }
  });

  it("unpaid drafts expire 7 days after their last change; paid ones and fresh ones stay", () => {
    const T0 = Date.UTC(2025, 6, 1, 3, 0, 0);
    const row = (
      id: string,
      status: "draft" | "verified" | "paid",
      updatedAt: number,
      paymentIntentId?: string,
    ) =>
      db()
        .insert(checkouts)
        .values({
          id,
          items: [],
          status,
          createdAt: new Date(updatedAt),
          updatedAt: new Date(updatedAt),
          paymentIntentId,
        })
        .run();
    row("old-draft", "draft", T0 - DRAFT_EXPIRY_MS - 1000);
    row("old-verified", "verified", T0 - DRAFT_EXPIRY_MS - 1000);
    row("old-paid", "paid", T0 - 100 * DRAFT_EXPIRY_MS);
    row("fresh-draft", "draft", T0 - DRAFT_EXPIRY_MS + 60_000);
    row("old-payment-started", "verified", T0 - DRAFT_EXPIRY_MS - 1000, "pi-started");
    setClock(() => T0);
    expect(deleteExpiredDrafts()).toBe(2);
    const left = db()
      .select({ id: checkouts.id })
      .from(checkouts)
      .all()
      .map((r) => r.id);
    expect(left).not.toContain("old-draft");
    expect(left).not.toContain("old-verified");
    expect(left).toEqual(expect.arrayContaining(["old-paid", "fresh-draft", "old-payment-started"]));
  });

  it("order-form posts without a cookie from one address stop storing drafts (429, choices kept)", async () => {
    const shop = seedContest();
    const slug = shop.name;
    const { action } = await orderForm();
    const fields: [string, string][] = [
      ["items[0].category", "A部門"],
      ["items[0].athleteId", String(shop.onSale.id)],
      ["items[0].formatId", String(shop.vertical.id)],
      ["intent", "add"],
    ];
    const post = (ip: string) => {
      const request = formRequest(`/order-form/${slug}`, fields);
      request.headers.set("X-Shop-Client-Address", ip);
      return callRoute(action, request, { contestSlug: slug });
    };
    const count = () => db().select({ id: checkouts.id }).from(checkouts).all().length;
    const before = count();
    for (let i = 0; i < NEW_DRAFTS_PER_ADDRESS.limit; i++)
      expect((await post("203.0.113.8")).status).toBe(302);
    expect(count()).toBe(before + NEW_DRAFTS_PER_ADDRESS.limit);

    const refused = await post("203.0.113.8");
    expect(refused.status).toBe(429);
    expect(count()).toBe(before + NEW_DRAFTS_PER_ADDRESS.limit);
    expect(JSON.stringify(refused.data)).toContain("しばらく時間をおいてから");
    expect(refused.data).toMatchObject({
      items: [{ category: "A部門", athleteId: shop.onSale.id, formatId: shop.vertical.id }],
    });

    // Another address, and a customer who already has a draft, carry on.
    expect((await post("203.0.113.9")).status).toBe(302);
    const draftId = db().select({ id: checkouts.id }).from(checkouts).all().at(-1)!.id;
    const withDraft = formRequest(`/order-form/${slug}`, fields, await cookieWith({ checkoutId: draftId }));
    withDraft.headers.set("X-Shop-Client-Address", "203.0.113.8");
    expect((await callRoute(action, withDraft, { contestSlug: slug })).status).toBe(302);
    expect(db().select().from(checkouts).where(eq(checkouts.id, draftId)).get()?.items).toHaveLength(2);
  });
});
